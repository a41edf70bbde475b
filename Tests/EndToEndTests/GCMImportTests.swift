import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `import --from gcm` against Git Credential Manager's Linux stores as GCM itself lays
/// them out (read from its source, git-ecosystem/git-credential-manager):
/// - plaintext (PlaintextCredentialStore): `~/.gcm/store/NAMESPACE/SCHEME/HOST[:PORT]/PATH/ACCOUNT.credential`,
///   written by SerializeCredential as `WriteLine(password)`, `WriteLine("service={0}")`,
///   `WriteLine("account={0}")`; the root made 0700 (EnsureStoreRoot), the rest with the umask;
/// - gpg (GpgPassCredentialStore): the same text encrypted by gpg to the id in `.gpg-id`, as
///   `ACCOUNT.gpg` under the password store (PASSWORD_STORE_DIR, default ~/.password-store);
/// - Secret Service (SecretServiceCollection): see `OtherKeyringClients.gcm`.
/// The service is `input.GetRemoteUri(includeUser: false).AbsoluteUri.TrimEnd('/')` (HostProvider.
/// GetServiceName): what comes back must be what git asks for, so real git fills it.
@Suite struct GCMImportTests: InSQLiteWorld {
    let world: SQLiteWorld
    var root: String { sandbox.home + "/.gcm/store" }
    var git: GitCredential { GitCredential(sandbox: sandbox, helper: BuiltProducts.sqliteHelper) }

    /// A directory as GCM makes it: the store root 0700, the rest 0755 (umask 022).
    func makeDirectories(_ path: String, under top: String) throws {
        var built = top
        if !FileManager.default.fileExists(atPath: top) {
            try FileManager.default.createDirectory(atPath: top, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        for component in path.split(separator: "/") {
            built += "/" + component
            if !FileManager.default.fileExists(atPath: built) {
                try FileManager.default.createDirectory(atPath: built, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            }
        }
    }

    /// GCM's SerializeCredential text.
    static func text(password: String, service: String, account: String?) -> String {
        "\(password)\nservice=\(service)\naccount=\(account ?? "")\n"
    }

    /// A plaintext credential file where and as GCM writes it; `relative` is under the root.
    @discardableResult
    func plaintext(_ relative: String, _ contents: String, mode: mode_t = 0o644) throws -> String {
        try makeDirectories((relative as NSString).deletingLastPathComponent, under: root)
        let path = root + "/" + relative
        try ChildProcess.writeFile(path, Array(contents.utf8), mode: mode)
        return path
    }

    /// The line the import writes when no Secret Service answers (the tests of the file
    /// stores run without a session bus).
    static func isNoKeyringLine(_ line: String) -> Bool {
        line.hasPrefix("cannot read GCM's Secret Service items: cannot reach the Secret Service on the session bus")
    }

    @Test func thePlaintextStoreComesInAsGitAsksForIt() throws {
        try plaintext("git/https/example.com/alice.credential", Self.text(password: "alice-pat", service: "https://example.com", account: "alice"))
        // useHttpPath: the path, percent-encoded by .NET, in the service and in the directories.
        try plaintext("git/https/example.com:8443/org/my%20repo.git/bob.credential",
                      Self.text(password: "bob-token", service: "https://example.com:8443/org/my%20repo.git", account: "bob"))
        // An account with a slash: GetSafeAccountFileName makes the file name `corp_carol`.
        try plaintext("git/http/intranet.example/corp_carol.credential",
                      Self.text(password: "carol:secret=x", service: "http://intranet.example", account: "corp/carol"))
        let result = try helper.run(["import", "--from", "gcm"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderrLines.filter { !Self.isNoKeyringLine($0) }
                == ["read 3 credentials from GCM's plaintext store \(root): 3 new, 0 replaced, 0 unchanged"], "\(result)")
        #expect(try git.filledPassword("url=https://example.com") == "alice-pat")
        #expect(try git.filledPassword("url=https://example.com:8443/org/my%20repo.git", config: ["credential.useHttpPath=true"]) == "bob-token")
        #expect(try git.filled(wire("url=http://intranet.example"))?["username"] == "corp/carol")
        #expect(try git.filledPassword("url=http://intranet.example") == "carol:secret=x")
        // Imported again: nothing changes, and it says so.
        let again = try helper.run(["import", "--from", "gcm"])
        #expect(again.stderrLines.filter { !Self.isNoKeyringLine($0) }
                == ["read 3 credentials from GCM's plaintext store \(root): 0 new, 0 replaced, 3 unchanged"], "\(again)")
    }

    /// Bitbucket's OAuth credentials: GCM keeps the access token under the host and the
    /// refresh token under the same account at the path /refresh_token; they come in as
    /// one credential, the refresh token as its oauth_refresh_token, and go together.
    @Test func bitbucketsRefreshTokenRidesWithItsAccessToken() throws {
        let access = try plaintext("git/https/bitbucket.org/alice.credential",
                                   Self.text(password: "access-token", service: "https://bitbucket.org", account: "alice"))
        let refresh = try plaintext("git/https/bitbucket.org/refresh_token/alice.credential",
                                    Self.text(password: "refresh-token", service: "https://bitbucket.org/refresh_token", account: "alice"))
        try plaintext("git/https/bitbucket.org/refresh_token/bob.credential",
                      Self.text(password: "orphan", service: "https://bitbucket.org/refresh_token", account: "bob"))
        let result = try helper.run(["import", "--from", "gcm"])
        let name = "GCM's plaintext store \(root)"
        #expect(result.stderrLines.filter { !Self.isNoKeyringLine($0) } == [
            "read 1 credential from \(name): 1 new, 0 replaced, 0 unchanged; skipped 1 unusable entry (entry 3)",
            "not imported from \(name): entry 3 (git/https/bitbucket.org/refresh_token/bob.credential): a refresh token (Bitbucket's) without the access token it renews, so git has nothing to carry it with",
        ], "\(result)")
        let answer = try helper.get(wire("protocol=https", "host=bitbucket.org"))
        #expect(answer.attributes["password"] == "access-token" && answer.attributes["oauth_refresh_token"] == "refresh-token"
                && answer.attributes["username"] == "alice", "\(answer)")
        let removing = try helper.run(["import", "--from", "gcm", "--remove-source"])
        #expect(removing.stderrLines.contains("removed \(access)") && removing.stderrLines.contains("removed \(refresh)"), "\(removing)")
        #expect(fileExists(root + "/git/https/bitbucket.org/refresh_token/bob.credential"))
    }

