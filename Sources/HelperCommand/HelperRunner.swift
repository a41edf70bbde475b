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
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            // git's own calls take the short road: the argument parser's reflection costs
            // more than the rest of a get together (measured: 9.7M of 14.3M instructions,
            // and still 7.5M for the options alone). Anything unusual takes the long road.
            if let action = ProtocolAction.invoked(by: arguments),
               let settings = Root.Options.Settings(gitArguments: arguments.dropLast()) {
                try action.run(settings)
                exit(0)
            }
            // git may call a helper with actions it does not know yet: ignore them, silently.
            if isUnknownAction(arguments, known: Root.configuration.subcommands.map { $0._commandName }) {
                exit(0)
            }
            var command = try Root.parseAsRoot(arguments)
            try command.run()
            exit(0)
        } catch {
            exit(report(error, root: root))
        }
    }

    /// The entry point of a plain command (not a credential helper): hardening, the
    /// argument parser, and failures as one line.
    public static func main<Command: ParsableCommand>(command: Command.Type) -> Never {
        ProcessHardening.apply()
        do {
            var command = try Command.parseAsRoot(Array(CommandLine.arguments.dropFirst()))
            try command.run()
            exit(0)
        } catch {
            exit(report(error, root: Command.self))
        }
    }

    /// The action is the last argument. It is unknown when it is a word (not an option)
    /// and no argument names one of our commands or asks for shell completion.
    static func isUnknownAction(_ arguments: [String], known: [String]) -> Bool {
        guard let last = arguments.last, !last.hasPrefix("-"), last != "help" else { return false }
        let completion = ["--generate-completion-script", "---completion"]
        return !arguments.contains(where: { known.contains($0) || completion.contains($0) })
    }

    /// Prints the error as one line on stderr (help on stdout) and returns the exit code.
    static func report<Root: ParsableCommand>(_ error: Error, root: Root.Type) -> Int32 {
        let program = Root._commandName
        switch error {
        case let error as HelperError:
            SystemIO.writeAll(2, error.line(program: program) + "\n")
            return error.kind == .usage ? 2 : 1
        case let error as ProtocolError:
            SystemIO.writeAll(2, "\(program): invalid credential input: \(error.message); nothing was stored\n")
            return 2
        case let error as ExitCode:
            return error.rawValue
        default:
            let code = Root.exitCode(for: error)
            if code == .success {
                SystemIO.writeAll(1, Root.fullMessage(for: error) + "\n")
                return 0
            }
            if code == .validationFailure || code.rawValue == 64 {
                let message = Root.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
                let line = HelperError(.usage, message, fix: "see \(program) --help").line(program: program)
                SystemIO.writeAll(2, line + "\n")
                return 2
            }
            SystemIO.writeAll(2, "\(program): \(Root.message(for: error))\n")
            return 1
        }
    }
}
