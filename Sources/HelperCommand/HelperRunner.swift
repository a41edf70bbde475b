import ArgumentParser
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// A helper's root command, and the options that open its store.
public protocol HelperRoot: ParsableCommand {
    associatedtype Options: StoreOptions
}

extension HelperRoot {
    /// For a root command run without an action.
    public static var missingAction: HelperError {
        HelperError(.usage, "no action given (git runs helpers with get, store or erase last)",
                    fix: "see \(_commandName) --help")
    }
}

/// The one entry point of every helper executable: hardening first, then git's rules
/// for actions, then the argument parser, with every failure as one line on stderr.
public enum HelperRunner {
    public static func main<Root: HelperRoot>(_ root: Root.Type) -> Never {
        ProcessHardening.apply()
        Trace.start(program: Root._commandName)
        let arguments = Array(CommandLine.arguments.dropFirst())
        Trace.note("called with " + (arguments.isEmpty ? "no arguments" : arguments.map(Trace.quoted).joined(separator: " ")))
        do {
            // git's own calls take the short road: the argument parser's reflection costs
            // more than the rest of a get together (measured: 9.7M of 14.3M instructions,
            // and still 7.5M for the options alone). Anything unusual takes the long road.
            if let action = ProtocolAction.invoked(by: arguments),
               let settings = Root.Options.Settings(gitArguments: arguments.dropLast()) {
                try action.run(settings)
                exit(0)
            }
            if let script = try CompletionScript.requested(by: arguments, for: root) {
                SystemIO.writeAll(1, script + "\n")
                exit(0)
            }
            try ignoreUnknownAction(arguments, root: root)
            try runParsed(Root.parseAsRoot(arguments), root: root)
        } catch {
            exit(report(error, root: root))
        }
    }

    /// Runs what the argument parser made of the arguments; management commands are
    /// traced here, by name and outcome, all alike.
    static func runParsed<Root: ParsableCommand>(_ parsed: ParsableCommand, root: Root.Type) throws -> Never {
        var command = parsed
        let name = type(of: command)._commandName
        if name != Root._commandName { Trace.enter(name) }
        Trace.note("started")
        try command.run()
        Trace.note("succeeded")
        exit(0)
    }

