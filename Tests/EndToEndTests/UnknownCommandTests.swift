import Foundation
import Testing

/// A command a helper does not know: git's protocol wants it ignored, silently with exit 0
/// (git may run a helper with actions it does not know yet); but git never runs a helper
/// with a terminal as standard input, so from a terminal a person mistyped, and one line
/// on stderr names the command they probably meant. And git puts its action last: a word
/// before the last argument is never git's call, and is an error wherever stdin is.
@Suite struct UnknownCommandTests {
    let sandbox: Sandbox

    init() throws { sandbox = try Sandbox() }

    static let mistyped: [(executable: String, arguments: [String], line: String)] = [
        ("git-credential-sqlite", ["lsit"], "git-credential-sqlite: unknown command 'lsit'. Fix: did you mean 'list'? (see git-credential-sqlite --help)"),
        ("git-credential-sqlite", ["expotr"], "git-credential-sqlite: unknown command 'expotr'. Fix: did you mean 'export'? (see git-credential-sqlite --help)"),
        ("git-credential-sqlite", ["--db", "/tmp/x.db", "unlcok"], "git-credential-sqlite: unknown command 'unlcok'. Fix: did you mean 'unlock'? (see git-credential-sqlite --help)"),
        ("git-credential-sqlite", ["--db=/tmp/x.db", "--grace-period", "5m", "unlcok"], "git-credential-sqlite: unknown command 'unlcok'. Fix: did you mean 'unlock'? (see git-credential-sqlite --help)"),
        ("git-credential-secretservice", ["dcotor"], "git-credential-secretservice: unknown command 'dcotor'. Fix: did you mean 'doctor'? (see git-credential-secretservice --help)"),
        ("git-credential-keyring", ["wich"], "git-credential-keyring: unknown command 'wich'. Fix: did you mean 'which'? (see git-credential-keyring --help)"),
        ("git-credential-keyring", ["frobnicate"], "git-credential-keyring: unknown command 'frobnicate'. Fix: see git-credential-keyring --help"),
    ]

    /// git puts its action last, after options and their values: a word before the last
    /// argument is never git's call but a person's or a script's typo (`expot -o FILE` in
    /// a backup script), an error wherever stdin is: exit 2, one line, nothing written.
    static let strayWords: [(executable: String, arguments: [String], line: String)] = [
        ("git-credential-sqlite", ["expot", "-o", "BACKUP"], "git-credential-sqlite: unknown command 'expot'. Fix: did you mean 'export'? (see git-credential-sqlite --help)"),
        ("git-credential-sqlite", ["lsit", "--db", "x.db"], "git-credential-sqlite: unknown command 'lsit'. Fix: did you mean 'list'? (see git-credential-sqlite --help)"),
        ("git-credential-sqlite", ["--db", "/tmp/x.db", "frobnicate", "-o", "BACKUP"], "git-credential-sqlite: unknown command 'frobnicate'. Fix: see git-credential-sqlite --help"),
        ("git-credential-keyring", ["frobnicate", "now"], "git-credential-keyring: unknown command 'frobnicate'. Fix: see git-credential-keyring --help"),
        ("git-credential-sqlite", ["help", "expot"], "git-credential-sqlite: unknown command 'expot'. Fix: did you mean 'export'? (see git-credential-sqlite --help)"),
        ("git-credential-sqlite", ["--db", "/tmp/x.db", "help", "frobnicate"], "git-credential-sqlite: unknown command 'frobnicate'. Fix: see git-credential-sqlite --help"),
    ]

    @Test(arguments: strayWords.indices)
    func aWordBeforeTheLastIsAnErrorWithoutATerminal(index: Int) throws {
        let (executable, template, line) = Self.strayWords[index]
        let backup = sandbox.root + "/backup"
        let arguments = template.map { $0 == "BACKUP" ? backup : $0 }
        for input in [wire("protocol=https", "host=a.example"), []] {
            let result = try sandbox.run(BuiltProducts.directory + "/" + executable, arguments, input: input)
            #expect(result.exitCode == 2 && result.stdout.isEmpty && result.stderrText == line + "\n", "\(result)")
        }
        let atTerminal = try sandbox.atTerminal(BuiltProducts.directory + "/" + executable, arguments, answers: [],
                                                stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(atTerminal.code == 2 && atTerminal.terminal.replacingOccurrences(of: "\r\n", with: "\n") == line + "\n", "\(atTerminal)")
        #expect(!fileExists(backup) && !fileExists(sandbox.database) && !fileExists(sandbox.keyFile), "a mistyped command wrote a file")
    }

    @Test(arguments: mistyped.indices)
    func atATerminalOneLineSuggestsTheCommand(index: Int) throws {
        let (executable, arguments, line) = Self.mistyped[index]
        let session = try sandbox.atTerminal(BuiltProducts.directory + "/" + executable, arguments, answers: [],
                                             stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(session.code == 0 && session.stdout.isEmpty, "\(session)")
        #expect(session.terminal.replacingOccurrences(of: "\r\n", with: "\n") == line + "\n", "\(session)")
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile), "a mistyped command created the store")
    }

    /// As git runs it (stdin a pipe or a file): nothing at all, exit 0.
    @Test(arguments: mistyped.indices)
    func withoutATerminalItStaysSilent(index: Int) throws {
        let (executable, arguments, _) = Self.mistyped[index]
        let result = try sandbox.run(BuiltProducts.directory + "/" + executable, arguments, input: wire("protocol=https", "host=a.example"))
        #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        let stdinClosed = try sandbox.run("/bin/sh", ["-c", #"exec "$0" "$@" <&-"#, BuiltProducts.directory + "/" + executable] + arguments)
        #expect(stdinClosed.exitCode == 0 && stdinClosed.stdout.isEmpty && stdinClosed.stderr.isEmpty, "\(stdinClosed)")
    }

    /// What was typed is anyone's text on a terminal: a control sequence is shown escaped,
    /// never sent to the terminal, and a URL's password is not echoed.
    @Test func typedControlCharactersAndPasswordsAreNotEchoed() throws {
        let escape = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["\u{1B}]0;pwned\u{07}"], answers: [],
                                            stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(escape.code == 0 && escape.terminal.hasPrefix("git-credential-sqlite: unknown command "), "\(escape)")
        #expect(!escape.terminal.contains("\u{1B}") && !escape.terminal.contains("\u{07}"), "\(escape.terminal.debugDescription)")
        let url = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["https://alice:s3cret-pw@a.example"], answers: [],
                                         stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(url.code == 0 && url.terminal.hasPrefix("git-credential-sqlite: unknown command "), "\(url)")
        #expect(!url.terminal.contains("s3cret-pw"), "\(url.terminal.debugDescription)")
    }
}
