/// What a backend provides for git's get, store and erase. Backends only find, replace
/// and remove; the protocol's rules (which requests count, expiry, ephemeral, capabilities)
/// live in `HelperActions`, and the matching rule in `Credential.isMatched(by:for:)`, which
/// backends call. The management commands need more of a store: `ManagedStore`.
public protocol CredentialStore {
    /// Every stored item the request matches, most recently stored first.
    func items(matching request: Credential, for purpose: MatchPurpose) throws -> [Credential]
    /// The newest item stored for `credential`'s protocol, host and path, where `replace`
    /// would store it: a store of exactly that item changes nothing (HelperActions.store).
    func newestItem(storedLike credential: Credential) throws -> Credential?
    /// Stores each credential, replacing the item with the same protocol, host, path and
    /// username; all or nothing where the backend has transactions (SQLite), else in order.
    func replace(with credentials: [Credential], progress: Progress?) throws
    /// Deletes every item the request matches for erase; returns how many.
    @discardableResult func remove(matching request: Credential) throws -> Int
    /// Where `get` looks, in order: it stops at the first that answers whole, so a later
    /// one is opened (or unlocked, or asks for a passphrase) only when the earlier ones
    /// cannot answer. One source, the whole store, unless a store says otherwise.
    var lookupSources: [LookupSource] { get }
}

/// What list, erase HOST, erase-all, export, import and completion need of a store besides.
public protocol ManagedStore: CredentialStore {
    /// Every stored item without its secrets, and the backend that holds it. Works on
    /// items that are locked.
    func list() throws -> [StoredItem]
    /// At least the listed items on `host` (any port, protocol, path or user), maybe more:
    /// the caller picks. A store that can look a host up (the Secret Service, by attribute)
    /// need not list everything; the others do.
    func list(host: String) throws -> [StoredItem]
    /// The hosts items are stored for, for TAB completion: quick, and never a prompt (a
    /// store whose names say their hosts reads only those).
    func storedHosts() throws -> [String]
    /// Every stored item with its secrets (for export); fails rather than leave one out.
    func all() throws -> [Credential]
    /// Every item, with its secrets, where `replace` writes: what an import compares with
    /// to say what it changes (a store of several writes to one of them).
    func allWhereReplaceWrites() throws -> [Credential]
    /// Deletes every item; returns how many.
    @discardableResult func removeAll() throws -> Int
    /// Items that others hold too, where an erase here erases them for everyone (a team's
    /// entries in a synced password store): erase-all leaves them unless asked. None in a
    /// store of one person's.
    func sharedItems() throws -> [StoredItem]
    /// Deletes every item but, unless `includingShared`, the `sharedItems`; returns how many.
    @discardableResult func removeAll(includingShared: Bool) throws -> Int
}

/// One place `get` looks: a store, or one backend of a store of several.
public struct LookupSource {
    /// For trace notes: "the keyring", "the SQLite store".
    public let name: String
    /// Every item there that the request matches for `get`, most recently stored first.
    public let items: (Credential) throws -> [Credential]
    /// The users of the matches `items` stopped before reading (pass reads newest first and
    /// stops at the first that answers), as the source knows them unread (an entry's name):
    /// the trace's note of which user was chosen counts them too (`noteChoice`).
    public let unreadUsers: (Credential) -> [Value?]

    public init(name: String, items: @escaping (Credential) throws -> [Credential],
                unreadUsers: @escaping (Credential) -> [Value?] = { _ in [] }) {
        self.name = name
        self.items = items
        self.unreadUsers = unreadUsers
    }
}

/// A listed item: the credential without secrets and where it is kept.
public struct StoredItem: Equatable, Sendable {
    public var backend: String
    public var credential: Credential
    /// Why it cannot be read (a broken or hostile entry of a synced store): `credential`
    /// is then what its name says it holds. It answers no get, and erase removes it.
    public var unreadable: String?
    /// The store said why in one line already (a key locked for all of them): list adds
    /// no note of its own for each entry.
    public var explained: Bool

    public init(backend: String, credential: Credential, unreadable: String? = nil, explained: Bool = false) {
        self.backend = backend
        self.credential = credential
        self.unreadable = unreadable
        self.explained = explained
    }
}

extension CredentialStore {
    public var lookupSources: [LookupSource] {
        [LookupSource(name: "the store") { try items(matching: $0, for: .lookup) }]
    }

    public func newestItem(storedLike credential: Credential) throws -> Credential? {
        try items(matching: Credential(protocol: credential.protocol, host: credential.host, path: credential.path), for: .lookup).first
    }

    public func replace(with credential: Credential) throws { try replace(with: [credential], progress: nil) }
    public func replace(with credentials: [Credential]) throws { try replace(with: credentials, progress: nil) }
}

extension ManagedStore {
    public func list(host: String) throws -> [StoredItem] { try list() }
    public func storedHosts() throws -> [String] { try list().compactMap { $0.credential.host?.text } }
    public func sharedItems() throws -> [StoredItem] { [] }
    @discardableResult public func removeAll(includingShared: Bool) throws -> Int { try removeAll() }
    public func allWhereReplaceWrites() throws -> [Credential] { try all() }
}