    /// What another user or program put in the store is left out, each with a line that
    /// says why, and nothing of it is opened (a FIFO would hang the import) or followed.
    @Test func hostileFilesInThePlaintextStoreAreLeftOutWithAReason() throws {
        try plaintext("git/https/good.example/alice.credential", Self.text(password: "good", service: "https://good.example", account: "alice"))
        let elsewhere = try sandbox.file("elsewhere/secret", Self.text(password: "planted", service: "https://good.example", account: "mallory"))
        try makeDirectories("git/https/planted.example", under: root)
        #expect(symlink(elsewhere, root + "/git/https/planted.example/link.credential") == 0)
        #expect(mkfifo(root + "/git/https/planted.example/fifo.credential", 0o644) == 0)
        let others = try plaintext("git/https/planted.example/other.credential",
                                   Self.text(password: "others", service: "https://planted.example", account: "other"))
        #expect(chown(others, Sandbox.anotherUser, Sandbox.anotherUser) == 0)
        try plaintext("git/https/planted.example/writable.credential",
                      Self.text(password: "writable", service: "https://planted.example", account: "writable"), mode: 0o666)
        try plaintext("git/https/planted.example/huge.credential", "x" + String(repeating: "y", count: 1 << 20) + "\nservice=https://planted.example\n")
        try plaintext("git/https/planted.example/noturl.credential", Self.text(password: "p", service: "planted.example", account: "u"))
        try plaintext("git/https/planted.example/noservice.credential", "p\naccount=u\n")
        try plaintext("git/https/planted.example/userinfo.credential", Self.text(password: "p", service: "https://eve:pw@planted.example", account: "u"))

        let started = Date()
        let result = try helper.run(["import", "--from", "gcm"])
        #expect(Date().timeIntervalSince(started) < 20 && !result.timedOut, "\(result)")
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.stderrLines.filter { !Self.isNoKeyringLine($0) }
        let name = "GCM's plaintext store \(root)"
        #expect(lines.first == "read 1 credential from \(name): 1 new, 0 replaced, 0 unchanged; skipped 8 unusable entries (entries 2, 3, 4, 5, 6 and 3 more)", "\(result)")
        let expected = [
            "entry 2 (git/https/planted.example/fifo.credential): not a regular file (a pipe or FIFO); not opened",
            "entry 3 (git/https/planted.example/huge.credential): larger than any file GCM writes (over 64 KiB); not read",
            "entry 4 (git/https/planted.example/link.credential): a symbolic link (to \(elsewhere)), which GCM never makes; not followed",
            "entry 5 (git/https/planted.example/noservice.credential): no service= line, so GCM does not read it either",
            "entry 6 (git/https/planted.example/noturl.credential): its service planted.example is not a URL, so git never asks for it",
            "entry 7 (git/https/planted.example/other.credential): the file belongs to uid 65534, not to you, so it is not trusted",
            "entry 8 (git/https/planted.example/userinfo.credential): its service https://…@planted.example has a user name, which GCM never writes there",
            "entry 9 (git/https/planted.example/writable.credential): the file is writable by group or others (mode 666), so it is not trusted (chmod go-w it, then import again)",
        ].map { "not imported from \(name): " + $0 }
        #expect(Array(lines.dropFirst()) == expected, "\(result)")
        #expect(!result.stderr.text.contains("planted\n") && !result.stderr.text.contains("eve:pw"), "a secret in a message: \(result)")
        #expect(try git.filledPassword("url=https://good.example") == "good")
        #expect(try git.filled(wire("url=https://planted.example")) == nil)

        // --remove-source: the imported file goes (and the directories GCM made for it);
        // everything else stays, and the last line, an error, says so.
        let removing = try helper.run(["import", "--from", "gcm", "--remove-source"])
        #expect(removing.exitCode == 1, "\(removing)")
        #expect(removing.stderrLines.contains("removed \(root)/git/https/good.example/alice.credential"), "\(removing)")
        #expect(!fileExists(root + "/git/https/good.example"), "its emptied directory stayed")
        #expect(fileExists(root + "/git/https"), "a directory still in use went")
        #expect(removing.stderrLines.last == "git-credential-sqlite: kept 8 entries of \(name): not imported (entries 2, 3, 4, 5, 6 and 3 more). Fix: see why above; move them by hand, or remove them from GCM (git credential-manager erase)", "\(removing)")
        for file in ["fifo", "huge", "link", "noservice", "noturl", "other", "userinfo", "writable"] {
            var info = stat()
            #expect(lstat(root + "/git/https/planted.example/\(file).credential", &info) == 0, "\(file) was removed")
        }
        #expect(contents(of: elsewhere) != nil)
    }

