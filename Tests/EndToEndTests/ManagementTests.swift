import Foundation
import Testing

/// The management commands people run: list, erase HOST, erase-all, import, export,
/// configure/unconfigure and doctor, on git-credential-sqlite (the Secret Service in
/// ManagementAcrossBackendsTests), checked against real git where git reads the result.
@Suite struct ManagementTests: InSQLiteWorld {
    let world: SQLiteWorld

    static func credential(_ host: String, _ user: String, _ password: String, _ extra: String...) -> [UInt8] {
        wire(["protocol=https", "host=\(host)", "username=\(user)", "password=\(password)"] + extra)
    }

    /// The rows of `list` as (host, user) pairs.
    func listed(_ arguments: String...) throws -> [[String]] {
        let result = try helper.run(["list"] + arguments)
        expectSuccess(result)
        return result.stdoutLines.dropFirst().map { row in
            let columns = row.split(separator: " ").map(String.init)
            return [columns[1], columns[3]]
        }
    }

    /// A file holding `text`, for --file-passphrase-fd.
    func passphraseFile(_ text: String) throws -> String { try sandbox.file("phrase-\(UUID().uuidString)", text + "\n") }

    // MARK: list and erase

    @Test func listFiltersByHostAndNamesTheBackend() throws {
        try helper.storeAll(Self.credential("a.example", "alice", "pa"), Self.credential("b.example", "bob", "pb"))
        #expect(try listed() == [["a.example", "alice"], ["b.example", "bob"]])
        #expect(try listed("b.example") == [["b.example", "bob"]])
        #expect(try helper.list().stdoutLines.dropFirst().allSatisfy { $0.hasSuffix("  sqlite") })
    }

    @Test func eraseTakesAHostOrAURL() throws {
        try helper.storeAll(Self.credential("a.example", "alice", "pa"), Self.credential("a.example", "bob", "pb"),
                            Self.credential("b.example", "carol", "pc"))
        let byURL = try helper.run(["erase", "https://alice@a.example"])
        #expect(byURL.exitCode == 0 && byURL.stderrText == "erased 1 credential\n", "\(byURL)")
        #expect(try listed() == [["a.example", "bob"], ["b.example", "carol"]])
        let byHost = try helper.run(["erase", "b.example"])
        #expect(byHost.stderrText == "erased 1 credential\n", "\(byHost)")
        #expect(try listed() == [["a.example", "bob"]])
        expectOneLineFailure(try helper.run(["erase", "https://"]), exitCode: 2, mentioning: ["names no host", "erase-all"])
        #expect(try listed() == [["a.example", "bob"]], "a refused erase erased something")
    }

    @Test func eraseAllRefusesWithoutATerminalUnlessYes() throws {
        try helper.storeAll(Self.credential("a.example", "alice", "pa"), Self.credential("b.example", "bob", "pb"))
        expectOneLineFailure(try helper.run(["erase-all"]), exitCode: 2, mentioning: ["2 credentials", "without confirmation", "--yes"])
        #expect(try listed().count == 2, "a refused erase-all erased something")
        let erased = try helper.run(["erase-all", "--yes"])
        #expect(erased.exitCode == 0 && erased.stderrText == "erased 2 credentials\n", "\(erased)")
        #expect(try listed().isEmpty)
        #expect(try helper.run(["erase-all"]).stderrText == "nothing to erase: no credentials are stored\n")
    }

