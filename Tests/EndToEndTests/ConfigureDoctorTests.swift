import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// configure writes a helper line that works as written (the store options, the full
/// path, quoted for git's shell) and replaces its own; doctor finds a configured program
/// that is gone, changes nothing, and points out plaintext credential files. Each checked
/// through real git where git reads the result.
@Suite struct ConfigureDoctorTests: InSQLiteWorld {
    let world: SQLiteWorld

    /// The built programs' directory first on PATH, as after `make install`.
    var onPath: [String: String] { ["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath] }
    /// What git gets from cron, systemd or an IDE: no directory of ours.
    static let minimalPath = ["PATH": "/usr/bin:/bin"]

    func helpers(_ key: String = "credential.helper") throws -> [String] {
        try sandbox.git(["config", "--global", "-z", "--get-all", key]).stdoutText
            .split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static func credential(_ host: String, _ user: String, _ password: String) -> [UInt8] {
        wire("protocol=https", "host=\(host)", "username=\(user)", "password=\(password)")
    }

    // MARK: configure

    /// --db and --key-file go into the line, absolute and quoted (a path with a blank, a
    /// quote and a `$`, which git's shell would split or expand), and git stores there;
    /// a second configure with another --db replaces our line, and says so; the same line
    /// again is "already configured"; other helpers' lines stay as they were, in order.
    /// (Before: the line was a bare `sqlite` without the options, and the second
    /// configure said "already configured".)
    @Test func configureWritesTheStoreOptionsAndReplacesItsOwnLine() throws {
        for other in ["cache --timeout=60", "keyring --db /elsewhere/other.db"] {
            expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", other]))
        }
        let first = sandbox.root + "/it's $HOME/first.db", key = sandbox.root + "/keys dir/key"
        let configure = helper.with(environment: onPath)
        let configured = try configure.run(["configure", "--db", first, "--key-file", key])
        // The keyring line's store is no longer read: one note says so (StoreSelectionTests).
        #expect(configured.exitCode == 0 && configured.stderrLines.count == 2 && configured.stderrText.hasPrefix("configured: ")
                && configured.stderrLines[1].hasPrefix("note: this line does not read the credentials that \"keyring --db /elsewhere/other.db\" keeps in --db /elsewhere/other.db and the desktop keyring; "), "\(configured)")
        let firstLine = "\(BuiltProducts.sqliteHelper) --db '\(sandbox.root)/it'\\''s $HOME/first.db' --key-file '\(key)'"
        #expect(try helpers() == ["cache --timeout=60", "keyring --db /elsewhere/other.db", "", firstLine])

        // git runs that line: the credential lands in the store named, nowhere else.
        expectSuccess(try sandbox.git(["credential", "approve"], input: Self.credential("a.example", "alice", "pa")))
        #expect(fileExists(first) && fileExists(key), "git did not store at --db and --key-file")
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile), "git stored at the default location")
        let filled = try sandbox.git(["credential", "fill"], input: wire("protocol=https", "host=a.example"))
        #expect(filled.stdoutLines.contains("password=pa"), "\(filled)")

        let second = sandbox.root + "/second.db"
        let replaced = try configure.run(["configure", "--db", second, "--key-file", key])
        let secondLine = "\(BuiltProducts.sqliteHelper) --db \(second) --key-file '\(key)'"
        #expect(replaced.exitCode == 0, "\(replaced)")
        // Trace.quoted doubles the backslash of the quote's escape.
        let quotedFirst = firstLine.replacingOccurrences(of: "\\", with: "\\\\")
        // Then notes on the stores left behind: the keyring line's, and the first line's.
        #expect(replaced.stderrLines.last?.contains("first.db") == true && replaced.stderrLines.last?.contains("import --db \(second)") == true, "\(replaced)")
        #expect(replaced.stderrLines.prefix(1) == [#"replaced "\#(quotedFirst)" with "\#(secondLine)" as credential.helper in the global git configuration"#
                                         + " after a reset line, so earlier helpers no longer run (\"cache --timeout=60\", \"keyring --db /elsewhere/other.db\")"],
                "\(replaced)")
        #expect(try helpers() == ["cache --timeout=60", "keyring --db /elsewhere/other.db", "", secondLine])
        let again = try configure.run(["configure", "--db", second, "--key-file", key])
        #expect(again.exitCode == 0 && again.stderrText.hasPrefix("already configured: "), "\(again)")
        #expect(try helpers() == ["cache --timeout=60", "keyring --db /elsewhere/other.db", "", secondLine])

        expectSuccess(try configure.run(["unconfigure"]).withoutStderr)
        #expect(try helpers() == ["cache --timeout=60", "keyring --db /elsewhere/other.db"])
    }

    /// A `~` the shell did not expand is expanded; --passphrase-fd means nothing in a
    /// helper line and is refused, with nothing written. The keyring helper writes the
    /// same store options.
    @Test func configureExpandsTildeRefusesADescriptorAndKeyringWritesItsOptions() throws {
        let configure = helper.with(environment: onPath)
        expectSuccess(try configure.run(["configure", "--db", "~/git.db"]).withoutStderr)
        #expect(try helpers() == ["", "\(BuiltProducts.sqliteHelper) --db \(sandbox.home)/git.db --key-file \(sandbox.keyFile)"])

        let refused = try configure.run(["configure", "--passphrase-fd", "0"])
        expectOneLineFailure(refused, exitCode: 2, mentioning: ["--passphrase-fd", "Fix:"])
        #expect(try helpers() == ["", "\(BuiltProducts.sqliteHelper) --db \(sandbox.home)/git.db --key-file \(sandbox.keyFile)"], "a refused configure wrote")

        let keyring = try sandbox.run(BuiltProducts.keyringHelper, ["configure", "--db", sandbox.root + "/k.db"], environment: onPath)
        #expect(keyring.exitCode == 0, "\(keyring)")
        // The reset and sqlite line configure wrote is replaced, not stacked (MessagesThatLeadSomewhereTests).
        #expect(try helpers() == ["", "\(BuiltProducts.keyringHelper) --db \(sandbox.root)/k.db --key-file \(sandbox.keyFile)"])
    }

    /// A store directly in /tmp is refused by the store itself (a directory others can
    /// write): configure refuses it too, by the store's own check, and writes nothing;
    /// doctor's Fix moves the store out of /tmp (a directory of one's own inside it is
    /// emptied at boot, and then anyone's to create).
    @Test func configureAndDoctorRefuseAStoreInTmp() throws {
        let database = "/tmp/git-credential-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).db"
        let refused = try helper.with(environment: onPath).run(["configure", "--db", database])
        expectOneLineFailure(refused, exitCode: 1, mentioning: ["/tmp is writable by group or others", "Fix: keep it out of /tmp, which others share and which is emptied"])
        let written = try helpers()
        #expect(written.isEmpty, "a refused configure wrote: \(written)")
        #expect(!FileManager.default.fileExists(atPath: database), "configure created \(database)")

        let doctor = try helper.run(["doctor", "--db", database])
        #expect(doctor.stdoutText.contains("keep it out of /tmp") && !doctor.stdoutText.contains("mkdir -m 700 /tmp/"), "doctor: \(doctor)")
    }

    /// --grace-period is a store option like --db: configure writes it (in seconds, which
    /// every reader takes), and git's call of the line accepts it on the fast path.
    @Test func configureWritesTheGracePeriod() throws {
        let configure = helper.with(environment: onPath)
        expectSuccess(try configure.run(["configure", "--db", sandbox.root + "/g.db", "--grace-period", "2m"]).withoutStderr)
        #expect(try helpers() == ["", "\(BuiltProducts.sqliteHelper) --db \(sandbox.root)/g.db --key-file \(sandbox.keyFile) --grace-period 120"])
        expectSuccess(try sandbox.git(["credential", "approve"], input: Self.credential("g.example", "gina", "pg")))
        let filled = try sandbox.git(["credential", "fill"], input: wire("protocol=https", "host=g.example"))
        #expect(filled.stdoutLines.contains("password=pg") && filled.stderrText.isEmpty, "\(filled)")
    }

    /// git from cron, systemd or an IDE has PATH=/usr/bin:/bin, where a bare `sqlite`
    /// fails ("'credential-sqlite' is not a git command"): the line configure wrote,
    /// while the program was on PATH, still works there, for `credential fill` and for a
    /// clone over HTTP that needs the stored password. (Before: bare `sqlite`, and both failed.)
    @Test func theConfiguredLineWorksWithoutOurDirectoryOnPath() throws {
        let database = sandbox.root + "/store/git.db"
        expectSuccess(try helper.with(environment: onPath).run(["configure", "--db", database]).withoutStderr)
        let server = try BasicAuthServer(sandbox: sandbox, username: "alice", password: "cron secret")
        try server.makeRepository("project")
        expectSuccess(try sandbox.sqlite(["--db", database]).store(
            wire("protocol=http", "host=\(server.host)", "username=alice", "password=cron secret")))

        let filled = try sandbox.git(["credential", "fill"], input: wire("protocol=http", "host=\(server.host)"),
                                     environment: Self.minimalPath)
        #expect(filled.exitCode == 0 && filled.stdoutLines.contains("password=cron secret"), "\(filled)")
        let clone = try sandbox.git(["clone", "--quiet", server.repositoryURL("project"), sandbox.root + "/clone"],
                                    environment: Self.minimalPath)
        #expect(clone.exitCode == 0 && clone.stderr.isEmpty, "clone: \(clone)\n\(server.log)")
    }

    /// Run through a link on PATH (a package manager's bin directory, which it points at
    /// each new version), configure writes the link, so an upgrade keeps the line working;
    /// a link in a directory others can write, which could lead elsewhere tomorrow, is
    /// passed over for the file itself.
    @Test func configureWritesThePathPATHLeadsToWhenOnlyWeCanChangeIt() throws {
        for (name, mode) in [("bin", 0o755), ("shared-bin", 0o777)] {
            let directory = try sandbox.ownDirectory() + "/" + name, link = directory + "/git-credential-sqlite"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            chmod(directory, mode_t(mode))
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: BuiltProducts.sqliteHelper)
            let configured = try sandbox.run(link, ["configure"], environment: ["PATH": directory + ":" + Sandbox.searchPath])
            #expect(configured.exitCode == 0, "\(configured)")
            let written = try helpers()
            // With the store this environment names (the sandbox's XDG directories), as cron would not find it.
            #expect(written.last == (mode == 0o755 ? link : BuiltProducts.sqliteHelper) + " --db \(sandbox.database) --key-file \(sandbox.keyFile)", "\(name): \(written)")
        }
    }

    // MARK: doctor: the configured program

    /// A program configured by its path that is gone, or no longer executable, fails with
    /// the configure command (with the line's own options) that fixes it, and that command
    /// does. A short name found nowhere fails; found only through this PATH, it warns.
    @Test func doctorFindsAConfiguredProgramThatIsGone() throws {
        let directory = try sandbox.ownDirectory() + "/old-install"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let copy = directory + "/git-credential-sqlite", database = sandbox.root + "/store.db"
        try FileManager.default.copyItem(atPath: BuiltProducts.sqliteHelper, toPath: copy)
        expectSuccess(try sandbox.run(copy, ["configure", "--db", database]).withoutStderr)
        let configured = "\(copy) --db \(database) --key-file \(sandbox.keyFile)"
        let installed = try sandbox.run(copy, ["doctor", "--db", database])
        #expect(installed.stdoutLines.contains("ok    helper: git runs \(copy) with --db \(database) --key-file \(sandbox.keyFile)"), "\(installed)")

        chmod(copy, 0o644)
        let notExecutable = try helper.with(environment: onPath).run(["doctor", "--db", database])
        #expect(notExecutable.exitCode == 1, "\(notExecutable)")
        #expect(notExecutable.stdoutLines.contains(#"FAIL  helper: "\#(configured)" (global) runs \#(copy), which is not executable. "#
                                                   + "Fix: git-credential-sqlite configure --db \(database) --key-file \(sandbox.keyFile)"), "\(notExecutable)")

        try FileManager.default.removeItem(atPath: copy)
        let gone = try helper.run(["doctor"])
        #expect(gone.exitCode == 1, "\(gone)")
        let fix = "\(BuiltProducts.sqliteHelper) configure --db \(database) --key-file \(sandbox.keyFile)"
        #expect(gone.stdoutLines.contains(#"FAIL  helper: "\#(configured)" (global) runs \#(copy), which no longer exists. Fix: \#(fix)"#), "\(gone)")
        let fixed = try sandbox.run(BuiltProducts.sqliteHelper, Array(fix.split(separator: " ").dropFirst().map(String.init)))
        #expect(fixed.exitCode == 0 && fixed.stderrText.hasPrefix("replaced "), "\(fixed)")
        // Run without the line's --db, doctor says that it checked another store, and how to check git's.
        let otherStore = try helper.run(["doctor"])
        #expect(otherStore.stdoutLines.contains("warn  helper: git runs \(BuiltProducts.sqliteHelper) with --db \(database) --key-file \(sandbox.keyFile), so the store checked here "
                                                + "is not the one git uses. Fix: \(BuiltProducts.sqliteHelper) doctor --db \(database) --key-file \(sandbox.keyFile)"), "\(otherStore)")
        let after = try helper.run(["doctor", "--db", database])
        #expect(after.stdoutLines.contains("ok    helper: git runs \(BuiltProducts.sqliteHelper) with --db \(database) --key-file \(sandbox.keyFile)"), "\(after)")

        expectSuccess(try sandbox.git(["config", "--global", "--replace-all", "credential.helper", "sqlite"]))
        let nowhere = try helper.run(["doctor"])
        #expect(nowhere.exitCode == 1)
        #expect(nowhere.stdoutLines.contains(#"FAIL  helper: sqlite (global) runs git-credential-sqlite by name, which is not on PATH. Fix: \#(BuiltProducts.sqliteHelper) configure"#),
                "\(nowhere)")
        let onlyHere = try helper.with(environment: onPath).run(["doctor"])
        #expect(onlyHere.stdoutLines.contains { $0.hasPrefix("warn  helper: sqlite (global) runs git-credential-sqlite by name, found in \(BuiltProducts.directory) on this PATH only")
                                                && $0.hasSuffix("; configure writes the full path. Fix: git-credential-sqlite configure") }, "\(onlyHere)")
    }

    // MARK: the program git is told to run

    /// configure writes the path of the program git will run, which git then hands every
    /// credential: a path others could put their own program at is refused, with nothing
    /// written; that is a directory on the way writable by others, sticky or not (once
    /// /tmp is emptied, anyone can create the same path). doctor FAILs such a line written
    /// by hand, and one naming a link that leads there. Under the user's own directories,
    /// configure writes the path and doctor calls it ok.
    @Test func configureRefusesAProgramOthersCouldReplaceAndDoctorFailsOne() throws {
        let own = try sandbox.ownDirectory()
        let temporary = (sandbox.root as NSString).deletingLastPathComponent
        let fix = "Fix: install the helpers where only you and root can write (make install, the .deb, or a copy in ~/.local/bin), and run configure from there"
        let places: [(directory: String, mode: mode_t?, reason: (String) -> String)] = [
            // The sandbox, a directory of ours under /tmp.
            (sandbox.root + "/tmp-install", nil, { "\(temporary), above \($0), is writable by all (mode 01777): sticky, so others cannot move what is in it, but can create \($0) anew once it is removed" }),
            (own + "/sticky", 0o1777, { "\(own)/sticky, above \($0), is writable by all (mode 01777): sticky, so others cannot move what is in it, but can create \($0) anew once it is removed" }),
            (own + "/shared", 0o777, { "\(own)/shared, above \($0), is writable by group or others (mode 0777), who could move it away" }),
        ]
        for (directory, mode, reason) in places {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            if let mode { chmod(directory, mode) }
            let copy = directory + "/git-credential-sqlite"
            try FileManager.default.copyItem(atPath: BuiltProducts.sqliteHelper, toPath: copy)
            let refused = try sandbox.run(copy, ["configure"])
            #expect(refused.exitCode == 1 && refused.stdout.isEmpty, "\(refused)")
            #expect(refused.stderrText == "git-credential-sqlite: git would run \(copy), which others could replace: \(reason(copy)). \(fix)\n", "\(refused)")
            #expect(try helpers().isEmpty, "configure wrote \(copy)")

            expectSuccess(try sandbox.git(["config", "--global", "credential.helper", copy]))
            let doctor = try helper.run(["doctor"])
            #expect(doctor.exitCode == 1, "\(doctor)")
            #expect(doctor.stdoutLines.contains("FAIL  helper: \(copy) (global) runs \(copy), which others could replace: \(reason(copy)). \(fix)"), "\(doctor)")
            expectSuccess(try sandbox.git(["config", "--global", "--unset-all", "credential.helper"]))
        }

        // A link of ours, in a directory of ours, that leads under /tmp.
        let link = own + "/git-credential-sqlite", target = sandbox.root + "/tmp-install/git-credential-sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", link]))
        let doctor = try helper.run(["doctor"])
        #expect(doctor.stdoutLines.contains("FAIL  helper: \(link) (global) runs \(link), which others could replace: \(places[0].reason(target)). \(fix)"), "\(doctor)")
        expectSuccess(try sandbox.git(["config", "--global", "--unset-all", "credential.helper"]))

        let installed = own + "/bin", copy = installed + "/git-credential-sqlite"
        try FileManager.default.createDirectory(atPath: installed, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: BuiltProducts.sqliteHelper, toPath: copy)
        let configured = try sandbox.run(copy, ["configure"])
        #expect(configured.exitCode == 0 && configured.stderrText.hasPrefix("configured: "), "\(configured)")
        #expect(try helpers().last?.hasPrefix(copy + " ") == true)
        let fromOwn = try sandbox.run(copy, ["doctor"])
        #expect(fromOwn.stdoutLines.contains { $0.hasPrefix("ok    helper: git runs \(copy) ") }, "\(fromOwn)")

        // Attack finding (second round): another helper's line after ours, naming a program
        // under /tmp, was ok; git hands it every credential too.
        let other = sandbox.root + "/tmp-install/git-credential-other"
        try ChildProcess.writeFile(other, Array("#!/bin/sh\n".utf8), mode: 0o755)
        expectSuccess(try sandbox.git(["config", "--global", "--add", "credential.helper", other]))
        let another = try sandbox.run(copy, ["doctor"])
        #expect(another.exitCode == 1 && another.stdoutLines.contains("FAIL  helper: \(other) (global) runs \(other), which others could replace, and git hands it every credential: \(places[0].reason(other)); remove that line, or install that helper where only you and root can write. Fix: git config --global --fixed-value --unset-all credential.helper \(other)"), "\(another)")
        // And one for a URL only (credential.<url>.helper), which git runs for that URL.
        expectSuccess(try sandbox.git(["config", "--global", "--unset-all", "credential.helper", other]))
        expectSuccess(try sandbox.git(["config", "--global", "credential.https://github.com.helper", other]))
        let forURL = try sandbox.run(copy, ["doctor"])
        #expect(forURL.exitCode == 1 && forURL.stdoutLines.contains("FAIL  helper: \(other) (global, credential.https://github.com.helper) runs \(other), which others could replace, and git hands it every credential: \(places[0].reason(other)); remove that line, or install that helper where only you and root can write. Fix: git config --global --fixed-value --unset-all credential.https://github.com.helper \(other)"), "\(forURL)")
    }

    // MARK: doctor changes nothing

    /// The user's part of the sandbox: HOME, XDG_DATA_HOME and XDG_CONFIG_HOME.
    var userFiles: [String: [String: String]] {
        [sandbox.home, sandbox.dataHome, sandbox.configHome].reduce(into: [:]) { $0[$1] = StoreTrustTests.tree($1) }
    }

    /// doctor run as `program` changes nothing: the user's files are byte for byte as they
    /// were (none created in an empty HOME), its temporary directory is gone, and its
    /// round trip passed. (Before: the round trip created the key file and the database.)
    func expectDoctorChangesNothing(_ program: String, environment: [String: String] = [:], roundTrip: String = "ok",
                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let temporary = sandbox.root + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let before = userFiles
        let doctor = try sandbox.run(program, ["doctor"], environment: environment.merging(["TMPDIR": temporary]) { $1 })
        #expect(doctor.stdoutLines.contains { $0.hasPrefix(roundTrip.padding(toLength: 6, withPad: " ", startingAt: 0) + "round trip:") },
                "\(doctor)", sourceLocation: sourceLocation)
        #expect(userFiles == before, "doctor changed the user's files: \(doctor)", sourceLocation: sourceLocation)
        #expect(files(in: temporary).isEmpty, "doctor left \(files(in: temporary))", sourceLocation: sourceLocation)
    }

    @Test func doctorCreatesNoStoreInAnEmptyHome() throws {
        try expectDoctorChangesNothing(BuiltProducts.sqliteHelper)
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile))
        try expectDoctorChangesNothing(BuiltProducts.keyringHelper, environment: try sandbox.noSessionBus())
    }

    /// An existing store is read, not written: not even SQLite's journal stays behind.
    @Test func doctorLeavesAnExistingStoreAsItWas() throws {
        try helper.storeAll(Self.credential("a.example", "alice", "pa"))
        try expectDoctorChangesNothing(BuiltProducts.sqliteHelper)
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "pa")
    }

    /// On a keyring of the test's own (so that every item can be counted): the Secret
    /// Service helper and the keyring helper leave no item and no file, also when the
    /// SQLite store is passphrase-protected and locked, which made the keyring helper's
    /// round trip fail half-way and leave its item in the keyring.
    @Test func doctorLeavesNoItemInTheKeyring() throws {
        // The bus and daemon in a sandbox of their own: their files are not the user's.
        let daemon = try Sandbox()
        let bus = try PrivateSessionBus(sandbox: daemon, services: .none)
        try bus.startKeyring()
        let secretTool = SecretTool(sandbox: daemon, bus: bus.bus)
        func gitItems() throws -> Int { try secretTool.items(["xdg:schema": "org.git.Password"]).count }
        let keyring = KeyringHelper(sandbox: sandbox, environment: bus.bus.environment)
        try keyring.storeAll(Self.credential("kept.example", "alice", "in the keyring"))
        #expect(try gitItems() == 1)

        try expectDoctorChangesNothing(BuiltProducts.secretServiceHelper, environment: bus.bus.environment)
        try expectDoctorChangesNothing(BuiltProducts.keyringHelper, environment: bus.bus.environment)
        #expect(try gitItems() == 1)

        let phrase = try sandbox.file("phrase", "doctor phrase\n")
        let locked = helper.with(passphraseFile: phrase)
        #expect(try locked.initPassphrase().exitCode == 0)
        try expectDoctorChangesNothing(BuiltProducts.keyringHelper, environment: bus.bus.environment)
        #expect(try gitItems() == 1, "the round trip left its item in the keyring")
        let secretService = SecretServiceHelper(sandbox: sandbox, bus: bus.bus)
        #expect(try secretService.password(for: wire("protocol=https", "host=kept.example")) == "in the keyring")
    }

    // MARK: plaintext files

    /// ~/.git-credentials and $XDG_CONFIG_HOME/git/credentials (not ~/.config: the
    /// sandbox sets XDG_CONFIG_HOME elsewhere, as git honours it) are pointed out by doctor
    /// and configure with the import line, options included; that very line moves them.
    @Test func doctorAndConfigurePointOutPlaintextFilesWithTheImportLine() throws {
        let home = sandbox.home + "/.git-credentials", xdg = sandbox.configHome + "/git/credentials"
        try FileManager.default.createDirectory(atPath: sandbox.configHome + "/git", withIntermediateDirectories: true)
        try ChildProcess.writeFile(home, Array("https://alice:pa@a.example\n".utf8), mode: 0o600)
        try ChildProcess.writeFile(xdg, Array("https://bob:pb@b.example\n".utf8), mode: 0o600)
        let database = sandbox.root + "/store.db"
        let line = "git-credential-sqlite import --db \(database) --key-file \(sandbox.keyFile) --remove-source \(home) \(xdg)"

        let doctor = try helper.with(environment: onPath).run(["doctor", "--db", database])
        #expect(doctor.stdoutLines.contains("warn  plaintext: \(home) and \(xdg) hold credentials in clear, readable by any program you run. Fix: \(line)"),
                "\(doctor)")
        let configured = try helper.with(environment: onPath).run(["configure", "--db", database])
        #expect(configured.exitCode == 0 && configured.stderrLines.count == 2, "\(configured)")
        #expect(configured.stderrLines.last == "note: \(home) and \(xdg) hold credentials in clear; to move them into the store and wipe them: \(line)",
                "\(configured)")

        let moved = try sandbox.run(BuiltProducts.sqliteHelper, Array(line.split(separator: " ").dropFirst().map(String.init)), environment: onPath)
        #expect(moved.exitCode == 0, "\(moved)")
        #expect(!fileExists(home) && !fileExists(xdg), "the plaintext files are still there: \(moved)")
        let filled = try sandbox.git(["credential", "fill"], input: wire("protocol=https", "host=b.example"), environment: onPath)
        #expect(filled.stdoutLines.contains("password=pb"), "\(filled)")
        let clean = try helper.with(environment: onPath).run(["doctor", "--db", database])
        #expect(clean.stdoutLines.contains { $0.hasPrefix("ok    plaintext: no ") }, "\(clean)")
    }
}
