import ArgumentParser
import CredentialCore

/// `--generate-completion-script`: the argument parser's script, made to insert the names
/// a custom completion prints (stored host names: anyone's text, from an imported file or
/// another program's keyring item) literally. This is the one place that makes them so:
/// `make docs` installs what the executables print here, and a user who sources
/// `<(git-credential-sqlite --generate-completion-script bash)` gets the same script.
enum CompletionScript {
    static let option = "--generate-completion-script"

    /// The script, when the arguments ask for one (`--generate-completion-script [SHELL]`
    /// or `=SHELL`, as the argument parser takes them); `nil` otherwise.
    static func requested<Command: ParsableCommand>(by arguments: [String], for command: Command.Type) throws -> String? {
        guard let index = arguments.firstIndex(where: { $0 == option || $0.hasPrefix(option + "=") }) else { return nil }
        let written = arguments[index].hasPrefix(option + "=") ? String(arguments[index].dropFirst(option.count + 1))
            : arguments.indices.contains(index + 1) ? arguments[index + 1] : nil
        guard let shell = written.map(CompletionShell.init(rawValue:)) ?? CompletionShell.autodetected() else {
            throw HelperError(.usage, "\(option) takes bash, zsh or fish, not \(Trace.quoted(written ?? "(none)"))",
                              fix: "\(Command._commandName) \(option) bash")
        }
        return try literal(Command.completionScript(for: shell), shell: shell, name: Command._commandName)
    }

    static func literal(_ script: String, shell: CompletionShell, name: String) throws -> String {
        switch shell {
        case .bash: return try bashKeepingHostAndPortOneWord(bashTakingCustomCompletionsLiterally(script, name: name), name: name)
        case .zsh: return zshWithOneRestArgument(try zshQuotingHistoryExpansion(script))
        default: return script  // fish's `complete -a "(...)"` inserts what it is given, quoted
        }
    }