    @Test func aStoreRootOthersCanWriteIsRefused() throws {
        try plaintext("git/https/example.com/alice.credential", Self.text(password: "p", service: "https://example.com", account: "alice"))
        #expect(chmod(root, 0o777) == 0)
        let result = try helper.run(["import", "--from", "gcm"])
        #expect(result.exitCode == 1 && result.stderrLines.last?.hasPrefix("git-credential-sqlite: \(root), above \(root)/git, is writable by group or others") == true, "\(result)")
        #expect(try helper.run(["list"]).stdoutLines.count <= 1)
    }

    @Test func nothingToImportSaysWhereItLooked() throws {
        let result = try helper.run(["import", "--from", "gcm"])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderrLines.last == "git-credential-sqlite: nothing to import: Git Credential Manager has no credentials in \(root) or in \(sandbox.home)/.password-store (namespace git), and the Secret Service could not be read. Fix: check GCM's settings (credential.credentialStore, credential.namespace), or import from where its credentials are", "\(result)")
    }

    /// GCM's settings say where: GCM_PLAINTEXT_STORE_PATH and the namespace in git's config.
    @Test func gcmsSettingsSayWhereItsStoreIs() throws {
        let elsewhere = sandbox.root + "/gcm-elsewhere"
        try makeDirectories("work/https/example.com", under: elsewhere)
        try ChildProcess.writeFile(elsewhere + "/work/https/example.com/alice.credential",
                                   Array(Self.text(password: "work-pat", service: "https://example.com", account: "alice").utf8), mode: 0o644)
        // Another namespace's file in the default place is not GCM's for these settings.
        try plaintext("git/https/example.com/alice.credential", Self.text(password: "old", service: "https://example.com", account: "alice"))
        #expect(try sandbox.git(["config", "--global", "credential.namespace", "work"]).exitCode == 0)
        let result = try helper.with(environment: ["GCM_PLAINTEXT_STORE_PATH": elsewhere]).run(["import", "--from", "gcm"])
        #expect(result.exitCode == 0 && result.stderrLines.contains("read 1 credential from GCM's plaintext store \(elsewhere): 1 new, 0 replaced, 0 unchanged"), "\(result)")
        #expect(try git.filledPassword("url=https://example.com") == "work-pat")
        // A relative path is relative to where it runs (the home directory here), as for GCM.
        let relative = try helper.with(environment: ["GCM_PLAINTEXT_STORE_PATH": "../gcm-elsewhere"]).run(["import", "--from", "gcm"])
        #expect(relative.exitCode == 0 && relative.stderrLines.contains("read 1 credential from GCM's plaintext store \(sandbox.home)/../gcm-elsewhere: 0 new, 0 replaced, 1 unchanged"), "\(relative)")
    }
}

/// GCM's Secret Service items, on a keyring of the test's own, written as GCM writes them
/// (`OtherKeyringClients.gcm`), with items another program wrote in GCM's schema beside them.
@Suite struct GCMImportKeyringTests: InKeyringWorld {
    let world: KeyringWorld
    var helper: SQLiteHelper { sandbox.sqlite().with(environment: session.bus.environment) }
    static let schema = "com.microsoft.GitCredentialManager"

    var git: GitCredential { GitCredential(sandbox: sandbox, helper: BuiltProducts.sqliteHelper, environment: session.bus.environment) }

    func gcmItems() throws -> [KeyringItem] { try secretTool.items(["xdg:schema": Self.schema]) }

