import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Which store the management commands and doctor's fixes name, checked through real git:
/// the store of git's credential.helper line when no option or variable names one;
/// configure writes a store only this environment names; doctor's fixes carry the store
/// options, quoted, and name the scope of the offending line.
@Suite struct StoreSelectionTests {
    let sandbox: Sandbox
    let helper: SQLiteHelper

    init() throws {
        sandbox = try Sandbox()
        helper = sandbox.sqlite().with(environment: ["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath])
    }

    static func credential(_ host: String, _ user: String, _ password: String) -> [UInt8] {
        wire("protocol=https", "host=\(host)", "username=\(user)", "password=\(password)")
    }

    func filled(_ host: String, directory: String? = nil) throws -> ProcessResult {
        try sandbox.run(Sandbox.which("git") ?? "/usr/bin/git", ["credential", "fill"], input: wire("protocol=https", "host=\(host)"),
                        directory: directory)
    }

    /// After `configure --db X`, list, erase HOST and import work on X, the store git
    /// reads, and say so in one line; git's own calls print nothing. (Before: they used the
    /// default store: erase said "erased 1 credential" there while git kept answering from X.)
    @Test func managementCommandsFollowTheStoreOfGitsHelperLine() throws {
        let store = sandbox.root + "/my stores/git.db"
        expectSuccess(try helper.run(["configure", "--db", store]).withoutStderr)
        let approved = try sandbox.git(["credential", "approve"], input: Self.credential("a.example", "alice", "pa"))
        expectSuccess(approved)
        #expect(approved.stderr.isEmpty, "git's store call printed: \(approved)")
        #expect(!fileExists(sandbox.database), "git stored in the default store")

        let note = "using the store of git's credential.helper: --db '\(store)'"
        let listed = try helper.run(["list"])
        #expect(listed.exitCode == 0 && listed.stdoutText.contains("a.example"), "\(listed)")
        #expect(listed.stderrLines.count == 1 && listed.stderrLines[0].hasPrefix(note), "\(listed)")
        // Completion of erase offers the hosts of that store too, and says nothing.
        let offered = try helper.run(["---completion", "erase", "--", "positional@0", "2", "0", "git-credential-sqlite", "erase", ""])
        #expect(offered.stdoutLines.contains("a.example") && offered.stderr.isEmpty, "\(offered)")

        let netrc = try sandbox.file("netrc", "machine b.example login bob password pb\n")
        let imported = try helper.run(["import", netrc])
        #expect(imported.exitCode == 0 && imported.stderrLines.first?.hasPrefix(note) == true, "\(imported)")
        #expect(try filled("b.example").stdoutLines.contains("password=pb"), "git does not find what import stored")

        let erased = try helper.run(["erase", "a.example"])
        #expect(erased.exitCode == 0 && erased.stderrLines.last == "erased 1 credential", "\(erased)")
        #expect(try filled("a.example").exitCode != 0, "git still answers for the erased host")
        #expect(!fileExists(sandbox.database), "a management command created the default store")

        // Named explicitly: that store, and no note.
        let explicit = try helper.run(["--db", sandbox.database, "list"])
        #expect(!explicit.stderrText.contains("using the store") && !explicit.stdoutText.contains("b.example"), "\(explicit)")
    }

    /// Two of our lines with different stores: git reads both, so a management command
    /// given no store refuses to guess, in one line, and changes nothing.
    @Test func differentStoresOnOurLinesAreRefused() throws {
        for line in ["\(BuiltProducts.sqliteHelper) --db \(sandbox.root)/one.db", "\(BuiltProducts.sqliteHelper) --db \(sandbox.root)/two.db"] {
            expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", line]))
        }
        let erased = try helper.run(["erase", "a.example"])
        expectOneLineFailure(erased, mentioning: ["one.db and ", "two.db, so which store is meant is not clear", "Fix: name the store: --db"])
    }

    /// A line that runs this helper in a way the command cannot read for its store (through
    /// `git credential-sqlite`, a shell function, a URL's own helper), or a configuration
    /// git cannot read: the command refuses to guess, and the default store is untouched.
    /// (An attacker's finding: erase-all and import --remove-source then acted silently on
    /// the default store, which git never read.)
    @Test(arguments: [["credential.helper", "!git credential-sqlite --db /elsewhere/x.db"],
                      ["credential.helper", "!f() { git-credential-sqlite --db /elsewhere/x.db \"$@\"; }; f"],
                      ["credential.https://h.example.helper", "!git credential-sqlite --db /elsewhere/x.db"]])
    func aLineThatCannotBeReadIsNoReasonForTheDefaultStore(_ entry: [String]) throws {
        try helper.storeAll(Self.credential("keep.example", "alice", "pk"))
        expectSuccess(try sandbox.git(["config", "--global", "--add"] + entry))
        for command in [["erase-all", "--yes"], ["list"], ["import", try sandbox.file("netrc", "machine n.example login n password pn\n")]] {
            let result = try helper.run(command)
            expectOneLineFailure(result, exitCode: 2, mentioning: ["this command cannot read for the store it names", "Fix: name the store: --db"])
        }
        let kept = try helper.run(["--db", sandbox.database, "list"])
        #expect(kept.stdoutText.contains("keep.example") && !kept.stdoutText.contains("n.example"), "\(kept)")
    }

    /// A line for one URL only names a store git uses there: followed when it is the only
    /// one, refused when a general line names another.
    @Test func aLineForOneURLCountsAsMuch() throws {
        let store = sandbox.root + "/work.db"
        expectSuccess(try sandbox.git(["config", "--global", "credential.https://work.example.helper", "\(BuiltProducts.sqliteHelper) --db \(store)"]))
        expectSuccess(try sandbox.git(["credential", "approve"], input: Self.credential("work.example", "wanda", "pw")))
        let listed = try helper.run(["list"])
        #expect(listed.exitCode == 0 && listed.stdoutText.contains("work.example") && listed.stderrText.contains("using the store of git's credential.helper: --db \(store)"),
                "\(listed)")
        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", BuiltProducts.sqliteHelper]))
        expectOneLineFailure(try helper.run(["list"]), mentioning: ["so which store is meant is not clear", "Fix: name the store: --db"])
    }

    @Test func aConfigurationGitCannotReadIsNoReasonForTheDefaultStore() throws {
        try helper.storeAll(Self.credential("keep.example", "alice", "pk"))
        try "[core\n".write(toFile: sandbox.home + "/.gitconfig", atomically: true, encoding: .utf8)
        expectOneLineFailure(try helper.run(["erase-all", "--yes"]), mentioning: ["cannot tell which store git uses", "Fix: name the store: --db"])
        #expect(try helper.run(["--db", sandbox.database, "list"]).stdoutText.contains("keep.example"))
    }

    /// A store this shell's environment names (GIT_CREDENTIAL_SQLITE_DB) goes into the
    /// line, so git run with HOME alone (cron) finds it; doctor warns about a bare line
    /// there. (Before: configure wrote a bare line and git from cron found nothing.)
    @Test func configureWritesTheStoreOnlyThisEnvironmentNames() throws {
        let store = sandbox.root + "/env.db"
        let shell = helper.with(environment: ["GIT_CREDENTIAL_SQLITE_DB": store])
        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", BuiltProducts.sqliteHelper]))
        let warned = try shell.run(["doctor"])
        #expect(warned.stdoutLines.contains { $0.hasPrefix("warn  helper:") && $0.contains("with no options") && $0.contains("configure writes the options. Fix: git-credential-sqlite configure --db \(store) --key-file \(sandbox.keyFile)") },
                "\(warned)")
        expectSuccess(try shell.run(["configure"]).withoutStderr)
        try shell.storeAll(Self.credential("cron.example", "alice", "pc"))
        // git as cron runs it: HOME and PATH only.
        let cron = try ChildProcess.run(Sandbox.which("env") ?? "/usr/bin/env",
                                        ["-i", "HOME=\(sandbox.home)", "PATH=/usr/bin:/bin", "GIT_TERMINAL_PROMPT=0", "git", "credential", "fill"],
                                        stdin: wire("protocol=https", "host=cron.example"), environment: [:], inputFiles: [:],
                                        directory: sandbox.home, timeout: 30)
        #expect(cron.stdoutLines.contains("password=pc"), "\(cron)")
        let healthy = try shell.run(["doctor"])
        #expect(healthy.stdoutLines.contains { $0.hasPrefix("ok    helper:") }, "\(healthy)")
    }

