import Foundation
import Testing

/// Messages that send the person somewhere real (issue 26, item 3): what configure leaves
/// in git's configuration, what list says git asks, what basic-auth-header waits for at
/// a terminal, what the README says configure --db writes, and what an imported netrc
/// entry now covers. Each through real git.
@Suite struct MessagesThatLeadSomewhereTests {
    let sandbox: Sandbox
    init() throws { sandbox = try Sandbox() }

    /// The built programs' directory first on PATH, as after `make install`.
    var onPath: [String: String] { ["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath] }

    func helpers() throws -> [String] {
        try sandbox.git(["config", "--global", "-z", "--get-all", "credential.helper"]).stdoutText
            .split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func configure(_ program: String) throws -> ProcessResult {
        let result = try sandbox.run(program, ["configure"], environment: onPath)
        #expect(result.exitCode == 0, "\(result)")
        return result
    }

    /// Each configure wrote a reset line and its helper, after the pairs configure had
    /// written before for the suite's other helpers: sqlite, pass, keyring, sqlite left
    /// four pairs, three of them dead. Now a configure replaces the suite's pair, says
    /// so, and git's configuration holds one pair; git uses it.
    @Test func configuringOneHelperAfterAnotherLeavesOnePair() throws {
        for program in [BuiltProducts.sqliteHelper, BuiltProducts.passHelper, BuiltProducts.keyringHelper] { _ = try configure(program) }
        let keyringLine = try #require(try helpers().last)
        let last = try configure(BuiltProducts.sqliteHelper)
        let lines = try helpers()
        #expect(lines.count == 2 && lines.first == "" && lines.last?.hasPrefix(BuiltProducts.sqliteHelper + " ") == true, "\(lines)")
        #expect(last.stderrLines.first?.hasPrefix(#"replaced "\#(keyringLine)" with "\#(lines.last ?? "")" as credential.helper in the global git configuration"#) == true,
                "\(last)")
        // git asks that line: a credential approved reads back from the SQLite store.
        expectSuccess(try sandbox.git(["credential", "approve"], input: wire("protocol=https", "host=a.example", "username=alice", "password=pa")))
        #expect(try sandbox.sqlite().get(wire("protocol=https", "host=a.example")).attributes["password"] == "pa")
    }

    /// `git-credential-sqlite configure`, then `git-credential-pass configure`: the
    /// replaced line said nothing of what sqlite's store holds, which git no longer reads.
    /// It says how many credentials (counted without the store's key: nothing asked) and
    /// the command that moves them; run as printed, git fills them from pass.
    @Test func replacingAHelperSaysWhatItsStoreHoldsAndHowToMoveIt() throws {
        let pass = try PasswordStore(sandbox: sandbox)
        // The default store where HOME alone finds it, so that configure writes no --db.
        let plainHome = ["XDG_DATA_HOME": sandbox.home + "/.local/share", "XDG_CONFIG_HOME": sandbox.home + "/.config"]
        let environment = onPath.merging(pass.environment) { $1 }.merging(plainHome) { $1 }
        #expect(try sandbox.run(BuiltProducts.sqliteHelper, ["configure"], environment: environment).exitCode == 0)
        for host in ["a.example", "b.example"] {
            expectSuccess(try sandbox.git(["credential", "approve"], input: wire("protocol=https", "host=" + host, "username=alice", "password=pa"),
                                          environment: environment))
        }
        let replaced = try sandbox.run(BuiltProducts.passHelper, ["configure"], environment: environment)
        #expect(replaced.exitCode == 0, "\(replaced)")
        let move = "git-credential-pass import --from sqlite"
        #expect(replaced.stderrLines.first == "replaced \(BuiltProducts.sqliteHelper) (its store holds 2 credentials, which git no longer reads; "
            + "to move them: \(move)) with \(BuiltProducts.passHelper) as credential.helper in the global git configuration", "\(replaced)")
        let moved = try sandbox.run("/bin/sh", ["-c", move], environment: environment)
        #expect(moved.exitCode == 0, "\(moved)")
        let filled = try sandbox.git(["credential", "fill"], input: wire("protocol=https", "host=b.example"), environment: environment)
        #expect(filled.exitCode == 0 && filled.attributes["password"] == "pa", "\(filled)")

        // And back: pass's entries are counted by their names (no gpg run).
        let back = try sandbox.run(BuiltProducts.sqliteHelper, ["configure"], environment: environment)
        #expect(back.stderrLines.first?.hasPrefix("replaced \(BuiltProducts.passHelper) (its store holds 2 credentials, which git no longer reads; "
            + "to move them: git-credential-sqlite import --from pass) with ") == true, "\(back)")
    }

    /// After pass's configure (or a reset line written by hand after sqlite's line), git
    /// asks pass and not sqlite at all: sqlite's list said "git also asks git-credential-pass
    /// (configured too)", as if its own credentials were asked first. It says what git asks.
    @Test func listSaysWhatGitActuallyAsks() throws {
        let note = "note: git asks git-credential-pass, not git-credential-sqlite (no credential.helper line after the last reset line reads its store), "
            + "so these are not the credentials git uses: git-credential-pass list\n"
        _ = try configure(BuiltProducts.sqliteHelper)
        expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", ""]))
        expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", "pass"]))
        let byHand = try sandbox.sqlite()("list")
        #expect(byHand.exitCode == 0 && byHand.stderrText == note, "\(byHand)")

        expectSuccess(try sandbox.git(["config", "--global", "--unset-all", "credential.helper"]))
        _ = try configure(BuiltProducts.sqliteHelper)
        _ = try configure(BuiltProducts.passHelper)
        let configured = try sandbox.sqlite()("list")
        #expect(configured.exitCode == 0 && configured.stderrText == note, "\(configured)")
    }

    /// basic-auth-header at a terminal waited silently; it says what it reads, as get
    /// does, then reads it; piped, it says nothing.
    @Test func basicAuthHeaderAtATerminalSaysWhatItReads() throws {
        let session = try sandbox.atTerminal(BuiltProducts.basicAuthHeader, [], answers: ["username=Aladdin\rpassword=open sesame\r"],
                                             stderrOnTerminal: true, stdinOnTerminal: true)
        #expect(session.code == 0, "\(session)")
        #expect(session.terminal.hasPrefix("basic-auth-header: reads a credential from the terminal: username= and password= lines, then an empty line "
            + "(the password shows as typed; git credential fill | basic-auth-header does not show it):\r\n"), "\(session)")
        #expect(session.stdout.contains("Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\n"), "\(session)")
        let piped = try sandbox.run(BuiltProducts.basicAuthHeader, [], input: wire("username=Aladdin", "password=open sesame"))
        #expect(piped.exitCode == 0 && piped.stderr.isEmpty, "\(piped)")
    }

    /// The README said `configure --db` writes `--db` and `--key-file`; it writes `--db`
    /// alone where HOME alone finds the key file (git from cron then uses the same one).
    @Test func theReadmeSaysWhatConfigureDbWrites() throws {
        let plainHome = ["XDG_DATA_HOME": sandbox.home + "/.local/share", "XDG_CONFIG_HOME": sandbox.home + "/.config"]
        let database = sandbox.root + "/elsewhere/git.db"
        let configured = try sandbox.run(BuiltProducts.sqliteHelper, ["configure", "--db", database], environment: onPath.merging(plainHome) { $1 })
        #expect(configured.exitCode == 0, "\(configured)")
        #expect(try helpers() == ["", "\(BuiltProducts.sqliteHelper) --db \(database)"])
        expectSuccess(try sandbox.git(["credential", "approve"], input: wire("protocol=https", "host=a.example", "username=alice", "password=pa"),
                                      environment: plainHome))
        #expect(fileExists(database) && fileExists(sandbox.home + "/.config/git-credential-sqlite/key"))
        let readme = try String(contentsOfFile: SourceTree.root + "/README.md", encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let saysDbAlone = readme.contains("`git-credential-sqlite configure --db /path/to/git.db` (it writes `--db` into the helper line")
        let saysKeyFileToo = readme.contains("writes `--db` and `--key-file` into the helper line")
        #expect(saysDbAlone && !saysKeyFileToo, "README.md: what configure --db writes")
    }

    /// A forgotten passphrase: the Fix said "only the store moved aside", with no command,
    /// and a store moved aside by hand left the next git store to make a key file,
    /// silently. The Fix names the commands, which move the store aside and make a new
    /// one asking for a new passphrase; run as printed, git's next store asks for that
    /// passphrase and no key file appears.
    @Test func aForgottenPassphraseLeadsToANewPassphraseStore() throws {
        let database = sandbox.root + "/store/credentials.db"
        let old = try sandbox.file("secrets/old", "the old passphrase, forgotten\n")
        let sqlite = sandbox.sqlite(["--db", database])
        let created = try sqlite.with(passphraseFile: old).initPassphrase()
        #expect(created.exitCode == 0, "\(created)")
        try sqlite.with(passphraseFile: old).storeAll(wire("protocol=https", "host=a.example", "username=alice", "password=pa"))
        let oldBytes = try #require(contents(of: database))

        let guess = try sandbox.file("secrets/guess", "not the passphrase\n")
        let wrong = try sqlite.with(passphraseFile: guess)("list")
        expectOneLineFailure(wrong, mentioning: ["wrong passphrase for \(database)", "Fix: "])
        let line = try #require(wrong.stderrLines.first)
        let command = String(line[try #require(line.range(of: "make a new one that asks for a new passphrase: ")).upperBound...])
        #expect(command == "mv -- \(database) \(database).forgotten && git-credential-sqlite --db \(database) init --passphrase", "\(line)")

        // Run as printed (the programs on PATH, as installed), a person's askpass typing the new passphrase.
        let askpass = try sandbox.ownDirectory() + "/askpass"
        try ChildProcess.writeFile(askpass, Array("#!/bin/sh\necho 'a new passphrase, long enough'\n".utf8), mode: 0o700)
        let person = onPath.merging(["GIT_ASKPASS": askpass]) { $1 }
        let ran = try sandbox.run("/bin/sh", ["-c", command], environment: person)
        #expect(ran.exitCode == 0, "\(ran)")
        #expect(contents(of: database + ".forgotten") == oldBytes, "the store moved aside is not the old one")

        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", "\(BuiltProducts.sqliteHelper) --db \(database)"]))
        expectSuccess(try sandbox.git(["credential", "approve"], input: wire("protocol=https", "host=b.example", "username=bob", "password=pb"), environment: person))
        #expect(!fileExists(sandbox.keyFile), "the new store fell back to a key file")
        let filled = try sandbox.git(["credential", "fill"], input: wire("url=https://b.example"), environment: person)
        #expect(filled.stdoutLines.contains("password=pb"), "\(filled)")
        // Locked (the typed passphrase's grace period ended), it opens with no key file.
        let lock = try sandbox.sqlite(["--db", database])("lock")
        #expect(lock.exitCode == 0 && lock.stderrText == "locked \(database)\n", "\(lock)")
        let locked = try sandbox.sqlite(["--db", database])("list")
        #expect(locked.exitCode != 0 && !locked.stdoutText.contains("b.example"), "the new store opened without its passphrase: \(locked)")
    }

    /// curl uses `machine HOST` for every protocol and port of HOST; the imported entry
    /// answers git for https://HOST only. import says so, entry by entry, and git agrees.
    @Test func netrcImportSaysWhatEachEntryNowCovers() throws {
        let file = try sandbox.file("netrc", "machine a.example login alice password pa\nmachine b.example login bob password pb\n")
        let imported = try sandbox.sqlite()("import", file)
        #expect(imported.exitCode == 0, "\(imported)")
        #expect(imported.stderrLines.contains("note: each entry imported from \(file) now answers git for https://HOST only (alice at https://a.example, bob at https://b.example); "
            + "curl used it for every protocol and port of that machine, so git asks once for any other (http://HOST, HOST:8443) and stores the answer"), "\(imported)")
        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", BuiltProducts.sqliteHelper]))
        let https = try sandbox.git(["credential", "fill"], input: wire("url=https://a.example"))
        #expect(https.stdoutLines.contains("password=pa"), "\(https)")
        for url in ["http://a.example", "https://a.example:8443"] {
            let other = try sandbox.git(["credential", "fill"], input: wire("url=" + url))
            #expect(other.exitCode != 0 && !other.stdoutText.contains("password=pa"), "\(url): \(other)")
        }
    }
}
