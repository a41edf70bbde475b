import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// What a program reads on standard input, said when that is a terminal: a person typed
/// the command and would otherwise wait on a silent terminal (git and scripts pipe the
/// input, and hear nothing). The one place for it: a helper's get, basic-auth-header.
public enum TerminalInput {
    public static var isTerminal: Bool { isatty(0) == 1 }

    /// "PROGRAM: WHAT:" on stderr, only when standard input is a terminal.
    public static func sayWhatIsRead(_ what: String) {
        guard isTerminal else { return }
        SystemIO.writeAll(2, "\(CommandLine.programName): \(what):\n")
    }
}