    /// The argument parser's bash script hands what a custom completion prints to
    /// `compgen -W`, which expands each word as shell code: `$(...)`, backquotes, variables
    /// and quotes in a stored name ran at TAB. Here each printed line becomes one
    /// candidate, quoted for the command line (printf %q), kept when it starts with the
    /// word typed so far. Bash's own quoting (`complete -o filenames`) is turned off for
    /// it: it leaves `$` and backquotes as they are, so a stored `$(...)` would run at Enter.
    static func bashTakingCustomCompletionsLiterally(_ script: String, name: String) throws -> String {
        let call = "__\(name)_add_completions -W \"$(__\(name)_custom_complete "
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = line.prefix { $0 == " " || $0 == "\t" }
            let code = line.dropFirst(indent.count)
            guard code.hasPrefix(call), code.hasSuffix(")\"") else { return String(line) }
            return String(indent) + "__\(name)_add_literal_completions " + String(code.dropFirst(call.count).dropLast(2))
        }
        if let start = lines.firstIndex(of: "__\(name)_add_completions() {"),
           let end = lines[start...].firstIndex(of: "}") {
            lines.insert(contentsOf: literalFunction(name: name), at: end + 1)
        }
        let result = lines.joined(separator: "\n")
        // A form this does not know (a newer argument parser) must not slip through unchanged.
        guard !result.contains("-W \"$(") else {
            throw HelperError(.failure, "the bash completion script would hand a command's output to compgen -W, which runs the code in stored names",
                              fix: "use the completion scripts that make install puts in share/bash-completion")
        }
        return result
    }

    static func literalFunction(name: String) -> [String] {
        """

        # Each line the executable prints is one candidate, quoted as it must be typed: never
        # through compgen -W, which runs the $(...) or backquotes of a stored name, nor through
        # bash's quoting for file names, which leaves them to run at Enter.
        __\(name)_add_literal_completions() {
            compopt +o filenames 2>/dev/null
            local completion quoted
            while IFS='' read -r completion; do
                [[ -n "${completion}" ]] || continue
                printf -v quoted %q "${completion}"
                if [[ "${quoted}" == "${cur}"* ]]; then
                    COMPREPLY+=("${quoted}")
                fi
            done < <(__\(name)_custom_complete "${@}")
        }
        """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Bash splits the word being completed at COMP_WORDBREAKS' colon: `list 127.0.0.1:84`
    /// reached the executable as three words, and what it offered matched nothing (bash
    /// compares with the part after the colon). The argument parser's function is renamed
    /// and called with the words as typed, by bash-completion's `_get_comp_words_by_ref -n :`,
    /// and `__ltrim_colon_completions` then leaves bash the part after the colon to replace.
    /// Without bash-completion (a script sourced by hand) it runs as the parser wrote it.
    static func bashKeepingHostAndPortOneWord(_ script: String, name: String) throws -> String {
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let function = "_\(name)() {", renamed = "__\(name)_complete_words"
        guard lines.filter({ $0 == function }).count == 1, let index = lines.firstIndex(of: function),
              let registration = lines.lastIndex(where: { $0.hasPrefix("complete ") && $0.hasSuffix(" -F _\(name) \(name)") }) else {
            throw HelperError(.failure, "the bash completion script no longer has the function _\(name) as expected, so host:port would not complete",
                              fix: "use the completion scripts that make install puts in share/bash-completion")
        }
        lines[index] = renamed + "() {"
        lines.insert(contentsOf: """
            # bash splits the word being completed at the colon of host:port: completed as
            # typed, then only the part after the colon is left for bash to replace.
            _\(name)() {
                if ! declare -F _get_comp_words_by_ref >/dev/null || ! declare -F __ltrim_colon_completions >/dev/null; then
                    \(renamed) "${@}"
                    return
                fi
                local cur prev words cword
                _get_comp_words_by_ref -n : cur prev words cword
                local -a COMP_WORDS=("${words[@]}")
                local COMP_CWORD="${cword}"
                \(renamed) "${1}" "${cur}" "${prev}"
                __ltrim_colon_completions "${cur}"
            }

            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), at: registration)
        return lines.joined(separator: "\n")
    }

    /// zsh's _arguments completes nothing when given two rest arguments ("doubled rest
    /// argument definition"): a command with a variadic argument of its own (credential-curl)
    /// also got the `(-)*:: :->arg` of the argument parser's implicit `help` subcommand.
    /// Such a command keeps its own; `help` is then not completed, which --help spares.
    static func zshWithOneRestArgument(_ script: String) -> String {
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let code = lines.map { String($0.drop { $0 == " " }) }
        var doubled: [Int] = [], open: Int?
        // Each function's `local -ar arg_specs=(` ... `)` on its own.
        for index in lines.indices {
            if code[index].hasSuffix("local -ar arg_specs=(") {
                open = index
            } else if let start = open, code[index] == ")" {
                let block = (start + 1)..<index
                if block.contains(where: { code[$0].hasPrefix("'*:") }) {
                    doubled += block.filter { code[$0] == "'(-): :->command'" || code[$0] == "'(-)*:: :->arg'" }
                }
                open = nil
            }
        }
        for index in doubled.reversed() { lines.remove(at: index) }
        return lines.joined(separator: "\n")
    }

    /// The argument parser's zsh function turns off banghist, and compadd then leaves a `!`
    /// of a stored name unquoted: inserted, `x!!` or `!-2` re-ran the user's earlier
    /// commands at Enter. Left as zsh has it, compadd quotes `!` (history expansion never
    /// touches the function's own code, only lines typed at the prompt).
    static func zshQuotingHistoryExpansion(_ script: String) throws -> String {
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let from = "    unsetopt aliases banghist"
        guard lines.filter({ $0 == from }).count == 1, let index = lines.firstIndex(of: from) else {
            throw HelperError(.failure, "the zsh completion script no longer turns off banghist as expected, so a stored `!` could run earlier commands",
                              fix: "use the completion scripts that make install puts in share/zsh/site-functions")
        }
        lines[index] = "    unsetopt aliases"
        return lines.joined(separator: "\n")
    }
}