    @Test func gcmsItemsComeInAndOnlyTheyAreRemoved() throws {
        try clients.gcm(service: "git:https://github.com", account: "alice", secret: "gho_alice")
        try clients.gcm(service: "git:https://example.com:8443/org/repo.git", account: "bob", secret: "bob-pat")
        // Hostile or odd: not a URL; another program's item in GCM's schema with attributes
        // GCM never writes; another namespace; no account; a secret with a line break.
        try clients.gcm(service: "git:not a url", account: "carol", secret: "carol-secret")
        try clients.raw(schema: Self.schema, label: "git:https://github.com",
                        ["service": "git:https://github.com", "account": "mallory", "server": "github.com"], secret: Array("planted".utf8))
        try clients.gcm(service: "work:https://github.com", account: "dave", secret: "dave-secret")
        try clients.gcm(service: "git:https://noaccount.example", account: nil, secret: "lonely")
        try clients.gcm(service: "git:https://lines.example", account: "erin", secret: "one\nusername=evil")

        let result = try helper.run(["import", "--from", "gcm"])
        #expect(result.exitCode == 0, "\(result)")
        let name = "GCM's Secret Service items"
        #expect(result.stderrLines.first == "read 2 credentials from \(name): 2 new, 0 replaced, 0 unchanged; skipped 5 unusable entries (entries 1, 2, 3, 4, 5)"
                || result.stderrLines.first?.hasPrefix("read 2 credentials from \(name): 2 new, 0 replaced, 0 unchanged; skipped 5 unusable entries") == true,
                "\(result)")
        let notes = result.stderrLines.dropFirst().map { $0 }
        #expect(notes.count == 5, "\(result)")
        for (service, account, reason) in [
            ("git:not a url", "carol", "its service \"not a url\" is not a URL, so git never asks for it"),
            ("git:https://github.com", "mallory", "the item has attributes GCM never writes (server): another program's"),
            ("work:https://github.com", "dave", "its service is not in GCM's namespace git (credential.namespace), so GCM does not use it"),
            ("git:https://noaccount.example", "none", "it has no account (user name), which git needs to store it"),
            ("git:https://lines.example", "erin", "its password has a line break or NUL, which git's protocol cannot carry"),
        ] {
            let shownService = service.contains(" ") ? "\"\(service)\"" : service
            #expect(notes.contains { $0.hasPrefix("not imported from \(name): entry ") && $0.hasSuffix("(service \(shownService), account \(account)): \(reason)") },
                    "no line for \(service) \(account): \(result)")
        }
        #expect(!result.stderr.text.contains("planted") && !result.stderr.text.contains("evil") && !result.stderr.text.contains("secret"),
                "a secret in a message: \(result)")
        #expect(try git.filledPassword("url=https://github.com") == "gho_alice")
        #expect(try git.filled(wire("url=https://github.com"))?["username"] == "alice")
        #expect(try git.filledPassword("url=https://example.com:8443/org/repo.git", config: ["credential.useHttpPath=true"]) == "bob-pat")
        #expect(try git.filled(wire("url=https://noaccount.example")) == nil)

        let removing = try helper.run(["import", "--from", "gcm", "--remove-source"])
        #expect(removing.exitCode == 1, "\(removing)")
        #expect(removing.stderrLines.filter { $0.hasPrefix("removed \(name) entry ") }.count == 2, "\(removing)")
        #expect(removing.stderrLines.last?.hasPrefix("git-credential-sqlite: kept 5 entries of \(name): not imported") == true, "\(removing)")
        let left = try gcmItems()
        #expect(left.count == 5 && !left.contains { $0.label == "git:https://example.com:8443/org/repo.git" }, "\(left)")
        #expect(try secretTool.lookup(["xdg:schema": Self.schema, "account": "alice"]) == nil)
        #expect(try secretTool.lookup(["account": "mallory"]) == "planted")
        #expect(try git.filledPassword("url=https://github.com") == "gho_alice", "the import itself was lost")
    }

    /// The same credential in two of GCM's stores: the copy in the store GCM is set to use
    /// is imported; a copy elsewhere that holds the same goes with --remove-source, one
    /// with another password stays (and says so).
    @Test func aCredentialInTwoStoresComesFromTheOneGCMUses() throws {
        try clients.gcm(service: "git:https://github.com", account: "alice", secret: "keyring-copy")
        try clients.gcm(service: "git:https://example.com", account: "bob", secret: "same")
        let root = sandbox.home + "/.gcm/store"
        for (relative, text) in [("github.com/alice", GCMImportTests.text(password: "file-copy", service: "https://github.com", account: "alice")),
                                 ("example.com/bob", GCMImportTests.text(password: "same", service: "https://example.com", account: "bob"))] {
            try FileManager.default.createDirectory(atPath: root + "/git/https/" + (relative as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try ChildProcess.writeFile(root + "/git/https/" + relative + ".credential", Array(text.utf8), mode: 0o600)
        }
        let configured = helper.with(environment: ["GCM_CREDENTIAL_STORE": "plaintext"])
        let result = try configured.run(["import", "--from", "gcm"])
        #expect(result.exitCode == 0 && result.stderrLines.first == "read 2 credentials from GCM's plaintext store \(root): 2 new, 0 replaced, 0 unchanged", "\(result)")
        #expect(try git.filledPassword("url=https://github.com") == "file-copy")
        let removing = try configured.run(["import", "--from", "gcm", "--remove-source"])
        #expect(removing.exitCode == 1, "\(removing)")
        #expect(removing.stderrLines.filter { $0.hasPrefix("removed ") }.count == 3, "\(removing)")
        #expect(removing.stderrLines.last?.hasPrefix("git-credential-sqlite: kept 1 entry of GCM's Secret Service items: not imported (entry ") == true, "\(removing)")
        #expect(try secretTool.lookup(["xdg:schema": Self.schema, "account": "alice"]) == "keyring-copy")
        #expect(try secretTool.lookup(["xdg:schema": Self.schema, "account": "bob"]) == nil)
    }

    /// An item that changed after it was read is kept: the removal compares the item's
    /// attributes and secret with what was read, through the helper that removes it.
    @Test func anItemChangedSinceItWasReadIsKept() throws {
        try clients.gcm(service: "git:https://github.com", account: "alice", secret: "gho_new")
        let listed = try sandbox.run(BuiltProducts.secretServiceHelper, ["gcm-items"], environment: session.bus.environment)
        #expect(listed.exitCode == 0 && listed.stdout.text.contains("gho_new"), "\(listed)")
        // What an import read before GCM replaced the secret: the same item, an older secret.
        let old = listed.stdout.text.replacingOccurrences(of: "S 0 7\ngho_new", with: "S 0 7\ngho_old")
        #expect(old != listed.stdout.text)
        let kept = try sandbox.run(BuiltProducts.secretServiceHelper, ["gcm-remove"], input: Array(old.utf8), environment: session.bus.environment)
        #expect(kept.exitCode == 0 && kept.stdoutLines == ["kept its secret changed since it was read"], "\(kept)")
        #expect(try secretTool.lookup(["xdg:schema": Self.schema, "account": "alice"]) == "gho_new")
        let removed = try sandbox.run(BuiltProducts.secretServiceHelper, ["gcm-remove"], input: listed.stdout.bytes, environment: session.bus.environment)
        #expect(removed.exitCode == 0 && removed.stdoutLines == ["removed"], "\(removed)")
        #expect(try gcmItems().isEmpty)
        let gone = try sandbox.run(BuiltProducts.secretServiceHelper, ["gcm-remove"], input: listed.stdout.bytes, environment: session.bus.environment)
        #expect(gone.stdoutLines == ["kept it is no longer in the keyring"], "\(gone)")
    }

    /// GCM's item in a locked keyring no one can unlock (no display): named, left out, and
    /// kept by --remove-source, in bounded time.
    @Test func aLockedItemIsLeftOutAndKept() throws {
        try clients.gcm(service: "git:https://github.com", account: "alice", secret: "gho_alice")
        try session.lockLoginCollection()
        let started = Date()
        let result = try helper.run(["import", "--from", "gcm", "--remove-source"])
        #expect(Date().timeIntervalSince(started) < 20, "\(result)")
        let name = "GCM's Secret Service items"
        #expect(result.stderrLines.contains("not imported from \(name): entry 1 (service git:https://github.com, account alice): the item is locked, and no one unlocked it"), "\(result)")
        #expect(result.exitCode == 1 && result.stderrLines.last?.hasPrefix("git-credential-sqlite: kept 1 entry of \(name): not imported (entry 1)") == true, "\(result)")
        try session.restartKeyring()
        #expect(try secretTool.lookup(["xdg:schema": Self.schema, "account": "alice"]) == "gho_alice")
    }

    /// A hostile item's huge attributes and secret: named in a short line, not imported.
    @Test func aHugeItemIsNamedShortlyAndLeftOut() throws {
        let huge = "git:https://example.com/" + String(repeating: "a", count: 100_000)
        try clients.gcm(service: huge, account: "alice", secret: String(repeating: "s", count: 200_000))
        let result = try helper.run(["import", "--from", "gcm"])
        #expect(result.exitCode == 0 && result.stderr.bytes.count < 2000, "\(result.stderr.bytes.count) bytes of stderr")
        #expect(result.stderrLines.last?.hasSuffix("(service \(huge.prefix(100))…, account alice): its password is larger than any token (over 64 KiB)") == true,
                "\(result.stderrLines)")
    }

    /// gcm-items writes secrets for a pipe to another helper: at a terminal it refuses.
    @Test func gcmItemsWritesNoSecretToATerminal() throws {
        try clients.gcm(service: "git:https://github.com", account: "alice", secret: "gho_alice")
        let result = try sandbox.onTerminal([BuiltProducts.secretServiceHelper, "gcm-items"], steps: [], stdinOnTerminal: true,
                                            stdoutOnTerminal: true, stderrOnTerminal: true, environment: session.bus.environment)
        #expect(result.code == 2 && !result.terminal.contains("gho_alice")
                && result.terminal.contains("git-credential-secretservice: gcm-items writes secrets for import --from gcm, not to a terminal. Fix: run import --from gcm instead"),
                "\(result)")
    }

    /// git-credential-secretservice imports into the same keyring, and git-credential-keyring too.
    @Test func everyHelperWithImportTakesGCMsItems() throws {
        try clients.gcm(service: "git:https://github.com", account: "alice", secret: "gho_alice")
        // Through git-credential-secretservice's pipe only: never a command line or an environment.
        let (sqlite, report) = try ProcessSampler.watching(secrets: ["the token": "gho_alice"]) { try helper.run(["import", "--from", "gcm"]) }
        #expect(report.findings.isEmpty && sqlite.exitCode == 0, "\(report) \(sqlite)")
        let secretService = try sandbox.run(BuiltProducts.secretServiceHelper, ["import", "--from", "gcm"], environment: session.bus.environment)
        #expect(secretService.exitCode == 0 && secretService.stderrLines.first?.hasPrefix("read 1 credential from GCM's Secret Service items: 1 new") == true, "\(secretService)")
        let viaSecretService = GitCredential(sandbox: sandbox, helper: BuiltProducts.secretServiceHelper, environment: session.bus.environment)
        #expect(try viaSecretService.filledPassword("url=https://github.com") == "gho_alice")
        let keyring = try sandbox.run(BuiltProducts.keyringHelper, ["import", "--from", "gcm"], environment: session.bus.environment)
        #expect(keyring.exitCode == 0 && keyring.stderrLines.first?.hasPrefix("read 1 credential from GCM's Secret Service items: ") == true, "\(keyring)")
    }

    /// GCM set to use the Secret Service, which does not answer: the import fails, with
    /// the cause, rather than bring in only the other stores.
    @Test func gcmsOwnStoreUnreachableFails() throws {
        let result = try sandbox.sqlite().with(environment: ["GCM_CREDENTIAL_STORE": "secretservice", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"])
            .run(["import", "--from", "gcm"])
        #expect(result.exitCode == 1 && result.stderrLines.count == 1
                && result.stderrLines[0].hasPrefix("git-credential-sqlite: cannot read GCM's Secret Service items: cannot reach the Secret Service"), "\(result)")
    }
}