    /// A plaintext `store` line in a repository's configuration: the fix configures that
    /// scope, and the import names the file; running the fix stops store there.
    /// (Before: "configure (it resets the list), then import --remove-source", and
    /// configure wrote to the global configuration, which git reads before the repository's.)
    @Test func doctorNamesTheScopeOfAPlaintextStoreLine() throws {
        let repository = sandbox.root + "/repo"
        expectSuccess(try sandbox.git(["init", "-q", repository]))
        expectSuccess(try helper.run(["configure"]).withoutStderr)
        expectSuccess(try sandbox.run(Sandbox.which("git") ?? "/usr/bin/git", ["config", "--local", "credential.helper", "store"], directory: repository))
        try sandbox.file("home/.git-credentials", "https://alice:pa@a.example\n")
        let doctor = try sandbox.run(BuiltProducts.sqliteHelper, ["doctor"], environment: helper.environment, directory: repository)
        let line = doctor.stdoutLines.first { $0.hasPrefix("warn  git config:") && $0.contains("store") } ?? ""
        #expect(line.contains("store runs too (local configuration)") && line.contains("configure --db \(sandbox.database) --key-file \(sandbox.keyFile) --local && ")
                && line.contains("import") && line.contains("--remove-source \(sandbox.home)/.git-credentials"), "\(doctor)")
        let fix = line.components(separatedBy: "Fix: ").last?.components(separatedBy: " && ").first ?? ""
        let words = fix.split(separator: " ").map(String.init)
        expectSuccess(try sandbox.run(BuiltProducts.sqliteHelper, Array(words.dropFirst()), environment: helper.environment, directory: repository).withoutStderr)
        let active = try sandbox.run(Sandbox.which("git") ?? "/usr/bin/git", ["config", "--get-all", "credential.helper"], directory: repository)
        #expect(active.stdoutLines.suffix(2).first == "" && active.stdoutLines.last?.hasPrefix(BuiltProducts.sqliteHelper) == true, "\(active)")
    }

    /// doctor --db "…/my stores/git.db" on a locked passphrase store in a 0755 directory:
    /// the unlock fix names that store, every path is quoted, and the directory is a
    /// warning the helpers agree with (list reads it). (Before: "unlock --timeout 8h" for
    /// the default store, "chmod 700 …/my stores" unquoted, and a FAIL.)
    @Test func doctorFixesCarryTheStoreOptionsQuoted() throws {
        let directory = sandbox.root + "/my stores"
        let store = directory + "/git.db"
        let passphrase = try sandbox.file("passphrase", "correct horse\n")
        let named = helper.with(environment: [:])
        expectSuccess(try named.with(passphraseFile: passphrase).run(["--db", store, "--passphrase-fd", "3", "init", "--passphrase"] + SQLiteHelper.lowScryptCost).withoutStderr)
        chmod(directory, 0o755)
        let doctor = try named.run(["doctor", "--db", store])
        let quoted = "'\(store)'"
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("warn  key:") && $0.hasSuffix("Fix: git-credential-sqlite unlock --db \(quoted) --key-file \(sandbox.keyFile) --timeout 8h") }, "\(doctor)")
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("warn  store directory:") && $0.hasSuffix("Fix: chmod 700 '\(directory)'") }, "\(doctor)")
        #expect(!doctor.stdoutLines.contains { $0.hasPrefix("FAIL  store") }, "\(doctor)")
        expectSuccess(try named.run(["--db", store, "lock"]).withoutStderr)
    }

    /// `git-credential-keyring configure` after `git-credential-sqlite configure --db X`
    /// resets the sqlite line: one note says that X is no longer read, with the import that
    /// copies it over; run as printed, git finds the credential again. (Before: no word.)
    @Test func configuringTheOtherHelperPointsOutTheStoreLeftBehind() throws {
        let store = sandbox.root + "/x.db"
        expectSuccess(try helper.run(["configure", "--db", store]).withoutStderr)
        expectSuccess(try sandbox.git(["credential", "approve"], input: Self.credential("x.example", "xena", "px")))
        let keyring = try sandbox.run(BuiltProducts.keyringHelper, ["configure"], environment: helper.environment)
        let command = "GIT_CREDENTIAL_SQLITE_DB=\(store) GIT_CREDENTIAL_SQLITE_KEY_FILE=\(sandbox.keyFile) git-credential-keyring import --from sqlite --db \(sandbox.database) --key-file \(sandbox.keyFile)"
        #expect(keyring.exitCode == 0 && keyring.stderrLines.count == 2 && keyring.stderrLines[1].hasPrefix("note: this line does not read the credentials that ")
                && keyring.stderrLines[1].hasSuffix(" keeps in --db \(store) --key-file \(sandbox.keyFile); to copy them over: \(command)"), "\(keyring)")
        #expect(try filled("x.example").exitCode != 0, "the keyring line reads the store it was told it does not")
        let imported = try sandbox.run(BuiltProducts.keyringHelper, ["import", "--from", "sqlite", "--db", sandbox.database, "--key-file", sandbox.keyFile],
                                       environment: helper.environment.merging(["GIT_CREDENTIAL_SQLITE_DB": store, "GIT_CREDENTIAL_SQLITE_KEY_FILE": sandbox.keyFile]) { $1 })
        #expect(imported.exitCode == 0, "\(imported)")
        #expect(try filled("x.example").stdoutLines.contains("password=px"), "git does not find what the import copied")
        // sqlite's configure replaces the keyring's pair (configures do not pile up), whose
        // line named the default store (spelled out: the sandbox's XDG directories are not
        // HOME's): that one is left behind, and said.
        let replacing = try helper.run(["configure", "--db", store])
        #expect(replacing.exitCode == 0 && replacing.stderrLines.count == 2 && replacing.stderrLines[1].contains("keeps in --db \(sandbox.database) --key-file"), "\(replacing)")
        // The same store on both lines: nothing is left behind, nothing said but the replacement.
        let same = try sandbox.run(BuiltProducts.keyringHelper, ["configure", "--db", store], environment: helper.environment)
        #expect(same.exitCode == 0 && same.stderrLines.count == 1 && same.stderrLines[0].hasPrefix("replaced "), "\(same)")
        // Back to sqlite, which does not read the desktop keyring the keyring line may have filled.
        let back = try helper.run(["configure", "--db", store])
        #expect(back.stderrLines.last?.hasSuffix(" keeps in the desktop keyring; to copy them over: git-credential-sqlite import --from secretservice --db \(store) --key-file \(sandbox.keyFile)") == true,
                "\(back)")
    }

    /// configure --db X after a plain configure replaces our line, and says the default
    /// store's credentials are left behind, with a command that names both stores and
    /// copies them (run here through sh, as pasted). (An attacker's finding: no note, and
    /// for sqlite the note's command was `git-credential-sqlite import --from sqlite`,
    /// which reads its own store.)
    @Test func anotherStoreOfTheSameHelperPointsOutTheOneLeftBehind() throws {
        expectSuccess(try helper.run(["configure"]).withoutStderr)
        expectSuccess(try sandbox.git(["credential", "approve"], input: Self.credential("keep.example", "kim", "pk")))
        let store = sandbox.root + "/new place/x.db"
        let moved = try helper.run(["configure", "--db", store])
        let note = try #require(moved.stderrLines.last, "\(moved)")
        #expect(note.hasPrefix("note: this line does not read the credentials that ") && note.contains("keeps in --db \(sandbox.database) --key-file"), "\(moved)")
        let command = try #require(note.components(separatedBy: "; to copy them over: ").last)
        #expect(command.contains("export --db \(sandbox.database)") && command.contains("| git-credential-sqlite import --db '\(store)'"), "\(command)")
        #expect(try filled("keep.example").exitCode != 0, "the new line reads the old store")
        let copied = try sandbox.run("/bin/sh", ["-c", command], environment: helper.environment)
        #expect(copied.exitCode == 0, "\(copied)")
        #expect(try filled("keep.example").stdoutLines.contains("password=pk"), "git does not find what the command copied: \(copied)")
    }

    /// Over SSH (no session bus, no display), as the README says: git-credential-secretservice
    /// prints one line on each git command, and git-credential-keyring falls back silently.
    /// (Before: the README said get stays silent.)
    @Test func withoutASessionBusSecretServiceSaysOneLineAndKeyringNothing() throws {
        let noBus = ["DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": "", "XDG_RUNTIME_DIR": sandbox.root]
        for (program, lines) in [(BuiltProducts.secretServiceHelper, 1), (BuiltProducts.keyringHelper, 0)] {
            expectSuccess(try sandbox.git(["config", "--global", "--replace-all", "credential.helper", program]))
            let filled = try sandbox.git(["credential", "fill"], input: wire("protocol=https", "host=ssh.example"), environment: noBus)
            let ours = filled.stderrLines.filter { $0.hasPrefix("git-credential-") }
            #expect(ours.count == lines && ours.allSatisfy { $0.contains("cannot reach the Secret Service") && $0.contains("Fix:") }, "\(program): \(filled)")
        }
        let readme = try String(contentsOfFile: SourceTree.root + "/README.md", encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        #expect(readme.contains("`get` prints one line on every git command") && readme.contains("falls back to the SQLite store silently"),
                "the README does not say so")
    }
}
