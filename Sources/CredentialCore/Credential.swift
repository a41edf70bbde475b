/// A credential as the protocol describes it (credential-protocol.md, "Attributes").
///
/// An absent field (`nil`) and an empty one (`""`) are different things: `username=`
/// is an empty username, and matching treats only absent fields as wildcards.
public struct Credential: Equatable, Sendable {
    public var `protocol`: Value?
    public var host: Value?
    public var path: Value?
    public var username: Value?
    public var password: Value?
    /// Unix seconds; `nil` means the password does not expire (git: 0 or unparsable).
    public var passwordExpiryUTC: UInt64?
    public var oauthRefreshToken: Value?
    public var authtype: Value?
    public var credential: Value?
    /// Git still calls `store` for an ephemeral credential; a helper must not keep it.
    public var ephemeral = false
    public var capabilities: [Value] = []
    /// Read so that their content is never mistaken for other keys, then ignored:
    /// a storing helper keeps no multistage state and does not look at the server's headers.
    public var state: [Value] = []
    public var wwwauth: [Value] = []

    public init(
        protocol: Value? = nil, host: Value? = nil, path: Value? = nil,
        username: Value? = nil, password: Value? = nil, passwordExpiryUTC: UInt64? = nil,
        oauthRefreshToken: Value? = nil, authtype: Value? = nil, credential: Value? = nil
    ) {
        self.protocol = `protocol`
        self.host = host
        self.path = path
        self.username = username
        self.password = password
        self.passwordExpiryUTC = passwordExpiryUTC
        self.oauthRefreshToken = oauthRefreshToken
        self.authtype = authtype
        self.credential = credential
    }

    public func hasCapability(_ name: Value) -> Bool { capabilities.contains(name) }

    /// git discards a password whose expiry is before now; so do we.
    public func isExpired(now: UInt64) -> Bool {
        guard let expiry = passwordExpiryUTC else { return false }
        return expiry < now
    }

    /// Whether every field an answer to `get` carries can be written as one line. Only an
    /// item written by another program (a keyring item) can hold a line break or NUL, and
    /// such an item is no answer at all: an answer with its username left out would have
    /// git use the password with a username of its own choosing.
    public var isAnswerable: Bool {
        [username, password, oauthRefreshToken, authtype, credential].allSatisfy { $0?.isWritable ?? true }
    }

    /// Only what a store keeps: the key fields and the secrets, nothing of the request.
    public var storable: Credential {
        Credential(
            protocol: `protocol`, host: host, path: path, username: username,
            password: password, passwordExpiryUTC: passwordExpiryUTC,
            oauthRefreshToken: oauthRefreshToken, authtype: authtype, credential: credential)
    }

    /// The key fields only, for listing: never a secret.
    public var withoutSecrets: Credential {
        Credential(
            protocol: `protocol`, host: host, path: path, username: username,
            passwordExpiryUTC: passwordExpiryUTC, authtype: authtype)
    }
}