/// GCM's gpg store (GpgPassCredentialStore, a `pass`-compatible store): each credential
/// encrypted as GCM's Gpg.EncryptFile does it (`gpg --encrypt --batch --recipient ID
/// --output PATH`, the text on stdin) to the id in the store's `.gpg-id`, with a throwaway
/// key in a throwaway GNUPGHOME; decrypted by the user's gpg.
@Suite struct GCMImportGPGTests {
    let sandbox: Sandbox
    let helper: SQLiteHelper
    var gnupg: String { sandbox.root + "/gnupg" }
    var store: String { sandbox.home + "/.password-store" }
    static let identity = "GCM Test <gcm-test@example.com>"

    init() throws {
        sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.root + "/gnupg", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        helper = sandbox.sqlite().with(environment: ["GNUPGHOME": sandbox.root + "/gnupg"])
    }

    @discardableResult
    func gpg(_ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
        let result = try sandbox.run(Sandbox.which("gpg") ?? "/usr/bin/gpg", arguments, input: input, environment: ["GNUPGHOME": gnupg], timeout: 60)
        #expect(result.exitCode == 0, "gpg \(arguments): \(result)")
        return result
    }

    /// Stops the gpg-agent the test's gpg started (and forgets any passphrase it holds).
    func stopAgent() throws {
        _ = try sandbox.run(Sandbox.which("gpgconf") ?? "/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: ["GNUPGHOME": gnupg])
    }

    func makeKey(passphrase: String) throws {
        let arguments = ["--batch", "--pinentry-mode", "loopback", "--passphrase", passphrase, "--quick-gen-key", Self.identity, "future-default", "default", "never"]
        // gpg-agent now and then cannot use the key it has just protected for the key's
        // own signature ("signing failed: Corrupted protection": once in CI, and in GnuPG's
        // own test suite): made again, by a fresh agent.
        let made = try sandbox.run(Sandbox.which("gpg") ?? "/usr/bin/gpg", arguments, environment: ["GNUPGHOME": gnupg], timeout: 60)
        if made.exitCode != 0 && made.stderrText.contains("Corrupted protection") {
            try stopAgent()
            try gpg(arguments)
        } else {
            #expect(made.exitCode == 0, "gpg \(arguments): \(made)")
        }
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try ChildProcess.writeFile(store + "/.gpg-id", Array("gcm-test@example.com\n".utf8), mode: 0o600)
    }

    @discardableResult
    func encrypted(_ relative: String, _ text: String) throws -> String {
        let path = store + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try gpg(["--encrypt", "--batch", "--recipient", "gcm-test@example.com", "--output", path], input: Array(text.utf8))
        return path
    }

    /// GCM_GPG_PATH names the gpg that decrypts every GCM secret: a relative path names
    /// the current directory (a repository's own `gpg`) and is refused before anything is
    /// run; an absolute one runs as given, as GCM runs it (attack round: `./gpg` of the
    /// working directory ran).
    @Test func aRelativeGCMGPGPathIsNotRun() throws {
        defer { try? stopAgent() }
        try makeKey(passphrase: "")
        try encrypted("git/https/example.com/alice.gpg", GCMImportTests.text(password: "alice-gpg-pat", service: "https://example.com", account: "alice"))
        let checkout = sandbox.root + "/checkout", ran = sandbox.root + "/planted-gpg-ran"
        try FileManager.default.createDirectory(atPath: checkout, withIntermediateDirectories: true)
        try ChildProcess.writeFile(checkout + "/gpg", Array("#!/bin/sh\ntouch '\(ran)'\nexec /usr/bin/gpg \"$@\"\n".utf8), mode: 0o755)
        let environment = ["GNUPGHOME": gnupg, "GCM_GPG_PATH": "./gpg"]
        let refused = try sandbox.run(BuiltProducts.sqliteHelper, ["import", "--from", "gcm"], environment: environment, directory: checkout, timeout: 60)
        #expect(refused.exitCode == 1 && !fileExists(ran), "\(refused)")
        #expect(refused.stderrText.contains("GCM_GPG_PATH=./gpg is a relative path, which names a program of the current directory (the repository git runs a helper in), so it is not run. Fix: give GCM_GPG_PATH an absolute path, or a name to find in PATH"),
                "\(refused)")
        let absolute = try sandbox.run(BuiltProducts.sqliteHelper, ["import", "--from", "gcm"], environment: ["GNUPGHOME": gnupg, "GCM_GPG_PATH": "/usr/bin/gpg"],
                                       directory: checkout, timeout: 60)
        #expect(absolute.exitCode == 0 && absolute.stderrText.contains(": 1 new"), "\(absolute)")
    }

