/// The one matching rule of credential-protocol.md, used by every backend.
public enum MatchPurpose: Sendable {
    /// get: protocol, host (whole `host:port`), path, username.
    case lookup
    /// erase: the same, and the password and pre-encoded credential when the request has them.
    case erase
}

extension Credential {
    /// A stored item matches a request when every field the request *has* equals the
    /// stored field; fields the request lacks match anything. Exact bytes: no case
    /// folding, no port defaulting (`example.com` never matches `example.com:8443`).
    public func isMatched(by request: Credential, for purpose: MatchPurpose) -> Bool {
        func same(_ wanted: Value?, _ have: Value?) -> Bool { wanted == nil || wanted == have }
        guard same(request.protocol, `protocol`), same(request.host, host),
            same(request.path, path), same(request.username, username)
        else { return false }
        guard purpose == .erase else { return true }
        return same(request.password, password) && same(request.credential, credential)
    }

    /// store replaces the item with the same protocol, host, path and username.
    public func hasSameKey(as other: Credential) -> Bool {
        `protocol` == other.protocol && host == other.host && path == other.path
            && username == other.username
    }

    /// get needs protocol and (host or path); anything less would match too much.
    public var isCompleteLookup: Bool { `protocol` != nil && (host != nil || path != nil) }

    /// erase with none of the key fields erases nothing.
    public var hasAnyKeyField: Bool {
        `protocol` != nil || host != nil || path != nil || username != nil
    }

    /// What store needs: a location and either username+password or authtype+credential.
    public var isStorable: Bool {
        isCompleteLookup
            && ((username != nil && password != nil) || (authtype != nil && credential != nil))
    }
}
