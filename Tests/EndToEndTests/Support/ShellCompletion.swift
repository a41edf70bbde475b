import Foundation
import Testing

/// The shells a completion script is written for, each driven by its fixture in
/// Tests/Fixtures/completion: bash through bash-completion's loader, `complete -p` and the
/// completion function; zsh through compinit on a pseudo-terminal (zpty) and a TAB; fish
/// through `complete -C`.
enum Shell: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case bash, zsh, fish

    var testDescription: String { rawValue }

    /// Where the shell's loader looks for a command's completion, under a `share` directory
    /// (as `make install` lays it out under PREFIX/share).
    var completionDirectory: String {
        switch self {
        case .bash: "bash-completion/completions"
        case .zsh: "zsh/site-functions"
        case .fish: "fish/vendor_completions.d"
        }
    }

    /// Where this repository keeps the shell's scripts.
    var sourceDirectory: String { SourceTree.root + "/completions/" + rawValue }
}

/// Completes command lines in a real shell, with the completion scripts of a `share`
/// directory and the commands of `bin` first on PATH (generated scripts run the
/// executable to complete stored hosts), in a sandbox's environment.
struct ShellCompletion {
    let sandbox: Sandbox
    let share: String
    let bin: String

    /// The repository's completions/ laid out as an installed share directory.
    static func ofSourceTree(in sandbox: Sandbox) throws -> ShellCompletion {
        let share = sandbox.root + "/share"
        for shell in Shell.allCases {
            let link = share + "/" + shell.completionDirectory
            try FileManager.default.createDirectory(atPath: (link as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: shell.sourceDirectory)
        }
        let bin = sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        for command in ProgramTable.names {
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + command,
                                                       withDestinationPath: BuiltProducts.directory + "/" + command)
        }
        return ShellCompletion(sandbox: sandbox, share: share, bin: bin)
    }

    /// What the shell offers for the last word (empty: a new word) of `words`, and the run;
    /// `extra` adds to the environment (a session bus).
    func candidates(_ shell: Shell, _ words: [String], environment extra: [String: String] = [:])
        throws -> (candidates: [String], run: ProcessResult)
    {
        let fixture = SourceTree.root + "/Tests/Fixtures/completion/complete." + shell.rawValue
        let environment = extra.merging(["PATH": bin + ":" + Sandbox.searchPath, "XDG_DATA_DIRS": share + ":/usr/share",
                                         "TERM": "dumb", "SHELL": "/bin/" + shell.rawValue]) { $1 }
        let arguments = shell == .zsh ? ["-f", fixture, share + "/" + shell.completionDirectory] + words : [fixture] + words
        let run = try sandbox.run(Sandbox.which(shell.rawValue) ?? "/usr/bin/" + shell.rawValue, arguments,
                                  environment: environment, timeout: 60)
        var lines = run.stdoutLines
        if shell == .bash, !lines.isEmpty { lines.removeFirst() }  // the `complete -p` line
        // fish gives "candidate<TAB>description"; the others the candidate alone.
        return (lines.map { String($0.prefix { $0 != "\t" }) }.filter { !$0.isEmpty }, run)
    }

    /// The command line an interactive bash (bash-completion loaded, as a login shell has it)
    /// shows after typing `line` and TAB, on a pseudo-terminal: bash splits the word being
    /// completed at COMP_WORDBREAKS, which the fixture's `complete.bash` cannot show. The line
    /// is read back by typing `echo LINE:` before it and Enter.
    func interactiveBash(typing line: String) throws -> (line: String?, run: TerminalSession) {
        let environment = ["PATH": bin + ":" + Sandbox.searchPath, "XDG_DATA_DIRS": share + ":/usr/share",
                           "TERM": "dumb", "SHELL": "/bin/bash", "PS1": "$ "]
        let steps = [
            TerminalStep(after: "", pause: 0, text: "bind 'set enable-bracketed-paste off' 2>/dev/null; . /usr/share/bash-completion/bash_completion; echo READY-$((1+1))\n"),
            // Readline completes at the TAB before it reads on: the rest waits in the terminal.
            TerminalStep(after: "READY-2", pause: 0, text: line + "\t\u{01}echo LINE: \u{05}\n"),
            TerminalStep(after: "LINE: ", pause: 0),
            TerminalStep(after: "\n$ ", pause: 0, text: "exit\n"),
        ]
        let run = try sandbox.onTerminal(["bash", "--norc", "--noprofile", "-i"], steps: steps, stdinOnTerminal: true,
                                         stdoutOnTerminal: true, stderrOnTerminal: true, seconds: 45, environment: environment)
        let text = run.terminal.replacingOccurrences(of: "\r", with: "")
        let echoed = text.split(separator: "\n").last { $0.hasPrefix("LINE: ") }
        return (echoed.map { String($0.dropFirst("LINE: ".count)) }, run)
    }
}