    @Test func theGpgStoreIsDecryptedByTheUsersGpg() throws {
        defer { try? stopAgent() }
        try makeKey(passphrase: "")
        let alice = try encrypted("git/https/example.com/alice.gpg", GCMImportTests.text(password: "alice-gpg-pat", service: "https://example.com", account: "alice"))
        // pass's own entries beside GCM's namespace are the user's, not GCM's: never decrypted.
        try encrypted("email/work.gpg", "not-gcms\n")
        // What no passphrase opens is the file's problem, not the import's: left out, said why.
        let garbage = store + "/git/https/example.com/garbage.gpg"
        try ChildProcess.writeFile(garbage, Array("not encrypted at all\n".utf8), mode: 0o600)
        let otherHome = sandbox.root + "/other-gnupg"
        try FileManager.default.createDirectory(atPath: otherHome, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let other = { (arguments: [String], input: [UInt8]) throws -> ProcessResult in
            try sandbox.run(Sandbox.which("gpg") ?? "/usr/bin/gpg", arguments, input: input, environment: ["GNUPGHOME": otherHome], timeout: 60)
        }
        #expect(try other(["--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key", "Other <other@example.com>", "future-default", "default", "never"], []).exitCode == 0)
        #expect(try other(["--encrypt", "--batch", "--recipient", "other@example.com", "--output", store + "/git/https/example.com/others.gpg"],
                          Array(GCMImportTests.text(password: "p", service: "https://example.com", account: "others").utf8)).exitCode == 0)
        defer { _ = try? sandbox.run(Sandbox.which("gpgconf") ?? "/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: ["GNUPGHOME": otherHome]) }
        // The plaintext passes on pipes only: never in a command line or an environment.
        let (result, report) = try ProcessSampler.watching(secrets: ["the token": "alice-gpg-pat"]) { try helper.run(["import", "--from", "gcm"]) }
        #expect(report.findings.isEmpty, "\(report)")
        #expect(result.exitCode == 0, "\(result)")
        let name = "GCM's gpg store \(store)"
        #expect(result.stderrLines.filter { !GCMImportTests.isNoKeyringLine($0) }
                == ["read 1 credential from \(name): 1 new, 0 replaced, 0 unchanged; skipped 2 unusable entries (entries 2, 3)",
                    "not imported from \(name): entry 2 (git/https/example.com/garbage.gpg): it is no OpenPGP data",
                    "not imported from \(name): entry 3 (git/https/example.com/others.gpg): encrypted to no key you have (gpg: decryption failed: No secret key)"],
                "\(result)")
        let git = GitCredential(sandbox: sandbox, helper: BuiltProducts.sqliteHelper)
        #expect(try git.filledPassword("url=https://example.com") == "alice-gpg-pat")
        let removing = try helper.run(["import", "--from", "gcm", "--remove-source"])
        #expect(removing.exitCode == 1 && removing.stderrLines.contains("removed \(alice)"), "\(removing)")
        #expect(!fileExists(alice) && fileExists(store + "/email/work.gpg") && fileExists(store + "/.gpg-id") && fileExists(garbage))
    }