    /// The entry point of a plain command (not a credential helper): hardening, the
    /// argument parser, and failures as one line. `parsedWithout` gives the command for
    /// its everyday calls without the parser, whose reflection costs more than the rest
    /// of such a run, and more the more types the executable holds (basic-auth-header:
    /// 4.9M of 5.2M instructions alone, 5.8M beside the SQLite helper); nil: the parser's.
    public static func main<Command: ParsableCommand>(command: Command.Type, parsedWithout: ([String]) -> ParsableCommand? = { _ in nil }) -> Never {
        ProcessHardening.apply()
        Trace.start(program: Command._commandName)
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if let parsed = parsedWithout(arguments) { try runParsed(parsed, root: command) }
            if let script = try CompletionScript.requested(by: arguments, for: command) {
                SystemIO.writeAll(1, script + "\n")
                exit(0)
            }
            // A command of subcommands (git-credential-forward, a helper without a store).
            if !Command.configuration.subcommands.isEmpty { try ignoreUnknownAction(arguments, root: command) }
            try runParsed(Command.parseAsRoot(arguments), root: command)
        } catch {
            exit(report(error, root: Command.self))
        }
    }

    /// git may call a helper with actions it does not know yet: ignore them, silently; but
    /// git never gives a helper a terminal as stdin, so there a person mistyped. git puts
    /// its action last, after options and their values: a word before it is never git's
    /// call (`expot -o FILE`), and a script must not take it for done.
    static func ignoreUnknownAction<Root: ParsableCommand>(_ arguments: [String], root: Root.Type) throws {
        let known = Root.configuration.subcommands.map { $0._commandName }
        guard isUnknownAction(arguments, known: known) else { return }
        let words = commandWords(arguments)
        let unknown = UnknownCommand.error(program: Root._commandName, words: words, known: known + ["help"])
        if words.count > 1 { throw unknown }
        Trace.note("ignored the action \(Trace.quoted(arguments.last!)), which this helper does not know")
        if isatty(0) == 1 { SystemIO.writeAll(2, unknown.line(program: Root._commandName) + "\n") }
        exit(0)
    }

    /// The action is the last argument. It is unknown when it is a word (not an option)
    /// and no argument names one of our commands or asks for shell completion.
    static func isUnknownAction(_ arguments: [String], known: [String]) -> Bool {
        guard let last = arguments.last, !last.hasPrefix("-"), last != "help" else { return false }
        let completion = ["--generate-completion-script", "---completion"]
        return !arguments.contains(where: { known.contains($0) || completion.contains($0) })
    }

    /// An option's value refused by our own reading of it inside the argument parser (a
    /// transform: `refusing`), which reports it after its own words (`The value 'x' is
    /// invalid for '--option'`) but knows nothing of its fix. Kept here, not written into
    /// the parser's text: that text holds the value as typed, which could hold a "Fix:".
    nonisolated(unsafe) static var refusedValue: HelperError?

    /// The error for a transform to throw for a value it refuses.
    public static func refusing(_ error: HelperError) -> Error {
        refusedValue = error
        return ValidationError(error.message)
    }

    /// The words where a command name goes: every word but the values of long options
    /// (`--db PATH`), and the last argument, git's action. git's call (`[OPTIONS] ACTION`)
    /// has just one.
    static func commandWords(_ arguments: [String]) -> [String] {
        var words: [String] = [], takesValue = false
        for argument in arguments.dropLast() {
            if argument.hasPrefix("-") {
                takesValue = argument.hasPrefix("--") && argument.count > 2 && !argument.contains("=")
            } else if takesValue {
                takesValue = false
            } else {
                words.append(argument)
            }
        }
        return words + arguments.suffix(1)
    }

    /// The argument parser's line for two flags of which only one may be given (`configure
    /// --global --local`: "Value to be set with flag '--local' had already been set with
    /// flag '--global'") in our words, naming both and the fix; nil for any other line.
    static func conflict(_ message: String, program: String) -> HelperError? {
        let parts = message.split(separator: "'", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "Value to be set with flag ", parts[2] == " had already been set with flag ",
              parts[4].isEmpty else { return nil }
        return HelperError(.usage, "\(parts[3]) and \(parts[1]) cannot both be given: they choose the same thing",
                           fix: "keep one of them (see \(program) --help)")
    }

    /// Prints the error as one line on stderr (help on stdout) and returns the exit code;
    /// the trace gets the same line.
    public static func report<Root: ParsableCommand>(_ error: Error, root: Root.Type) -> Int32 {
        let (code, fd, text) = outcome(of: error, root: root)
        if let text { SystemIO.writeAll(fd, text + "\n") }
        Trace.note(code == 0 ? "finished" : "failed with exit code \(code)" + (text.map { ": " + $0 } ?? ""))
        return code
    }

    /// The exit code, and the line for stderr (help: the text for stdout) if any.
    static func outcome<Root: ParsableCommand>(of error: Error, root: Root.Type) -> (code: Int32, fd: Int32, text: String?) {
        let program = Root._commandName
        switch error {
        case let error as HelperError:
            return (error.kind == .usage ? 2 : 1, 2, error.line(program: program))
        case let error as ProtocolError:
            // Each command says what it did with bad input (asInputError); this is the rest.
            return (2, 2, HelperError(.usage, "invalid credential input: \(error.message)").line(program: program))
        case let error as ExitCode:
            return (error.rawValue, 2, nil)
        default:
            let code = Root.exitCode(for: error)
            if code == .success { return (0, 1, HelpExamples.text(for: error, command: root)) }
            if code == .validationFailure || code.rawValue == 64 {
                let message = Root.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
                // A value our own reading refused, after the parser's words: its fix, the
                // one that helps, and only that one.
                if let refused = refusedValue, message.hasSuffix(": " + refused.message) {
                    return (2, 2, HelperError(.usage, message, fix: refused.fix).line(program: program))
                }
                return (2, 2, (conflict(message, program: program) ?? HelperError(.usage, message, fix: "see \(program) --help")).line(program: program))
            }
            return (1, 2, "\(program): \(Root.message(for: error))")
        }
    }
}
