import Foundation
import Testing

/// Items as git's contrib git-credential-libsecret lays them out, both ways: what it (or
/// any libsecret client) wrote is found, erased and replaced by git-credential-secretservice,
/// and what git-credential-secretservice writes is what libsecret clients expect. Items are
/// written and read with secret-tool, in the layout of newer git (schema org.git.Password)
/// and of older git (org.gnome.keyring.NetworkPassword, the same attribute names), on each
/// provider (SecretServiceProvider): KeePassXC adds attributes of its own to every item.
@Suite struct SecretServiceCompatibilityTests {
    static let schemas = CompatibilityCase.schemas
    static let providers = SecretServiceProvider.allCases

    @Test(arguments: providers, schemas)
    func theirItemsAreFound(provider: SecretServiceProvider, schema: String) throws {
        try CompatibilityCase(provider).theirItemsAreFound(schema: schema)
    }

    @Test(arguments: providers, schemas)
    func theirPortAndPathAttributesAreMatchedExactly(provider: SecretServiceProvider, schema: String) throws {
        try CompatibilityCase(provider).theirPortAndPathAttributesAreMatchedExactly(schema: schema)
    }

    @Test(arguments: providers, schemas)
    func theExpiryAndRefreshTokenInTheirSecretTextAreRead(provider: SecretServiceProvider, schema: String) throws {
        try CompatibilityCase(provider).theExpiryAndRefreshTokenInTheirSecretTextAreRead(schema: schema)
    }

    @Test(arguments: providers, schemas)
    func theirExpiredItemsAreWithheld(provider: SecretServiceProvider, schema: String) throws {
        try CompatibilityCase(provider).theirExpiredItemsAreWithheld(schema: schema)
    }

    @Test(arguments: providers, schemas)
    func eraseRemovesTheirItems(provider: SecretServiceProvider, schema: String) throws {
        try CompatibilityCase(provider).eraseRemovesTheirItems(schema: schema)
    }

    @Test(arguments: providers, schemas)
    func storeReplacesTheirItemForTheSameUser(provider: SecretServiceProvider, schema: String) throws {
        try CompatibilityCase(provider).storeReplacesTheirItemForTheSameUser(schema: schema)
    }

    @Test(arguments: providers)
    func ourItemHasTheirLayout(provider: SecretServiceProvider) throws {
        try CompatibilityCase(provider).ourItemHasTheirLayout()
    }

    @Test(arguments: providers)
    func ourItemWithPortPathExpiryAndTokenHasTheirLayout(provider: SecretServiceProvider) throws {
        try CompatibilityCase(provider).ourItemWithPortPathExpiryAndTokenHasTheirLayout()
    }

    @Test(arguments: providers)
    func aPreEncodedCredentialIsKeptInTheSecretText(provider: SecretServiceProvider) throws {
        try CompatibilityCase(provider).aPreEncodedCredentialIsKeptInTheSecretText()
    }

    @Test(arguments: providers)
    func ourItemsAreFoundByTheirAttributes(provider: SecretServiceProvider) throws {
        try CompatibilityCase(provider).ourItemsAreFoundByTheirAttributes()
    }
}

/// One test of SecretServiceCompatibilityTests on one provider's shared bus.
struct CompatibilityCase {
    let provider: SecretServiceProvider
    let keyring: SharedKeyring
    let helper: SecretServiceHelper
    let secretTool: SecretTool
    let host: String

    init(_ provider: SecretServiceProvider) throws {
        self.provider = provider
        keyring = try SharedKeyring(provider)
        helper = keyring.helper
        secretTool = keyring.secretTool
        host = keyring.names("example.com")
    }

    static let schemas = ["org.git.Password", "org.gnome.keyring.NetworkPassword"]
    static let ourSchema = "org.git.Password"

    /// An item as git-credential-libsecret writes it for `https://user@host[:port]/path`.
    func storeTheirs(schema: String, user: String = "alice", port: String? = nil, path: String? = nil,
                     secret: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var attributes = ["protocol": "https", "server": host, "user": user]
        attributes["port"] = port
        attributes["object"] = path
        let label = "Git: https://\(host)\(port.map { ":" + $0 } ?? "")/\(path ?? "")"
        try secretTool.store(label: label, secret: secret, schema: schema, attributes, sourceLocation: sourceLocation)
    }

    // MARK: Their items, our helper

    func theirItemsAreFound(schema: String) throws {
        try storeTheirs(schema: schema, secret: "their-secret")
        let result = try helper.get(wire("protocol=https", "host=\(host)"))
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=their-secret"])
        #expect(try helper.password(for: wire("protocol=https", "host=\(host)", "username=alice")) == "their-secret")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(host)", "username=bob")))
    }