    /// A key with a passphrase, at a terminal: gpg-agent's curses pinentry asks on the
    /// terminal the helper runs on (GPG_TTY, set from it), the person types the passphrase
    /// there, and the import goes on. A driver in python3 plays the person at a
    /// pseudo-terminal (pinentry draws a screen, so it waits for "Passphrase").
    @Test func aKeyWithAPassphraseIsAskedForAtTheTerminal() throws {
        defer { try? stopAgent() }
        try makeKey(passphrase: "key-passphrase")
        try ChildProcess.writeFile(gnupg + "/gpg-agent.conf", Array("pinentry-program /usr/bin/pinentry-curses\n".utf8), mode: 0o600)
        try encrypted("git/https/example.com/alice.gpg", GCMImportTests.text(password: "alice-gpg-pat", service: "https://example.com", account: "alice"))
        try stopAgent()
        let result = try sandbox.onTerminal([BuiltProducts.sqliteHelper, "import", "--from", "gcm"],
                                            steps: [TerminalStep(after: "Passphrase", pause: 0.3, text: "key-passphrase\r")],
                                            stdinOnTerminal: true, stdoutOnTerminal: true, stderrOnTerminal: true, seconds: 40,
                                            environment: ["GNUPGHOME": gnupg, "GIT_TERMINAL_PROMPT": "1", "TERM": "xterm"])
        #expect(result.steps == 1 && result.code == 0, "\(result)")
        #expect(result.terminal.contains("read 1 credential from GCM's gpg store \(store): 1 new"), "\(result)")
        #expect(!result.terminal.contains("key-passphrase") && !result.terminal.contains("alice-gpg-pat"), "a secret on the terminal: \(result)")
        let git = GitCredential(sandbox: sandbox, helper: BuiltProducts.sqliteHelper)
        #expect(try git.filledPassword("url=https://example.com") == "alice-gpg-pat")
    }

