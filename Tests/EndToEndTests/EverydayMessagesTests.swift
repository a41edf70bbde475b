import Foundation
import Testing

/// What a new user typing the helpers' commands by hand meets, each as one exact line:
/// get, store and erase typed at a terminal (git never gives a helper one), a lock of a
/// key-file store, two scopes given to configure, and --help pointing at configure.
@Suite struct EverydayMessagesTests: InSQLiteWorld {
    let world: SQLiteWorld

    static let credential = wire("protocol=https", "host=a.example", "username=alice", "password=typed-secret")

    // MARK: git's actions at a terminal

    /// New-user finding (stop 20): an empty list printed nothing at a terminal, which
    /// looked like a hang or a failure. A person is told on stderr; a script still gets
    /// an empty stdout.
    @Test func anEmptyListAtATerminalSaysSo() throws {
        try helper.storeAll(Self.credential)
        let command = ([BuiltProducts.sqliteHelper] + helper.options + ["list", "b.example"]).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let typed = try sandbox.run("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(typed.exitCode == 0 && typed.stdoutText.contains("no credentials stored for b.example"), "\(typed)")
        let piped = try helper.run(["list", "b.example"])
        #expect(piped.exitCode == 0 && piped.stdout.isEmpty && piped.stderr.isEmpty, "\(piped)")
    }

    /// erase with nothing given would wait on a silent terminal: it says what it takes
    /// (exit 2), and erases nothing.
    @Test func eraseAtATerminalSaysWhatItTakes() throws {
        try helper.storeAll(Self.credential)
        let session = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["erase"], answers: [],
                                             stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(session.code == 2 && session.stdout.isEmpty, "\(session)")
        #expect(session.terminal.replacingOccurrences(of: "\r\n", with: "\n")
                == "git-credential-sqlite: erase reads git's request on standard input, which is a terminal here. Fix: give what to erase: git-credential-sqlite erase HOST-OR-URL\n",
                "\(session)")
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "typed-secret", "erase at a terminal erased")
        // The way the line names works there, and git's own way (a pipe) is unchanged.
        let byHost = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["erase", "a.example"], answers: [],
                                            stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(byHost.code == 0 && byHost.terminal.contains("erased 1 credential"), "\(byHost)")
        try helper.storeAll(Self.credential)
        let piped = try helper.erase(wire("protocol=https", "host=a.example"))
        #expect(piped.exitCode == 0 && piped.stderr.isEmpty, "\(piped)")
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == nil)
    }

    /// store at a terminal would show the password as it is typed: refused, with the
    /// pipe through git credential fill (which asks for it hidden) as the fix.
    @Test(arguments: [["store"], ["--db", "DB", "store"]])
    func storeAtATerminalIsRefused(arguments: [String]) throws {
        let database = sandbox.root + "/named.db"
        let session = try sandbox.atTerminal(BuiltProducts.sqliteHelper, arguments.map { $0 == "DB" ? database : $0 }, answers: [],
                                             stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(session.code == 2 && session.stdout.isEmpty, "\(session)")
        // The fix names the store named (an attacker's finding: pasted, it stored elsewhere).
        let named = arguments.contains("--db") ? " --db \(database)" : ""
        #expect(session.terminal.replacingOccurrences(of: "\r\n", with: "\n")
                == #"git-credential-sqlite: store reads git's credential on standard input, which is a terminal here, where the password would show as typed. Fix: let git ask for it: printf 'url=https://HOST\n\n' | git credential fill | git-credential-sqlite"# + named + " store\n",
                "\(session)")
        #expect(!fileExists(sandbox.database) && !fileExists(database) && !fileExists(sandbox.keyFile), "store at a terminal created a store")
    }

    /// get at a terminal says what it reads, then reads it and answers as for git. (The
    /// lines are typed in one answer, ended by carriage returns, which the terminal turns
    /// into line breaks; the driver's answers are one a prompt.)
    @Test func getAtATerminalSaysWhatItReads() throws {
        try helper.storeAll(Self.credential)
        let session = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["get"], answers: ["protocol=https\rhost=a.example\r"],
                                             stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(session.code == 0, "\(session)")
        #expect(session.terminal.hasPrefix("git-credential-sqlite: get reads git's request from the terminal: key=value lines (protocol=https, host=example.com), then an empty line:\r\n"),
                "\(session)")
        #expect(session.stdout.contains("password=typed-secret\n"), "\(session)")
        // As git runs it: nothing on stderr.
        let piped = try helper.get(wire("protocol=https", "host=a.example"))
        #expect(piped.exitCode == 0 && piped.stderr.isEmpty && piped.attributes["password"] == "typed-secret", "\(piped)")
    }

    // MARK: lock and unlock agree

    /// A key-file store has nothing to lock or unlock: both say so, exit 0.
    @Test func lockAndUnlockOfAKeyFileStoreAgree() throws {
        try helper.storeAll(Self.credential)
        let lock = try helper.run(["lock"])
        #expect(lock.exitCode == 0 && lock.stdout.isEmpty && lock.stderrText == "nothing to lock: \(sandbox.database) uses a key file\n", "\(lock)")
        let unlock = try helper.run(["unlock"])
        #expect(unlock.exitCode == 0 && unlock.stdout.isEmpty && unlock.stderrText == "nothing to unlock: \(sandbox.database) uses a key file\n", "\(unlock)")
        // No store at all is still an error, for both.
        let missing = sandbox.root + "/missing.db"
        for command in ["lock", "unlock"] {
            let result = try helper.run(["--db", missing, command])
            #expect(result.exitCode == 1 && result.stderrText == "git-credential-sqlite: there is no store at \(missing). Fix: check --db, or create one with init\n", "\(command): \(result)")
        }
    }

    // MARK: configure

    /// Two scopes: one line in our words, naming both, and nothing written.
    @Test(arguments: [(["--global", "--local"], "--global and --local"), (["--system", "--global"], "--system and --global")])
    func configureWithTwoScopesNamesTheConflict(scopes: [String], named: String) throws {
        let result = try helper.run(["configure"] + scopes)
        #expect(result.exitCode == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrText == "git-credential-sqlite: \(named) cannot both be given: they choose the same thing. Fix: keep one of them (see git-credential-sqlite --help)\n", "\(result)")
        #expect(!fileExists(sandbox.home + "/.gitconfig"), "configure wrote despite the error")
    }

    // MARK: --help

    /// Each helper's --help shows configure (the full path, which works from cron) before
    /// the line by hand, which says it depends on PATH.
    @Test(arguments: ["git-credential-sqlite", "git-credential-secretservice", "git-credential-keyring"])
    func helpShowsConfigureFirst(executable: String) throws {
        let result = try sandbox.run(BuiltProducts.directory + "/" + executable, ["--help"])
        let lines = result.stdoutLines.map { $0.trimmingCharacters(in: .whitespaces) }
        let configure = lines.firstIndex { $0.hasPrefix("\(executable) configure ") }
        let byHand = lines.firstIndex { $0.hasPrefix("git config --global credential.helper ") }
        #expect(configure != nil && byHand != nil && configure! < byHand!, "\(result.stdoutText)")
        #expect(byHand.map { lines[$0].hasSuffix("# by hand: needs PATH") } == true, "\(result.stdoutText)")
    }
}