    @Test func eraseAllAsksOnTheTerminal() throws {
        try helper.storeAll(Self.credential("a.example", "alice", "pa"))
        let declined = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["erase-all"], answers: ["n"], stderrOnTerminal: true)
        #expect(declined.code == 0 && declined.terminal.contains("Erase all 1 credential") && declined.terminal.contains("nothing erased"))
        #expect(try listed().count == 1)
        let confirmed = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["erase-all"], answers: ["y"], stderrOnTerminal: true)
        #expect(confirmed.code == 0 && confirmed.terminal.contains("erased 1 credential"), "\(confirmed)")
        #expect(try listed().isEmpty)
    }

    // MARK: import

    @Test func importReadsGitCredentialStoreFilesByDefault() throws {
        try sandbox.file("home/.git-credentials", "https://alice:p%40ss%3Aword@a.example\nnot a url\n\nhttps://bob:pb@b.example/repo.git\n")
        try sandbox.file("config/git/credentials", "https://carol:pc@c.example\n")
        let result = try helper.run(["import"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderrLines == ["read 2 credentials from \(sandbox.home)/.git-credentials: 2 new, 0 replaced, 0 unchanged; skipped 1 incomplete entry (line 2)",
                                       "not imported from \(sandbox.home)/.git-credentials: line 2: not a URL as git-credential-store writes it (url has no scheme)",
                                       "read 1 credential from \(sandbox.configHome)/git/credentials: 1 new, 0 replaced, 0 unchanged"], "\(result)")
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "p@ss:word")
        #expect(try helper.password(for: wire("protocol=https", "host=b.example", "path=repo.git")) == "pb")
        #expect(fileExists(sandbox.home + "/.git-credentials"), "import without --remove-source removed its source")
    }

    @Test func importReadsNetrc() throws {
        let netrc = try sandbox.file("netrc", """
            # a comment
            machine a.example login alice password "with space"
            machine b.example
              login bob
              password pb
            macdef init
            machine not.a.host login x password y

            machine c.example login carol
            default login anonymous password guest
            """)
        let result = try helper.run(["import", netrc])
        #expect(result.stderrLines == ["read 2 credentials from \(netrc): 2 new, 0 replaced, 0 unchanged; skipped 3 incomplete entries (lines 6, 9, 10)",
                                       "not imported from \(netrc): line 6: macro init is not carried over (git credentials hold no macros)",
                                       "not imported from \(netrc): line 9: machine c.example: no password",
                                       "not imported from \(netrc): line 10: a default entry: git credentials need a host",
                                       "note: each entry imported from \(netrc) now answers git for https://HOST only (alice at https://a.example, bob at https://b.example); "
                                           + "curl used it for every protocol and port of that machine, so git asks once for any other (http://HOST, HOST:8443) and stores the answer"],
                "\(result)")
        #expect(try listed() == [["a.example", "alice"], ["b.example", "bob"]])
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "with space")

        // New-user finding (stop 20): after importing ~/.netrc, git went on answering from
        // it (curl reads it before git asks a helper), silently. import and doctor say so.
        let home = sandbox.home + "/.netrc"
        try FileManager.default.copyItem(atPath: netrc, toPath: home)
        let again = try helper.run(["import", home])
        // It has entries import cannot carry over, so --remove-source would keep it (issue 26):
        // the note and doctor's Fix move it out of curl's way instead (DoctorFixTests runs it).
        #expect(again.stderrLines.last == "note: git's HTTP transport reads \(home) before it asks any helper; once you no longer need it, "
            + "move it where curl does not read it (what was not imported stays there, for curl --netrc-file): mv -- \(home) \(home).not-for-git", "\(again)")
        let doctor = try helper.run(["doctor"])
        #expect(doctor.stdoutText.contains("warn  netrc: \(home) holds passwords in clear, and git's HTTP transport uses it before asking any credential helper for the hosts it names; import cannot carry all of it over (line 6: ")
                && doctor.stdoutText.contains(" import --db ") && doctor.stdoutText.contains(" \(home) && mv -- \(home) \(home).not-for-git\n"), "\(doctor)")
    }

    @Test func importRemoveSourceWipesOnlyWhatReadsBack() throws {
        let clean = try sandbox.file("clean", "https://alice:pa@a.example\n")
        let result = try helper.run(["import", "--remove-source", clean])
        #expect(result.exitCode == 0 && result.stderrLines.last == "removed \(clean)", "\(result)")
        #expect(!fileExists(clean))
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "pa")

        let partial = try sandbox.file("partial", "https://bob:pb@b.example\nhttps://no-password@c.example\n")
        let kept = try helper.run(["import", "--remove-source", partial])
        #expect(kept.exitCode == 1 && kept.stderrLines.count == 3, "\(kept)")
        #expect(kept.stderrLines.last == "git-credential-sqlite: kept \(partial): 1 entry in it was not imported (line 2). Fix: move them by hand, then remove the file", "\(kept)")
        #expect(contents(of: partial) == Array("https://bob:pb@b.example\nhttps://no-password@c.example\n".utf8), "the source was changed")
        #expect(try helper.password(for: wire("protocol=https", "host=b.example")) == "pb")
    }

    @Test func importOfAMissingFileSaysSoAndStoresNothing() throws {
        expectOneLineFailure(try helper.run(["import", sandbox.root + "/missing"]), exitCode: 1, mentioning: ["cannot read", "missing"])
        expectOneLineFailure(try helper.run(["import"]), exitCode: 2, mentioning: ["nothing to import", ".git-credentials"])
        #expect(!fileExists(sandbox.database))
    }

    // MARK: export

    @Test func anEncryptedExportComesBackWithEveryField() throws {
        try helper.storeAll(Self.credential("a.example", "alice", "pa", "password_expiry_utc=4102444800", "oauth_refresh_token=refresh"),
                            wire("capability[]=authtype", "protocol=https", "host=api.example", "authtype=Bearer", "credential=token"))
        let phrase = try passphraseFile("export phrase")
        let file = sandbox.root + "/backup.gitcred"
        let exported = try helper.with(passphraseFile: phrase).run(["export", "--output", file, "--file-passphrase-fd", "3", "--scrypt-cost", "10"])
        #expect(exported.stderrText == "exported 2 credentials encrypted with a passphrase to \(file)\n", "\(exported)")
        #expect(permissions(of: file) == 0o600)
        let bytes = try #require(contents(of: file))
        for clear in ["a.example", "alice", "pa\n", "refresh", "api.example", "token"] { #expect(!bytes.containsUTF8(clear), "\(clear) in clear") }

        let other = Sandbox.sqliteElsewhere(sandbox)
        let wrong = try other.with(passphraseFile: try passphraseFile("wrong")).invoke(["import", "--file-passphrase-fd", "3", file], input: [])
        expectOneLineFailure(wrong, exitCode: 2, mentioning: ["wrong passphrase", file])
        let imported = try other.with(passphraseFile: phrase).invoke(["import", "--file-passphrase-fd", "3", file], input: [])
        #expect(imported.stderrText == "read 2 credentials from \(file): 2 new, 0 replaced, 0 unchanged\n", "\(imported)")
        let found = try other.get(wire("protocol=https", "host=a.example"))
        #expect(found.stdoutLines == ["username=alice", "password=pa", "password_expiry_utc=4102444800", "oauth_refresh_token=refresh"], "\(found)")
        let token = try other.get(wire("capability[]=authtype", "protocol=https", "host=api.example"))
        #expect(token.stdoutLines.contains("credential=token"), "\(token)")
    }

    @Test func aPlaintextExportIsWhatGitCredentialStoreReads() throws {
        try helper.storeAll(Self.credential("a.example", "al ice", "p@ss/w:rd%"))
        let file = sandbox.root + "/plain"
        expectOneLineFailure(try helper.run(["export", "--plaintext", "--output", sandbox.database]), exitCode: 2, mentioning: ["exists already"])
        #expect(try helper.run(["export", "--plaintext", "--output", file]).exitCode == 0)
        let fromGit = try sandbox.git(["credential-store", "--file", file, "get"], input: wire("protocol=https", "host=a.example"))
        #expect(fromGit.attributes["username"] == "al ice" && fromGit.attributes["password"] == "p@ss/w:rd%", "\(fromGit)")
    }

    /// `-o -` is standard output, as for every Unix tool: no file named `-`.
    @Test func exportToDashIsStandardOutput() throws {
        try helper.storeAll(Self.credential("a.example", "alice", "pa"))
        let exported = try helper.run(["export", "--plaintext", "-o", "-"])
        #expect(exported.exitCode == 0 && exported.stdoutLines == ["https://alice:pa@a.example"], "\(exported)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/-"), "wrote a file named -")
    }

    /// git-credential-store's format writes the host as it is: a stored host with `/`, `#`
    /// or `@` (hostile data in a store or keyring) would read back as another host, with
    /// this password. Such a credential is left out and counted; git reads the rest.
    @Test func aPlaintextExportLeavesOutWhatWouldReadBackAsAnotherCredential() throws {
        try helper.storeAll(Self.credential("good.example/x", "alice", "stolen-1"),
                            Self.credential("evil.example#@good.example", "alice", "stolen-2"),
                            Self.credential("good.example", "bob", "bob-pw"),
                            wire("protocol=https", "host=good.example", "path=/lead", "username=carol", "password=stolen-3"))
        let exported = try helper.run(["export", "--plaintext"])
        #expect(exported.exitCode == 0, "\(exported)")
        #expect(exported.stdoutLines == ["https://bob:bob-pw@good.example"], "\(exported)")
        #expect(exported.stderrText.contains("left out 3"), "\(exported)")
    }

    @Test func importShowsProgressOnATerminalOnly() throws {
        let lines = (0..<300).map { "https://u:p\($0)@h\($0).example\n" }.joined()
        let file = try sandbox.file("many", lines)
        let session = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["import", file], answers: [], stderrOnTerminal: true)
        #expect(session.code == 0 && session.terminal.contains("importing: 300/300"), "\(session)")
        let piped = try helper.run(["import", file])
        #expect(piped.stderrText == "read 300 credentials from \(file): 0 new, 0 replaced, 300 unchanged\n", "\(piped)")
    }

    // MARK: configure, unconfigure, doctor

    var onPath: [String: String] { ["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath] }

    /// The line configure writes here: the sandbox's XDG directories are not the ones git
    /// run with HOME alone would find, so the store is written out.
    var configuredLine: String { "\(BuiltProducts.sqliteHelper) --db \(sandbox.database) --key-file \(sandbox.keyFile)" }

    func helpers() throws -> [String] {
        try sandbox.git(["config", "--global", "--get-all", "credential.helper"]).stdoutText
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func configureResetsEarlierHelpersAndIsIdempotent() throws {
        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", "store"]))
        let configured = try helper.with(environment: onPath).run(["configure"])
        #expect(configured.exitCode == 0 && configured.stderrText.contains("earlier helpers no longer run (store)"), "\(configured)")
        #expect(try helpers() == ["store", "", configuredLine])
        let again = try helper.with(environment: onPath).run(["configure"])
        #expect(again.stderrText.hasPrefix("already configured"), "\(again)")
        #expect(try helpers() == ["store", "", configuredLine])

        // git now asks us, and no longer writes ~/.git-credentials.
        let approved = try sandbox.git(["credential", "approve"], input: Self.credential("a.example", "alice", "pa"), environment: onPath)
        expectSuccess(approved)
        #expect(!fileExists(sandbox.home + "/.git-credentials"), "the plaintext store still stored")
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "pa")

        expectSuccess(try helper.with(environment: onPath).run(["unconfigure"]).withoutStderr)
        #expect(try helpers() == ["store"])
        #expect(try helper.run(["unconfigure"]).stderrText.hasPrefix("not configured"))
    }

    @Test func configureForOneURLAndOutsideARepository() throws {
        expectSuccess(try helper.with(environment: onPath).run(["configure", "--url", "https://a.example"]).withoutStderr)
        let value = try sandbox.git(["config", "--global", "--get-all", "credential.https://a.example.helper"])
        #expect(value.stdoutLines == ["", configuredLine])
        let local = try helper.run(["configure", "--local"])
        expectOneLineFailure(local, exitCode: 1, mentioning: ["git config could not", "repository", "Fix:"])
    }

    @Test func configureByPathWhenNotOnPath() throws {
        expectSuccess(try helper.run(["configure"]).withoutStderr)
        let configured = try helpers()
        #expect(configured.count == 2 && configured[1] == configuredLine, "\(configured)")
        #expect(try helper.run(["unconfigure"]).exitCode == 0)
        #expect(try helpers().isEmpty)
    }

    @Test func doctorPassesWhenAllIsWellAndNamesTheFixWhenNot() throws {
        let doctor = helper.with(environment: onPath)
        try helper.storeAll(Self.credential("a.example", "alice", "pa"))
        let unconfigured = try doctor.run(["doctor"])
        #expect(unconfigured.exitCode == 1, "\(unconfigured)")
        #expect(unconfigured.stdoutLines.contains { $0.hasPrefix("FAIL  git config:") && $0.hasSuffix("Fix: git-credential-sqlite configure --db \(sandbox.database) --key-file \(sandbox.keyFile)") }, "\(unconfigured)")
        #expect(unconfigured.stdoutLines.contains("ok    round trip: stored, read back and erased a test credential"), "\(unconfigured)")

        #expect(try doctor.run(["configure"]).exitCode == 0)
        let healthy = try doctor.run(["doctor"])
        #expect(healthy.exitCode == 0 && healthy.stderr.isEmpty, "\(healthy)")
        #expect(healthy.stdoutLines.allSatisfy { $0.hasPrefix("ok") }, "\(healthy)")
        #expect(healthy.stdoutText.contains("git version") && healthy.stdoutText.contains("key file"))
        #expect(try listed() == [["a.example", "alice"]], "the round trip left its credential")

        expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", "store"]))
        let leaky = try doctor.run(["doctor"])
        #expect(leaky.stdoutLines.contains { $0.hasPrefix("warn  git config:") && $0.contains("store runs too") }, "\(leaky)")
        expectSuccess(try sandbox.git(["config", "--global", "--unset-all", "credential.helper"]))
        expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", "libsecret"]))
        expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", "sqlite"]))
        let shadowed = try doctor.run(["doctor"])
        #expect(shadowed.stdoutLines.contains { $0.hasPrefix("warn  git config:") && $0.contains("libsecret comes first") }, "\(shadowed)")

        chmod(sandbox.keyFile, 0o644)
        let exposed = try doctor.run(["doctor"])
        #expect(exposed.exitCode == 1)
        #expect(exposed.stdoutLines.contains { $0.hasPrefix("FAIL  key file:") && $0.contains("chmod 600 \(sandbox.keyFile)") }, "\(exposed)")
    }

    /// A helper value from outside (a repository's configuration) with an escape sequence
    /// and a carriage return that would erase doctor's own warn line and write a fake "ok":
    /// doctor and configure print it escaped, as Trace.quoted does, each line one line.
    @Test func doctorAndConfigurePrintConfigurationValuesEscaped() throws {
        let hostile = "store\u{1B}[2K\rok    git config: all is well"
        expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", hostile]))
        let doctor = helper.with(environment: onPath)
        let checked = try doctor.run(["doctor"])
        #expect(!checked.stdout.bytes.contains(0x1B) && !checked.stdout.bytes.contains(0x0D), "\(checked)")
        #expect(checked.stdoutLines.contains { $0.hasPrefix("FAIL  git config:") && $0.contains(#""store\033[2K\rok    git config: all is well""#) },
                "\(checked)")
        let configured = try doctor.run(["configure"])
        #expect(configured.exitCode == 0, "\(configured)")
        #expect(!configured.stderr.bytes.contains(0x1B) && !configured.stderr.bytes.contains(0x0D), "\(configured)")
        #expect(configured.stderrText.contains(#"\033[2K\rok"#), "\(configured)")
        let after = try doctor.run(["doctor"])
        #expect(!after.stdout.bytes.contains(0x1B) && !after.stdout.bytes.contains(0x0D), "\(after)")
    }

    /// Installed in a directory whose name holds a TAB (or any character git's shell would
    /// act on): configure quotes the path, and `git credential fill` runs this very program,
    /// not `/…/my`, the first shell word the unquoted path would leave.
    @Test(arguments: ["my\tdir", "my dir;x", "my$(x)dir", "my\ndir"])
    func configureQuotesAPathWithShellCharacters(_ directoryName: String) throws {
        // In a directory of ours (configure refuses one under /tmp, as the sandbox is).
        let own = try sandbox.ownDirectory(), directory = own + "/" + directoryName
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/git-credential-sqlite"
        try FileManager.default.copyItem(atPath: BuiltProducts.sqliteHelper, toPath: copy)
        let marker = sandbox.root + "/wrong-program-ran"
        // What an unquoted path would run instead: the first word before the TAB or blank.
        try ChildProcess.writeFile(own + "/my", Array("#!/bin/sh\ntouch '\(marker)'\n".utf8), mode: 0o700)
        let configured = try sandbox.run(copy, ["configure"])
        #expect(configured.exitCode == 0, "\(configured)")
        #expect(configured.stderrLines.count == 1 && !configured.stderr.bytes.contains(0x09), "\(configured)")
        expectSuccess(try sandbox.run(copy, ["store"], input: Self.credential("tab.example", "alice", "tab-secret")))
        let filled = try sandbox.git(["credential", "fill"], input: Array("protocol=https\nhost=tab.example\n\n".utf8))
        #expect(filled.exitCode == 0 && filled.stdoutLines.contains("password=tab-secret"), "\(filled)")
        #expect(!fileExists(marker), "git ran another program than the configured helper")
        let again = try sandbox.run(copy, ["configure"])
        #expect(again.stderrText.hasPrefix("already configured"), "\(again)")
        // doctor's Fix names this program, to be pasted: read back as its words in each shell
        // (attack finding: a TAB in it was printed as \t inside single quotes, another name).
        let other = try sandbox.run(copy, ["doctor", "--db", sandbox.root + "/other.db"])
        let fix = try #require(other.stdoutLines.first { $0.contains("so the store checked here is not the one git uses") }, "\(other)")
        try ShellReadBack.expect(in: fix.components(separatedBy: "Fix: ").last ?? "", beginning: true, words: [copy, "doctor", "--db", sandbox.database, "--key-file", sandbox.keyFile])
        #expect(try sandbox.run(copy, ["unconfigure"]).exitCode == 0)
        #expect(try helpers().isEmpty)
    }

    @Test func completionOffersStoredHostsAndNothingSecret() throws {
        try helper.storeAll(Self.credential("a.example", "alice", "secret-a"), Self.credential("b.example", "bob", "secret-b"))
        for command in ["list", "erase"] {
            let offered = try helper.run(["---completion", command, "--", "positional@0", "2", "0", "git-credential-sqlite", command, ""])
            #expect(offered.exitCode == 0 && offered.stdoutLines == ["a.example", "b.example"], "\(offered)")
            #expect(!offered.stdoutText.contains("secret") && !offered.stdoutText.contains("alice"))
        }
        let prefixed = try helper.run(["---completion", "list", "--", "positional@0", "2", "1", "git-credential-sqlite", "list", "b"])
        #expect(prefixed.stdoutLines == ["b.example"], "\(prefixed)")
    }

    @Test func completionNeverAsksForAPassphrase() throws {
        let phrase = try passphraseFile("completion phrase")
        let locked = helper.with(passphraseFile: phrase)
        #expect(try locked.initPassphrase().exitCode == 0)
        try locked.storeAll(Self.credential("a.example", "alice", "pa"))
        let session = try sandbox.atTerminal(BuiltProducts.sqliteHelper,
                                             ["---completion", "list", "--", "positional@0", "2", "0", "git-credential-sqlite", "list", ""],
                                             answers: ["completion phrase"], stderrOnTerminal: true)
        #expect(session.code == 0 && session.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(session)")
        #expect(!session.terminal.contains("Passphrase"), "\(session)")
    }
}

extension Sandbox {
    /// git-credential-sqlite on a second store in the same sandbox.
    static func sqliteElsewhere(_ sandbox: Sandbox) -> SQLiteHelper {
        sandbox.sqlite(["--db", sandbox.root + "/other/credentials.db", "--key-file", sandbox.root + "/other-key/key"])
    }
}

extension ProcessResult {
    /// The result with stderr dropped, for commands whose report is all that is on it.
    var withoutStderr: ProcessResult {
        var copy = self
        copy.stderr = Output(bytes: [])
        return copy
    }
}