    /// A key with a passphrase, not cached, and no one to ask (no terminal, no display, as
    /// in CI): gpg is told not to ask, so the import fails at once, with one line and the
    /// fix, and imports nothing from any store.
    @Test func aKeyWithAPassphraseAndNoOneToAskFailsAtOnce() throws {
        defer { try? stopAgent() }
        try makeKey(passphrase: "key-passphrase")
        let path = try encrypted("git/https/example.com/alice.gpg", GCMImportTests.text(password: "alice-gpg-pat", service: "https://example.com", account: "alice"))
        try stopAgent()
        let started = Date()
        let result = try helper.run(["import", "--from", "gcm"])
        #expect(Date().timeIntervalSince(started) < 15, "\(result)")
        #expect(result.exitCode == 1, "\(result)")
        let last = result.stderrLines.last ?? ""
        #expect(last.hasPrefix("git-credential-sqlite: cannot decrypt \(path) with gpg: ")
                && last.hasSuffix("Fix: run import at a terminal or in the desktop session, where gpg can ask for the key's passphrase (or set GPG_TTY), or unlock the key first (gpg --decrypt \(path) >/dev/null caches it)"),
                "\(result)")
        #expect(result.stderrLines.filter { !GCMImportTests.isNoKeyringLine($0) }.count == 1, "\(result)")
        #expect(try helper.run(["list"]).stdoutLines.count <= 1, "something was imported")
    }

    /// The same with a GPG_TTY and an SSH_TTY inherited but no terminal to reach (setsid:
    /// no controlling terminal, as from cron, systemd or a detached session): no one to
    /// ask, by the one rule of PromptPlace. import's own copy of the rule took GPG_TTY
    /// for a person at a terminal, so gpg-agent tried a pinentry there, and the fix said
    /// to check gpg instead of where to run import.
    @Test func anInheritedTerminalNameWithoutATerminalIsNoOneToAsk() throws {
        defer { try? stopAgent() }
        try makeKey(passphrase: "key-passphrase")
        let path = try encrypted("git/https/example.com/alice.gpg", GCMImportTests.text(password: "alice-gpg-pat", service: "https://example.com", account: "alice"))
        try stopAgent()
        let result = try sandbox.run(Sandbox.which("setsid") ?? "/usr/bin/setsid", ["--wait", BuiltProducts.sqliteHelper, "import", "--from", "gcm"],
                                     environment: ["GNUPGHOME": gnupg, "GPG_TTY": "/dev/pts/4242", "SSH_TTY": "/dev/pts/4242", "GIT_TERMINAL_PROMPT": "1"],
                                     timeout: 150)
        #expect(result.exitCode == 1, "\(result)")
        let last = result.stderrLines.last ?? ""
        #expect(last.hasPrefix("git-credential-sqlite: cannot decrypt \(path) with gpg: ")
                && last.hasSuffix("Fix: run import at a terminal or in the desktop session, where gpg can ask for the key's passphrase (or set GPG_TTY), or unlock the key first (gpg --decrypt \(path) >/dev/null caches it)"),
                "\(result)")
        #expect(try helper.run(["list"]).stdoutLines.count <= 1, "something was imported")
    }
}
