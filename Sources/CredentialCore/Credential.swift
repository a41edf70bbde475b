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

    /// Whether `get` can answer `request` with this item as it is: not expired, every
    /// field writable, and a secret the caller can use (a password, or a credential under
    /// `capability[]=authtype`).
    public func answersWhole(_ request: Credential, now: UInt64) -> Bool {
        isAnswerable && !isExpired(now: now)
            && (password != nil || (request.hasCapability(Capability.authtype) && credential != nil))
    }

    /// The answer for an expired item: `username`, `oauth_refresh_token` and the expiry,
    /// never the expired password or credential; `nil` without a refresh token. git 2.41
    /// and newer drop an expired answer's password and credential but keep its username
    /// and refresh token for the next helper (credential.c, credential_fill and
    /// credential_clear_secrets), which refreshes the token without a browser
    /// (git-credential-oauth). Older git ignores the refresh token and the expiry, keeps
    /// the username, and asks the next helper or the user for the password.
    public var refreshAnswer: Credential? {
        guard oauthRefreshToken != nil else { return nil }
        let answer = Credential(protocol: `protocol`, host: host, path: path, username: username,
                                passwordExpiryUTC: passwordExpiryUTC, oauthRefreshToken: oauthRefreshToken)
        return answer.isAnswerable ? answer : nil
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
