import Foundation
import Testing

/// Items of git's own schema (org.git.Password) that another program wrote with data git
/// never writes: a port that is no number, a host with a line break or a format
/// character, a protocol that is no URL scheme, a user with a line break, a huge secret,
/// a secret text with extra `key=value` lines. Nothing crashes, nothing hangs, no field
/// is forged into an answer, a listing or an export, and each item takes one line at
/// most. On a keyring of the test's own (exports and listings show every item).
@Suite struct SecretServiceHostileItemsTests: InKeyringWorld {
    let world: KeyringWorld
    var helper: SecretServiceHelper { secretService }

    static let host = "hostile.example"

    /// An item of git's schema, as another program may write it.
    func storeGits(_ attributes: [String: String], secret: [UInt8], label: String = "written by another program") throws {
        try clients.raw(schema: "org.git.Password", label: label, attributes, secret: secret)
    }

    func storeGits(_ attributes: [String: String], secret: String) throws {
        try storeGits(attributes, secret: Array(secret.utf8))
    }

    /// The lines of list and of both plaintext exports: one per item, and no export line
    /// forged (list shows every value, escaped, in its column).
    func expectOneLineEach(items: Int, notContaining forged: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let listed = try helper.list()
        #expect(listed.exitCode == 0 && listed.stdoutLines.count == items + 1, "\(listed)", sourceLocation: sourceLocation)
        let store = try helper("export", "--plaintext")
        #expect(store.exitCode == 0 && store.stdoutLines.count <= items, "\(store)", sourceLocation: sourceLocation)
        let records = try helper("export", "--plaintext", "--format", "protocol")
        #expect(records.exitCode == 0, "\(records)", sourceLocation: sourceLocation)
        for result in [store, records] {
            for text in forged {
                #expect(!result.stdoutLines.contains { $0.hasPrefix(text) }, "a line starts with \(text): \(result)",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// An item of the older schema that other programs share is git's only when it meets
    /// every part of the rule: git's label for its attributes, nothing but git's
    /// attributes, a protocol git uses. Each of these misses one part and is left alone.
    @Test func anItemOfTheSharedSchemaIsGitsOnlyByTheWholeRule() throws {
        let network = "org.gnome.keyring.NetworkPassword"
        let host = Self.host
        let nearMisses: [(label: String, attributes: [String: String])] = [
            ("Git: smb://\(host)/share", ["protocol": "smb", "server": host, "object": "share", "user": "alice"]),
            ("Git: https://\(host)/", ["protocol": "https", "server": host, "user": "alice", "domain": "CORP"]),
            ("Git: https://\(host)/", ["protocol": "https", "server": host, "port": "8443", "user": "alice"]),
            ("Git: https://\(host):8443/", ["protocol": "https", "server": host, "user": "alice"]),
            ("git: https://\(host)/", ["protocol": "https", "server": host, "user": "alice"]),
            ("Git: https://\(host)/ ", ["protocol": "https", "server": host, "user": "alice"]),
            ("alice@\(host)", ["protocol": "https", "server": host, "user": "alice"]),
        ]
        for (index, miss) in nearMisses.enumerated() {
            try clients.raw(schema: network, label: miss.label, miss.attributes.merging(["user": "user\(index)"]) { $1 },
                            secret: Array("their-secret-\(index)".utf8))
        }
        try clients.raw(schema: network, label: "Git: https://\(host)/", ["protocol": "https", "server": host, "user": "git"],
                        secret: Array("git-secret".utf8))
        let listed = try helper.list()
        #expect(listed.stdoutLines.count == 2 && listed.stdoutLines[1].contains(" git "), "\(listed)")
        #expect(try helper.get(wire("protocol=https", "host=\(host)")).stdoutLines == ["username=git", "password=git-secret"])
        let erased = try helper("erase-all", "--yes")
        #expect(erased.stderrText == "erased 1 credential\n", "\(erased)")
        let left = try SecretTool(sandbox: sandbox, bus: session.bus).items(["xdg:schema": network])
        #expect(left.count == nearMisses.count, "\(left)")
    }

    /// git's helper never writes such a port; the item matches no request (no wildcard
    /// for the host without a port) and is listed as it is.
    @Test func aPortThatIsNoNumberMatchesNothing() throws {
        try storeGits(["protocol": "https", "server": Self.host, "port": "abc", "user": "alice"], secret: "odd-port-secret")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(Self.host)")))
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(Self.host):abc")))
        let listed = try helper.list()
        #expect(listed.stdoutLines.count == 2 && listed.stdoutLines[1].contains("\(Self.host):abc"), "\(listed)")
        try expectOneLineEach(items: 1, notContaining: [])
    }

    @Test(arguments: ["\n", "\r", "\u{202E}", "\u{1B}[2K"])
    func aHostWithALineBreakOrFormatCharacterTakesOneLine(odd: String) throws {
        try storeGits(["protocol": "https", "server": Self.host + odd + "username=mallory", "user": "alice"], secret: "pw")
        try storeGits(["protocol": "https", "server": "git.example", "user": "bob"], secret: "bob-secret")
        try expectOneLineEach(items: 2, notContaining: ["username=mallory"])
        #expect(try helper.password(for: wire("protocol=https", "host=git.example")) == "bob-secret")
    }

    /// The git-credential-store format writes the protocol as it is: a protocol that is no
    /// URL scheme would put a line of its own choosing in the export.
    @Test func aProtocolThatIsNoSchemeForgesNoExportLine() throws {
        try storeGits(["protocol": "https://mallory:forged@evil.example\nhttps", "server": Self.host, "user": "alice"], secret: "pw")
        try storeGits(["protocol": "https", "server": "git.example", "user": "bob"], secret: "bob-secret")
        let exported = try helper("export", "--plaintext")
        #expect(exported.exitCode == 0, "\(exported)")
        #expect(exported.stdoutLines == ["https://bob:bob-secret@git.example"], "\(exported)")
        #expect(exported.stderrText.contains("left out 1"), "\(exported)")
        try expectOneLineEach(items: 2, notContaining: ["https://mallory"])
    }

    /// A user with a line break cannot be answered whole: no answer at all (a password
    /// without its username would be used with whatever username git has), never a split line.
    @Test func aUserWithALineBreakForgesNoField() throws {
        try storeGits(["protocol": "https", "server": Self.host, "user": "alice\npassword=forged"], secret: "pw")
        let found = try helper.get(wire("protocol=https", "host=\(Self.host)"))
        expectSuccess(found)
        #expect(found.stdoutLines == [], "\(found)")
        try expectOneLineEach(items: 1, notContaining: ["password=forged"])
    }

    /// Lines of the secret text other than git's own fields are ignored.
    @Test func extraLinesInTheSecretTextForgeNoField() throws {
        try storeGits(["protocol": "https", "server": Self.host, "user": "alice"],
                      secret: "pw\nusername=mallory\nhost=evil.example\nprotocol=http\npassword=forged\nwwwauth[]=Basic\nauthtypeX=Bearer")
        let found = try helper.get(wire("protocol=https", "host=\(Self.host)"))
        #expect(found.exitCode == 0 && found.stdoutLines == ["username=alice", "password=pw"], "\(found)")
        try expectOneLineEach(items: 1, notContaining: ["username=mallory", "host=evil.example", "password=forged"])
    }

    /// An expiry is read as every store reads one (StoredExpiry): canonical digits are that
    /// time; anything else (a space or sign git's strtoumax would skip, a blank, junk, a
    /// leading zero, 0, more than 64 bits) is expired, so its password is never answered,
    /// though git would have read ` 1` as long expired and `junk` as never. Listed expired,
    /// and a refresh token still goes to git (with an expiry git reads as expired).
    @Test(arguments: [" 1", "+4102444800", "-1", "", " ", "junk", "4102444800x", "04102444800", "0",
                      "18446744073709551616", "4102444800\r"])
    func anExpiryThatIsNotCanonicalIsExpired(expiry: String) throws {
        try storeGits(["protocol": "https", "server": Self.host, "user": "alice"], secret: "pw\npassword_expiry_utc=\(expiry)")
        try storeGits(["protocol": "https", "server": "token.example", "user": "bob"],
                      secret: "pw2\npassword_expiry_utc=\(expiry)\noauth_refresh_token=refresh-2")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(Self.host)")))
        let refresh = try helper.get(wire("protocol=https", "host=token.example"))
        #expect(refresh.exitCode == 0 && refresh.stdoutLines == ["username=bob", "password_expiry_utc=1", "oauth_refresh_token=refresh-2"],
                "\(refresh)")
        let listed = try helper.list()
        #expect(listed.stdoutLines.count == 3 && listed.stdoutLines.dropFirst().allSatisfy { $0.contains("1970-01-01 00:00 UTC (expired)") },
                "\(listed)")
        let exported = try helper("export", "--plaintext", "--format", "protocol")
        // An export keeps them expired for whoever imports it (git's reading of 1 is ours).
        #expect(exported.exitCode == 0 && exported.stdoutLines.filter { $0.hasPrefix("password_expiry_utc=") }
                == ["password_expiry_utc=1", "password_expiry_utc=1"], "\(exported)")
    }