    func theirPortAndPathAttributesAreMatchedExactly(schema: String) throws {
        try storeTheirs(schema: schema, user: "ci", port: "8443", path: "team/repo.git", secret: "repo-secret")
        #expect(try helper.get(wire("protocol=https", "host=\(host):8443", "path=team/repo.git")).stdoutLines
                == ["username=ci", "password=repo-secret"])
        #expect(try helper.password(for: wire("protocol=https", "host=\(host):8443")) == "repo-secret",
                "a request without a path matches any path")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(host)", "path=team/repo.git")))
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(host)")))
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(host):9443")))
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(host):8443", "path=team/other.git")))
    }

    /// Newer git-credential-libsecret keeps the expiry and refresh token in the secret text.
    func theExpiryAndRefreshTokenInTheirSecretTextAreRead(schema: String) throws {
        try storeTheirs(schema: schema, secret: "their-secret\npassword_expiry_utc=4102444800\noauth_refresh_token=their-token")
        #expect(try helper.get(wire("protocol=https", "host=\(host)")).stdoutLines
                == ["username=alice", "password=their-secret", "password_expiry_utc=4102444800", "oauth_refresh_token=their-token"])
    }

    func theirExpiredItemsAreWithheld(schema: String) throws {
        try storeTheirs(schema: schema, secret: "their-secret\npassword_expiry_utc=1000")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(host)")))
    }

    func eraseRemovesTheirItems(schema: String) throws {
        try storeTheirs(schema: schema, user: "alice", secret: "alice-secret")
        try storeTheirs(schema: schema, user: "bob", secret: "bob-secret")
        expectSuccess(try helper.erase(wire("protocol=https", "host=\(host)", "password=wrong")))
        #expect(try keyring.count(["server": host]) == 2)

        expectSuccess(try helper.erase(wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret")))
        #expect(try keyring.count(["server": host, "user": "alice"]) == 0)
        #expect(try secretTool.lookup(["server": host, "user": "bob"]) == "bob-secret")
    }

    /// A user switching from git-credential-libsecret: storing a new password replaces
    /// their item for that user, so no stale copy is left to be found later.
    func storeReplacesTheirItemForTheSameUser(schema: String) throws {
        try storeTheirs(schema: schema, user: "alice", secret: "old-secret")
        try storeTheirs(schema: schema, user: "bob", secret: "bob-secret")
        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=new-secret"))

        let alice = try secretTool.item(["server": host, "user": "alice"])
        #expect(alice?.schema == Self.ourSchema)
        #expect(try secretTool.lookup(["server": host, "user": "alice"]) == "new-secret")
        #expect(try secretTool.lookup(["server": host, "user": "bob"]) == "bob-secret", "another user's item was touched")
        #expect(try helper.password(for: wire("protocol=https", "host=\(host)", "username=alice")) == "new-secret")
    }

    // MARK: Our items, their view

    /// The item's attributes without the provider's own and the one of ours (when it was stored, in nanoseconds
    /// since 1970: it orders items stored in the same second), which must be there and be
    /// a time of this test's. Other clients search by subsets of git's: they never mind it.
    func theirAttributes(_ item: KeyringItem?, sourceLocation: SourceLocation = #_sourceLocation) -> [String: String]? {
        guard var attributes = item?.attributes else { return nil }
        // What the provider adds to every item: KeePassXC's entry fields, the Title the label.
        let added = provider.ownAttributes.compactMap { name in attributes.removeValue(forKey: name).map { (name, $0) } }
        #expect(added.map(\.0).sorted() == provider.ownAttributes.sorted(), "\(String(describing: item))", sourceLocation: sourceLocation)
        #expect(Dictionary(uniqueKeysWithValues: added)["Title"] == (provider == .keepassxc ? item?.label : nil), sourceLocation: sourceLocation)
        let stored = attributes.removeValue(forKey: "stored_ns").flatMap { UInt64($0) }.map { Double($0) / 1e9 }
        let now = Date().timeIntervalSince1970
        #expect(stored.map { $0 > now - 600 && $0 <= now } == true, "stored_ns: \(String(describing: item))",
                sourceLocation: sourceLocation)
        return attributes
    }

    func ourItemHasTheirLayout() throws {
        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret"))
        let item = try secretTool.item(["protocol": "https", "server": host, "user": "alice"])
        #expect(item?.schema == Self.ourSchema)
        #expect(item?.label == "Git: https://\(host)/")
        #expect(theirAttributes(item) == ["protocol": "https", "server": host, "user": "alice"])
        #expect(try secretTool.lookup(["protocol": "https", "server": host, "user": "alice"]) == "alice-secret")
    }

    func ourItemWithPortPathExpiryAndTokenHasTheirLayout() throws {
        try helper.storeAll(wire("protocol=https", "host=\(host):8443", "path=team/repo.git", "username=ci", "password=ci-secret",
                                 "password_expiry_utc=4102444800", "oauth_refresh_token=ci-token"))
        let attributes = ["protocol": "https", "server": host, "port": "8443", "object": "team/repo.git", "user": "ci"]
        let item = try secretTool.item(attributes)
        #expect(item?.schema == Self.ourSchema)
        #expect(item?.label == "Git: https://\(host):8443/team/repo.git")
        #expect(theirAttributes(item) == attributes)
        #expect(try secretTool.lookup(attributes) == "ci-secret\npassword_expiry_utc=4102444800\noauth_refresh_token=ci-token")
        #expect(try keyring.count(["server": "\(host):8443"]) == 0, "the port belongs in its own attribute")
    }

    /// authtype and credential are secrets: in the secret text, never in attributes.
    func aPreEncodedCredentialIsKeptInTheSecretText() throws {
        try helper.storeAll(wire("capability[]=authtype", "protocol=https", "host=\(host)", "username=alice",
                                 "password=alice-secret", "authtype=Bearer", "credential=token-123"))
        let attributes = ["protocol": "https", "server": host, "user": "alice"]
        #expect(theirAttributes(try secretTool.item(attributes)) == attributes)
        let secret = try #require(try secretTool.lookup(attributes))
        let lines = secret.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "alice-secret", "the password must come first, for other clients: \(secret.debugDescription)")
        #expect(Set(lines.dropFirst()) == ["authtype=Bearer", "credential=token-123"], "\(secret.debugDescription)")
    }

    func ourItemsAreFoundByTheirAttributes() throws {
        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret"),
                            wire("protocol=https", "host=\(host):8443", "username=alice", "password=port-secret"))
        #expect(try keyring.count(["server": host]) == 2)
        #expect(try secretTool.lookup(["xdg:schema": Self.ourSchema, "server": host, "port": "8443"]) == "port-secret")
        #expect(try keyring.count(["protocol": "https", "server": host, "user": "alice", "port": "8443"]) == 1)
    }
}
