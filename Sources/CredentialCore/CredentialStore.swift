/// What a backend provides. Backends only find, replace and remove; the protocol's
/// rules (which requests count, expiry, ephemeral, capabilities) live in `HelperActions`,
/// and the matching rule in `Credential.isMatched(by:for:)`, which backends call.
public protocol CredentialStore {
    /// Every stored item the request matches, most recently stored first.
    func items(matching request: Credential, for purpose: MatchPurpose) throws -> [Credential]
    /// Stores each credential, replacing the item with the same protocol, host, path and
    /// username; all or nothing.
    func replace(with credentials: [Credential]) throws
    /// Deletes every item the request matches for erase; returns how many.
    @discardableResult func remove(matching request: Credential) throws -> Int
    /// Every stored item without its secrets.
    func list() throws -> [Credential]
}

extension CredentialStore {
    public func replace(with credential: Credential) throws { try replace(with: [credential]) }
}

/// get, store and erase as the protocol defines them, on any store. Each opens the
/// store only when the request calls for it: a get with too little to match, an
/// ephemeral store or an erase naming nothing never touches (or creates, or unlocks) it.
public enum HelperActions {
    /// The item to answer `get` with, or `nil`: the most recently stored match that has
    /// not expired and that the caller can use.
    public static func get(_ request: Credential, now: UInt64, from open: () throws -> CredentialStore?) throws -> Credential? {
        guard request.isCompleteLookup, let store = try open() else {
            if !request.isCompleteLookup { Trace.note("the request names no protocol and host (or path): nothing looked up") }
            return nil
        }
        let wantsAuthtype = request.hasCapability(Capability.authtype)
        let matches = try store.items(matching: request, for: .lookup)
        Trace.note(count(matches.count, "item") + " matched")
        return matches.first { item in
            !item.isExpired(now: now) && (item.password != nil || (wantsAuthtype && item.credential != nil))
        }
    }

    /// Stores what the protocol says to store; silently nothing for an ephemeral,
    /// incomplete or already expired credential (git's own helpers do the same).
    public static func store(_ credential: Credential, now: UInt64, in open: () throws -> CredentialStore) throws {
        guard !credential.ephemeral, credential.isStorable, !credential.isExpired(now: now) else {
            Trace.note("stored nothing: the credential is " + (credential.ephemeral ? "ephemeral"
                : credential.isStorable ? "already expired" : "incomplete (protocol, host or path, and username and password or authtype and credential)"))
            return
        }
        try open().replace(with: credential.storable)
        Trace.note("stored " + Trace.describe(credential.storable))
    }

    /// Erases every match; nothing when the request names none of the key fields.
    public static func erase(_ request: Credential, from open: () throws -> CredentialStore?) throws {
        guard request.hasAnyKeyField else {
            Trace.note("erased nothing: the request names no protocol, host, path or username")
            return
        }
        guard let store = try open() else { return }
        let removed = try store.remove(matching: request)
        Trace.note("erased " + count(removed, "item"))
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
