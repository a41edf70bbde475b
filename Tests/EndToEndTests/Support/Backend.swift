import Foundation
import Testing

/// The helpers that the tests holding for every backend run; git-credential-secretservice
/// against each Secret Service provider (gnome-keyring, KeePassXC).
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite = "git-credential-sqlite"
    case secretService = "git-credential-secretservice"
    case secretServiceOnKeePassXC = "git-credential-secretservice on KeePassXC"
    case pass = "git-credential-pass"

    var testDescription: String { rawValue }

    /// The Secret Service's provider, nil for the other backends.
    var provider: SecretServiceProvider? {
        switch self {
        case .secretService: .gnomeKeyring
        case .secretServiceOnKeePassXC: .keepassxc
        case .sqlite, .pass: nil
        }
    }

    /// The name in list's BACKEND column and in git config (credential.helper=NAME).
    var storeName: String {
        String(rawValue.dropFirst("git-credential-".count).prefix { $0 != " " })
    }
}

/// One test's world for a backend: the helper, run directly or by git with the same
/// options, and host names of the test's own (the Secret Service is one keyring for all
/// tests; its items on those names are removed when the world goes away).
final class BackendWorld {
    let sandbox: Sandbox
    /// The helper with the options of git's helper string.
    let helper: any CredentialHelper
    let git: GitCredential
    let names: UniqueNames
    /// The store of git-credential-sqlite (`--db` in the helper string).
    let database: String?
    private let keyring: SharedKeyring?
    /// git-credential-pass's password store and gpg key, the test's own.
    let passwordStore: PasswordStore?

    init(_ backend: Backend) throws {
        switch backend {
        case .sqlite:
            let sandbox = try Sandbox(), database = sandbox.root + "/git-store/credentials.db"
            self.sandbox = sandbox
            self.database = database
            helper = sandbox.sqlite(["--db", database])
            git = GitCredential(sandbox: sandbox, helper: "\(BuiltProducts.sqliteHelper) --db \(database)")
            names = UniqueNames()
            keyring = nil
            passwordStore = nil
        case .pass:
            let store = try PasswordStore()
            sandbox = store.sandbox
            database = nil
            helper = store.helper
            git = store.git
            names = UniqueNames()
            keyring = nil
            passwordStore = store
        case .secretService, .secretServiceOnKeePassXC:
            let keyring = try SharedKeyring(backend.provider!)
            sandbox = keyring.sandbox
            database = nil
            helper = keyring.helper
            git = GitCredential(sandbox: sandbox, helper: BuiltProducts.secretServiceHelper, environment: keyring.bus.environment)
            names = keyring.names
            self.keyring = keyring
            passwordStore = nil
        }
    }

    /// How many items the store holds on `host` (any user or path), or on any of the
    /// test's hosts when nil (git-credential-sqlite's store is the test's own: every item).
    func itemCount(host: String? = nil) throws -> Int {
        if let keyring {
            return try (host.map { [$0] } ?? Array(names.hosts)).reduce(0) { try $0 + keyring.count(["server": $1]) }
        }
        // A header, then a row per item with the host in the second column.
        let rows = try helper.list().stdoutLines.dropFirst().map { $0.split(separator: " ").map(String.init) }
        return rows.filter { host == nil || $0.dropFirst().first == host }.count
    }

    /// Nothing was stored: git-credential-sqlite did not even create its store, and the
    /// keyring holds no item on the test's hosts.
    func expectNothingStored(sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let passwordStore {
            #expect(passwordStore.entryNames().isEmpty, "an entry was stored", sourceLocation: sourceLocation)
        } else if let database {
            let directory = (database as NSString).deletingLastPathComponent
            #expect(!fileExists(directory), "the store was created", sourceLocation: sourceLocation)
        } else {
            #expect(try itemCount() == 0, "an item was stored", sourceLocation: sourceLocation)
        }
    }
}
