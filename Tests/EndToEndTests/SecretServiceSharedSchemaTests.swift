import Foundation
import Testing

/// The older schema git's helper wrote (org.gnome.keyring.NetworkPassword) is shared with
/// GVFS, Dino, old browsers: its items are git's only by the whole rule (ItemLayout.isGits),
/// on each provider. KeePassXC shows fields of its own (Title, UserName, URL, Notes, Path,
/// Uuid) on every item: git's items must still be found there, and other programs' items
/// still left alone. On the providers' shared buses, on a host of the test's own
/// (SecretServiceOtherApplicationsTests has GVFS's, Dino's and others' items as they write
/// them, on each provider).
@Suite struct SecretServiceSharedSchemaTests {
    static let network = "org.gnome.keyring.NetworkPassword"

    /// Each misses one part of the rule: a protocol git does not use, an attribute git does
    /// not write, a label that is not git's for the attributes.
    @Test(arguments: SecretServiceProvider.allCases)
    func anItemIsGitsOnlyByTheWholeRule(provider: SecretServiceProvider) throws {
        let keyring = try SharedKeyring(provider)
        let clients = OtherKeyringClients(sandbox: keyring.sandbox, bus: keyring.bus)
        let host = keyring.names("shared.example")
        let nearMisses: [(label: String, attributes: [String: String])] = [
            ("Git: smb://\(host)/share", ["protocol": "smb", "server": host, "object": "share"]),
            ("Git: https://\(host)/", ["protocol": "https", "server": host, "domain": "CORP"]),
            ("Git: https://\(host)/", ["protocol": "https", "server": host, "port": "8443"]),
            ("Git: https://\(host):8443/", ["protocol": "https", "server": host]),
            ("alice@\(host)", ["protocol": "https", "server": host]),
        ]
        for (index, miss) in nearMisses.enumerated() {
            try clients.raw(schema: Self.network, label: miss.label, miss.attributes.merging(["user": "user\(index)"]) { $1 },
                            secret: Array("their-secret-\(index)".utf8))
        }
        try clients.git(schema: .network, protocol: "https", server: host, user: "git", secret: "git-secret")
        try expectOnlyGitsItem(keyring, host: host, others: nearMisses.count)
    }

    /// get, list and erase see git's one item on `host` and none of the `others`, which
    /// are all still there afterwards.
    func expectOnlyGitsItem(_ keyring: SharedKeyring, host: String, others: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try keyring.helper.get(wire("protocol=https", "host=\(host)"))
        #expect(got.exitCode == 0 && got.stdoutLines == ["username=git", "password=git-secret"], "\(got)", sourceLocation: sourceLocation)
        let listed = try keyring.helper("list", host)
        #expect(listed.exitCode == 0 && listed.stdoutLines.count == 2 && listed.stdoutLines.last?.contains(" git ") == true,
                "\(listed)", sourceLocation: sourceLocation)
        let erased = try keyring.helper("erase", host)
        #expect(erased.exitCode == 0, "\(erased)", sourceLocation: sourceLocation)
        let left = try keyring.secretTool.items(["server": host])
        #expect(left.count == others && !left.contains { $0.label?.hasPrefix("Git: https://\(host)/") == true && $0.attributes?["user"] == "git" },
                "\(left)", sourceLocation: sourceLocation)
        #expect(try keyring.secretTool.items(["server": host, "user": "git"]).isEmpty, "git's item was not erased", sourceLocation: sourceLocation)
    }
}
