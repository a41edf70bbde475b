import Foundation
import Testing

/// A store named explicitly (--db, --key-file, GIT_CREDENTIAL_SQLITE_DB) must exist for
/// every command but get (silent: git asks on), store and init, which make it; and its
/// path must be absolute, since git runs helpers in whatever repository it works in.
@Suite struct NamedStoreTests {
    let sandbox: Sandbox
    let typo: String

    init() throws {
        sandbox = try Sandbox()
        typo = sandbox.root + "/typo/credentials.db"
    }

    static let credential = wire("protocol=https", "host=a.example", "username=alice", "password=pa")

    @Test(arguments: [["list"], ["list", "a.example"], ["erase", "a.example"], ["erase-all", "--yes"], ["export", "--plaintext"]])
    func aMissingNamedStoreIsAnError(_ command: [String]) throws {
        let result = try sandbox.sqlite().run(["--db", typo] + command)
        #expect(result.exitCode == 1 && result.stdout.isEmpty && result.stderrLines
                == ["git-credential-sqlite: there is no store at \(typo) (named by --db). Fix: check --db for a typo, or create the store with git-credential-sqlite init and the same options"],
                "\(command): \(result)")
        #expect(!fileExists(sandbox.root + "/typo"), "\(command) created the store")
    }

    @Test func theEnvironmentNamesAStoreToo() throws {
        let helper = sandbox.sqlite().with(environment: ["GIT_CREDENTIAL_SQLITE_DB": typo])
        expectOneLineFailure(try helper.run(["list"]), exitCode: 1, mentioning: ["no store at \(typo)", "named by GIT_CREDENTIAL_SQLITE_DB"])
        // git's own erase (a refused credential, perhaps before anything was stored) is quiet.
        expectSilentMiss(try helper.run(["erase"], input: wire("protocol=https", "host=a.example")))
        // A key file named alone names the store it opens.
        let keyOnly = sandbox.sqlite().with(environment: ["GIT_CREDENTIAL_SQLITE_KEY_FILE": sandbox.root + "/typo/key"])
        expectOneLineFailure(try keyOnly.run(["list"]), exitCode: 1, mentioning: ["named by GIT_CREDENTIAL_SQLITE_KEY_FILE"])
    }

    @Test func getAnswersNothingSilentlyWithATraceNote() throws {
        let trace = sandbox.root + "/trace"
        let get = try sandbox.sqlite().with(environment: ["GIT_CREDENTIAL_TRACE": trace]).run(["--db", typo, "get"], input: wire("protocol=https", "host=a.example"))
        expectSilentMiss(get)
        let traced = String(decoding: contents(of: trace) ?? [], as: UTF8.self)
        #expect(traced.contains("get: answered nothing: there is no store at \(typo) (named by --db)"), "\(traced)")
        #expect(!fileExists(sandbox.root + "/typo"))
        // store and init make it; then everything works.
        let helper = sandbox.sqlite(["--db", typo])
        try helper.storeAll(Self.credential)
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "pa")
        #expect(try helper("list").stdoutLines.count == 2)
        let other = sandbox.root + "/other/credentials.db"
        let initialized = try sandbox.sqlite().run(["--db", other, "init"])
        #expect(initialized.exitCode == 0 && fileExists(other), "\(initialized)")
        expectSuccess(try sandbox.sqlite().run(["--db", other, "list"]))
    }

    /// git-credential-keyring's SQLite store is a fallback: the keyring may have taken
    /// every credential, so a --db that names no store yet is no error there.
    @Test func theKeyringHelpersFallbackStoreMayBeMissing() throws {
        let world = try KeyringWorld(in: sandbox)
        let keyring = world.keyringHelper
        expectSuccess(try keyring("--db", typo, "store", input: Self.credential))
        let listed = try keyring("--db", typo, "list")
        #expect(listed.exitCode == 0 && listed.stdoutLines.count == 2 && listed.stdoutLines[1].hasSuffix("secretservice"), "\(listed)")
        #expect(!fileExists(sandbox.root + "/typo"))
        let relative = try keyring("--db", "store.db", "list")
        expectOneLineFailure(relative, exitCode: 2, mentioning: ["--db store.db is not an absolute path"])
    }

    @Test func theDefaultStoreMissingListsNothing() throws {
        let listed = try sandbox.sqlite().run(["list"])
        expectSuccess(listed)
        #expect(listed.stdout.isEmpty)
        let json = try sandbox.sqlite().run(["list", "--format", "json"])
        #expect(json.exitCode == 0 && json.stdoutText == "[]\n" && json.stderr.isEmpty, "\(json)")
    }

    @Test(arguments: ["--db", "--key-file"])
    func aRelativePathIsRefusedOnEveryRoad(_ option: String) throws {
        let repository = sandbox.root + "/repo"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        // git's own call (the fast path), a management command, and --name=value.
        for arguments in [[option, "store.db", "store"], [option, "store.db", "list"], ["\(option)=sub/store.db", "store"]] {
            let result = try sandbox.run(BuiltProducts.sqliteHelper, arguments, input: Self.credential, directory: repository)
            let shown = arguments[0].contains("=") ? "sub/store.db" : "store.db"
            #expect(result.exitCode == 2 && result.stderrLines
                    == ["git-credential-sqlite: \(option) \(shown) is not an absolute path, and git runs helpers in whatever repository it is in. Fix: give the whole path, starting with / or ~/"],
                    "\(arguments): \(result)")
        }
        #expect(files(in: repository).isEmpty, "a relative path made a store in the repository")
    }

    @Test func aRelativeOrTildeEnvironmentPathIsRefused() throws {
        for value in ["store.db", "~/store.db"] {
            let helper = sandbox.sqlite().with(environment: ["GIT_CREDENTIAL_SQLITE_DB": value])
            let stored = try helper.run(["store"], input: Self.credential)
            #expect(stored.exitCode == 2 && stored.stderrLines
                    == ["git-credential-sqlite: GIT_CREDENTIAL_SQLITE_DB=\(value) is not an absolute path, and git runs helpers in whatever repository it is in. Fix: give the whole path, starting with / ($HOME/, not ~/, which is not expanded there)"],
                    "\(value): \(stored)")
        }
        // ~/ on the command line is the user's home.
        let tilde = try sandbox.sqlite().run(["--db", "~/tilde.db", "store"], input: Self.credential)
        #expect(tilde.exitCode == 0 && fileExists(sandbox.home + "/tilde.db"), "\(tilde)")
    }
}
