import CredentialCore
import CredentialCrypto
import SQLiteStore
import SecretServiceStore

/// The store most people configure: the desktop keyring when it works, the encrypted
/// SQLite file otherwise, decided on every call by what actually works (not by
/// environment variables). `get` answers from the keyring when it can, else from the
/// SQLite store, so a credential stored over SSH is found later at the desktop; erase
/// and list cover both. Never plaintext: both are encrypted.
public final class KeyringStore: ManagedStore {
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
    /// Asked once per run: a store asks it twice (newestItem, then replace), and each
    /// answer costs the Secret Service a ReadAlias and a property load.
    public func choice() -> (backend: Backend, reason: String) {
        if let chosen { return chosen }
        guard let secretService else { return (.sqlite, secretServiceProblem ?? "no Secret Service") }
        let (writable, reason) = secretService.defaultCollectionWritability()
        chosen = writable ? (.secretservice, reason) : (.sqlite, reason)
        return chosen!
    }
    private var chosen: (backend: Backend, reason: String)?

    var sqlite: SQLiteCredentialStore? {
        get throws { try SQLiteCredentialStore.openExisting(sqliteLocation, passphrase: passphrase) }
    }

    // MARK: CredentialStore

    /// The keyring (with the SQLite store's newer items), then the SQLite store: the
    /// SQLite store asks for its passphrase only when the keyring has no answer. When
    /// there is no keyring, the SQLite store alone.
    public var lookupSources: [LookupSource] {
        let sqlite = LookupSource(name: sqliteName) { [self] request in try self.sqlite?.items(matching: request, for: .lookup) ?? [] }
        guard let secretService else { return [sqlite] }
        return [LookupSource(name: "the keyring") { [self] request in try self.newestOfBoth(secretService.datedItems(matching: request), for: request) }, sqlite]
    }

    var sqliteName: String { "the SQLite store \(sqliteLocation.database)" }

    /// The SQLite store's items that the last look-up put beside the keyring's.
    private var sqliteItemsAmongTheKeyrings: [Credential] = []

    /// Where an answer of the keyring's source came from, when that was the SQLite store
    /// (`which` names it); `nil` when the source's name says it.
    public func origin(of answer: Credential) -> String? {
        sqliteItemsAmongTheKeyrings.contains(answer) ? sqliteName : nil
    }

    /// The keyring's matches and the SQLite store's, newest first by `StoredTime` (the
    /// keyring's first on a tie): a password changed over SSH, where only the SQLite
    /// store could be written, must win over the old one the keyring still holds. The
    /// SQLite store is read here only when the keyring has an answer and it opens without
    /// asking; a record of an earlier release, whose time is not known, counts as oldest.
    func newestOfBoth(_ keyring: [(credential: Credential, stored: UInt64)], for request: Credential) -> [Credential] {
        guard let newestInKeyring = keyring.first?.stored else { return [] }
        let fromSQLite: [(credential: Credential, stored: UInt64?)]
        do { fromSQLite = try SQLiteCredentialStore.openWithoutAsking(sqliteLocation)?.datedItems(matching: request) ?? [] } catch {
            Trace.note("the keyring answers alone: the SQLite store cannot be read now: \((error as? HelperError)?.message ?? "\(error)")")
            return keyring.map(\.credential)
        }
        typealias Dated = (credential: Credential, stored: UInt64, inSQLite: Bool)
        let dated: [Dated] = keyring.map { ($0.credential, $0.stored, false) } + fromSQLite.map { ($0.credential, $0.stored ?? 0, true) }
        // Newest first; on a tie, the order above (the keyring's first).
        let both = dated.enumerated().sorted { ($0.element.stored, -$0.offset) > ($1.element.stored, -$1.offset) }.map(\.element)
        sqliteItemsAmongTheKeyrings = both.filter(\.inSQLite).map(\.credential)
        if let first = both.first, first.inSQLite {
            Trace.note("the SQLite store's item was stored after the keyring's newest (\(first.stored) > \(newestInKeyring), nanoseconds since 1970): it answers first")
        }
        return both.map(\.credential)
    }

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
    /// not make a store to this one needless. The SQLite store is opened once for both
    /// this look-up and the write (`storeTarget`): a passphrase is asked at most once, and
    /// git's store of what get answered, after every fetch, writes nothing (it rewrote the
    /// file durably, 5 fsyncs, where the SQLite helper itself wrote nothing).
    public func newestItem(storedLike credential: Credential) throws -> Credential? {
        switch choice().backend {
        case .secretservice: return try secretService!.newestItem(storedLike: credential)
        case .sqlite: return try storeTarget(creating: false)?.newestItem(storedLike: credential)
        }
    }

    public func replace(with credentials: [Credential], progress: Progress?) throws {
        let (backend, reason) = choice()
        Trace.note("storing in \(backend.rawValue): \(reason)")
        switch backend {
        case .secretservice: try secretService!.replace(with: credentials, progress: progress)
        case .sqlite: try storeTarget(creating: true)!.replace(with: credentials, progress: progress)
        }
    }

    /// The SQLite store a store writes to, opened once a run (nil: none yet, and not `creating`).
    private func storeTarget(creating: Bool) throws -> SQLiteCredentialStore? {
        if let opened = openedTarget { return opened }
        openedTarget = creating ? try SQLiteCredentialStore.openOrCreate(sqliteLocation, passphrase: passphrase) : try sqlite
        return openedTarget
    }
    private var openedTarget: SQLiteCredentialStore?

    /// Erases from both, even when one fails (a locked keyring, a locked passphrase store
    /// no one can unlock): a stale credential in the other must still go. The first
    /// failure is then reported, since what it holds may still be there.
    @discardableResult
    public func remove(matching request: Credential) throws -> Int {
        var removed = 0, failure: Error?
        do {
            let fromSQLite = try sqlite?.remove(matching: request) ?? 0
            Trace.note("erased \(fromSQLite) from the SQLite store")
            removed += fromSQLite
        } catch { failure = error }
        do { removed += try secretService?.remove(matching: request) ?? 0 } catch { failure = failure ?? error }
        if let failure { throw failure }
        return removed
    }

    public func list() throws -> [StoredItem] {
        try (secretService?.list() ?? []) + (sqlite?.list() ?? [])
    }

    public func list(host: String) throws -> [StoredItem] {
        try (secretService?.list(host: host) ?? []) + (sqlite?.list(host: host) ?? [])
    }

    /// The keyring's alone when new items go there: the SQLite store may hold the same
    /// credential, and an import that writes it to the keyring changes the keyring.
    public func allWhereReplaceWrites() throws -> [Credential] {
        switch choice().backend {
        case .secretservice: try secretService!.all()
        case .sqlite: try sqlite?.all() ?? []
        }
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