    /// The expiry we write, and git's helper writes, is answered as it is.
    @Test func aCanonicalExpiryIsThatTime() throws {
        try storeGits(["protocol": "https", "server": Self.host, "user": "alice"], secret: "pw\npassword_expiry_utc=4102444800")
        #expect(try helper.get(wire("protocol=https", "host=\(Self.host)")).stdoutLines
                == ["username=alice", "password=pw", "password_expiry_utc=4102444800"])
        #expect(try helper.list().stdoutLines.last?.contains("2100-01-01 00:00 UTC") == true)
    }

    /// A secret text that gives one of git's fields twice says two things (the last line
    /// would win in a lenient reader, the first in another): the item is no answer at all,
    /// as one with a line break in a field, not even a refresh answer; it is listed (as
    /// expired) and left out of a plaintext export, and the other items are answered.
    @Test(arguments: ["password_expiry_utc=4102444800\npassword_expiry_utc=1",
                      "password_expiry_utc=1\npassword_expiry_utc=4102444800",
                      "oauth_refresh_token=first\noauth_refresh_token=second",
                      "password_expiry_utc=1\noauth_refresh_token=first\noauth_refresh_token=second",
                      "authtype=Bearer\ncredential=a\ncredential=b"])
    func aFieldGivenTwiceIsNoAnswer(lines: String) throws {
        try storeGits(["protocol": "https", "server": Self.host, "user": "alice"], secret: "pw\n" + lines)
        try storeGits(["protocol": "https", "server": Self.host, "user": "bob"], secret: "bob-pw")
        let found = try helper.get(wire("protocol=https", "host=\(Self.host)", "username=alice"))
        expectSilentMiss(found)
        let capable = try helper.get(wire("capability[]=authtype", "protocol=https", "host=\(Self.host)", "username=alice"))
        expectSilentMiss(capable)
        #expect(try helper.password(for: wire("protocol=https", "host=\(Self.host)", "username=bob")) == "bob-pw")
        let listed = try helper.list()
        #expect(listed.stdoutLines.count == 3 && listed.stdoutLines.contains { $0.contains(" alice ") && $0.contains("(expired)") },
                "\(listed)")
        let exported = try helper("export", "--plaintext")
        #expect(exported.exitCode == 0 && exported.stdoutLines == ["https://bob:bob-pw@\(Self.host)"], "\(exported)")
        #expect(exported.stderrText.contains("left out 1"), "\(exported)")
        try expectOneLineEach(items: 2, notContaining: ["password=pw", "oauth_refresh_token=", "credential="])
    }

    /// A secret of 4 MiB, and one with bytes that no line may hold: answered whole or
    /// left out, never split; list and export go on.
    @Test func aHugeOrBinarySecretIsAnsweredWholeOrNotAtAll() throws {
        let huge = String(repeating: "h", count: 4 << 20)
        try storeGits(["protocol": "https", "server": Self.host, "user": "alice"], secret: huge)
        try storeGits(["protocol": "https", "server": "binary.example", "user": "bob"], secret: [0x70, 0x00, 0x0D, 0x71])
        let found = try helper.get(wire("protocol=https", "host=\(Self.host)"))
        #expect(found.exitCode == 0 && found.stdoutLines == ["username=alice", "password=" + huge],
                "\(found.exitCode.map(String.init) ?? "signal") \(found.stdout.bytes.count) bytes \(found.stderrText)")
        let binary = try helper.get(wire("protocol=https", "host=binary.example"))
        #expect(binary.exitCode == 0 && binary.stdoutLines == [], "\(binary)")
        try expectOneLineEach(items: 2, notContaining: [])
    }
}