/// get, store and erase as the protocol defines them, on any store. Each opens the
/// store only when the request calls for it: a get with too little to match, an
/// ephemeral store or an erase naming nothing never touches (or creates, or unlocks) it.
public enum HelperActions {
    /// The item to answer `get` with, or `nil` (see `lookup`); nothing is looked up for a
    /// request without protocol and host (or path).
    public static func get(_ request: Credential, now: UInt64, from open: () throws -> CredentialStore?) throws -> Credential? {
        guard request.isCompleteLookup, let store = try open() else {
            if !request.isCompleteLookup { Trace.note("the request names no protocol and host (or path): nothing looked up") }
            return nil
        }
        return try lookup(request, now: now, in: store).answer
    }

    /// What `get` finds and where.
    public struct Lookup {
        /// The answer, if any: whole, or `Credential.refreshAnswer` of an expired token.
        public var answer: Credential?
        /// The name of the source that answered.
        public var source: String?
        /// Sources that could not be read now, each with why.
        public var passedOver: [(source: String, reason: String)] = []
    }

    /// The most recently stored match that has not expired, that the caller can use, and
    /// that can be answered whole, from the first of the store's sources that has one.
    /// Failing that, what git needs to refresh an expired token (`Credential.refreshAnswer`)
    /// if the newest expired match holds one. With several sources, one that cannot be read
    /// now (a locked store no one can unlock) is passed over with a trace note only:
    /// another source or git's next helper answers. Alone, its error is the caller's.
    public static func lookup(_ request: Credential, now: UInt64, in store: CredentialStore) throws -> Lookup {
        let sources = store.lookupSources
        var found = Lookup()
        for source in sources {
            let matches: [Credential]
            do { matches = try source.items(request) } catch let error as HelperError where error.kind == .unavailable && sources.count > 1 {
                Trace.note("passed over \(source.name), which cannot be read now: \(error.message)")
                found.passedOver.append((source.name, error.message))
                continue
            }
            Trace.note(count(matches.count, "item") + " matched in \(source.name)")
            if let whole = matches.first(where: { $0.answersWhole(request, now: now) }) {
                noteChoice(whole, among: matches, unread: { source.unreadUsers(request) }, for: request, now: now)
                (found.answer, found.source) = (whole, source.name)
                return found
            }
            if found.answer == nil, let refresh = matches.first(where: { $0.isExpired(now: now) })?.refreshAnswer {
                (found.answer, found.source) = (refresh, source.name)
            }
        }
        if found.answer != nil { Trace.note("no match can be answered whole; the newest expired one holds a refresh token") }
        return found
    }

    /// Two accounts on one server (work and personal): a request without a username
    /// matches both, and the answer is a guess that git will reject, erasing it, when it
    /// was the other account's. The trace says which user answered, why, and what
    /// chooses the user instead.
    /// Only when tracing: the users a store did not read are found by walking its names.
    static func noteChoice(_ chosen: Credential, among matches: [Credential], unread: () -> [Value?] = { [] }, for request: Credential, now: UInt64) {
        guard Trace.isOn, request.username == nil else { return }
        var users: [Value?] = []
        for match in matches where match.answersWhole(request, now: now) && !users.contains(match.username) {
            users.append(match.username)
        }
        for user in unread() where !users.contains(user) { users.append(user) }
        guard users.count > 1 else { return }
        let place = (request.protocol.map { Trace.quoted($0.bytes) + "://" } ?? "") + (request.host.map { Trace.quoted($0.bytes) } ?? "")
            + (request.path.map { "/" + Trace.quoted($0.bytes) } ?? "")
        let user = chosen.username.map { Trace.quoted($0.bytes) } ?? "the item without a username"
        let why = chosen == matches.first ? "stored most recently" : "the most recently stored that can answer"
        Trace.note("\(users.count) users match \(place): chose \(user), \(why); the URL's username or credential.<url>.username chooses one")
    }

    /// Stores what the protocol says to store; silently nothing for an ephemeral,
    /// incomplete or already expired credential (git's own helpers do the same).
    public static func store(_ credential: Credential, now: UInt64, in open: () throws -> CredentialStore) throws {
        guard !credential.ephemeral, credential.isStorable, !credential.isExpired(now: now) else {
            Trace.note("stored nothing: the credential is " + (credential.ephemeral ? "ephemeral"
                : credential.isStorable ? "already expired" : "incomplete (protocol, host or path, and username and password or authtype and credential)"))
            return
        }
        let storable = credential.storable, store = try open()
        // git calls store after every successful use, mostly with what get answered: when
        // that is already the newest item a get would find, storing it again would change
        // nothing but the disk (and the keyring's modification times). An identical item
        // that is not the newest (another user of the host since) is stored again, so
        // that it becomes the newest, as git expects of a store. The look-up only saves a
        // write: when it fails (a locked item of another user), the store goes ahead.
        if (try? store.newestItem(storedLike: storable))?.storable == storable {
            Trace.note("stored nothing: " + Trace.describe(storable) + " is already the newest stored item for its host")
            return
        }
        try store.replace(with: storable)
        Trace.note("stored " + Trace.describe(storable))
    }

    /// Erases every match; nothing when the request names none of the key fields.
    /// Returns how many were erased.
    @discardableResult
    public static func erase(_ request: Credential, from open: () throws -> CredentialStore?) throws -> Int {
        guard request.hasAnyKeyField else {
            Trace.note("erased nothing: the request names no protocol, host, path or username")
            return 0
        }
        guard let store = try open() else { return 0 }
        let removed = try store.remove(matching: request)
        Trace.note("erased " + count(removed, "item"))
        return removed
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
