import CredentialCore
import CredentialCrypto
import SQLiteStore
import SecretServiceStore

/// The store most people configure: the desktop keyring when it works, the encrypted
/// SQLite file otherwise, decided on every call by what actually works (not by
/// environment variables). Reads and erases both, the keyring first, so a credential
/// stored over SSH is found later at the desktop. Never plaintext: both are encrypted.
public final class KeyringStore: CredentialStore {
    public enum Backend: String, Sendable { case secretservice, sqlite }

    let secretService: SecretServiceStore?
    let secretServiceProblem: String?
    let sqliteLocation: StoreLocation
    let passphrase: PassphraseSource

    /// Connects to the Secret Service if it answers; the SQLite store opens when needed.
    public init(sqlite location: StoreLocation, passphrase: PassphraseSource) {
        sqliteLocation = location
        self.passphrase = passphrase
        do {
            secretService = try SecretServiceStore.connect()
            secretServiceProblem = nil
        } catch {
            secretService = nil
            secretServiceProblem = (error as? HelperError)?.message ?? "\(error)"
            Trace.note("no keyring: \(secretServiceProblem!)")
        }
    }

    /// Where a store would go now, and why, in one line's worth.
    public func choice() -> (backend: Backend, reason: String) {
        guard let secretService else { return (.sqlite, secretServiceProblem ?? "no Secret Service") }
        let (writable, reason) = secretService.defaultCollectionWritability()
        return writable ? (.secretservice, reason) : (.sqlite, reason)
    }

    var sqlite: SQLiteCredentialStore? {
        get throws { try SQLiteCredentialStore.openExisting(sqliteLocation, passphrase: passphrase) }
    }

    // MARK: CredentialStore

    public func items(matching request: Credential, for purpose: MatchPurpose) throws -> [Credential] {
        // A keyring that cannot be read now (locked, gone) is passed over, not an error:
        // the SQLite store may still have the answer.
        let fromKeyring: [Credential]
        do { fromKeyring = try secretService?.items(matching: request, for: purpose) ?? [] } catch {
            Trace.note("passed over the keyring, which cannot be read now: \((error as? HelperError)?.message ?? "\(error)")")
            fromKeyring = []
        }
        let fromSQLite = try sqlite?.items(matching: request, for: purpose) ?? []
        Trace.note("\(fromKeyring.count) from the keyring, \(fromSQLite.count) from the SQLite store")
        return fromKeyring + fromSQLite
    }

    /// In the backend a store would write to: an identical item in the other one does
    /// not make a store to this one needless. Not in the SQLite store: opening it here
    /// could ask for its passphrase, and `replace` opens it again.
    public func newestItem(storedLike credential: Credential) throws -> Credential? {
        guard choice().backend == .secretservice else { return nil }
        return try secretService!.newestItem(storedLike: credential)
    }

    public func replace(with credentials: [Credential], progress: Progress?) throws {
        let (backend, reason) = choice()
        Trace.note("storing in \(backend.rawValue): \(reason)")
        switch backend {
        case .secretservice: try secretService!.replace(with: credentials, progress: progress)
        case .sqlite: try SQLiteCredentialStore.openOrCreate(sqliteLocation, passphrase: passphrase).replace(with: credentials, progress: progress)
        }
    }

    /// Erases from both; the SQLite store first, so a locked keyring (an error) does not
    /// keep the other one from being cleaned.
    @discardableResult
    public func remove(matching request: Credential) throws -> Int {
        let removed = try sqlite?.remove(matching: request) ?? 0
        Trace.note("erased \(removed) from the SQLite store")
        return try removed + (secretService?.remove(matching: request) ?? 0)
    }

    public func list() throws -> [StoredItem] {
        try (secretService?.list() ?? []) + (sqlite?.list() ?? [])
    }

    public func all() throws -> [Credential] {
        try (secretService?.all() ?? []) + (sqlite?.all() ?? [])
    }

    /// Like erase: the SQLite store first.
    @discardableResult
    public func removeAll() throws -> Int {
        let removed = try sqlite?.removeAll() ?? 0
        return try removed + (secretService?.removeAll() ?? 0)
    }
}
