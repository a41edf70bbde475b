import Foundation
import Testing

/// What a store asks of the Secret Service, counted on the bus: each call is a round trip
/// to the daemon, and git runs a store after every authenticated fetch or push.
@Suite struct SecretServiceCallsTests {
    static let methods = ["SearchItems", "GetSecrets", "ReadAlias", "CreateItem", "Delete"]

    /// One search serves both the check for an unchanged item and the replace; the secret
    /// of the newest item is fetched only when it is the same user's (only then can the
    /// store be needless); the item is created on the default collection's alias.
    @Test func aStoreSearchesOnceAndFetchesOnlyASecretItCompares() throws {
        // A bus of its own: on the shared one, other tests' calls were counted too.
        let world = try KeyringWorld(), sandbox = world.sandbox, bus = world.session.bus
        let helper = world.secretService, tool = world.secretTool
        let host = "calls-\(UUID().uuidString.prefix(8)).example.com"
        defer { _ = try? helper.erase(wire("protocol=https", "host=\(host)")) }
        expectSuccess(try helper.store(wire("protocol=https", "host=\(host)", "username=alice", "password=pw-alice")))

        func calls(_ store: [UInt8]) throws -> [String: Int] {
            let monitor = try SecretRequests(sandbox: sandbox, bus: bus, methods: Self.methods)
            expectSuccess(try helper.store(store))
            return try monitor.stopCountingCalls()
        }
        // SearchItems twice: once for each of git's schemas (ItemLayout.schemas), so that
        // other programs' items with the same attributes are never described.
        let anotherUser = try calls(wire("protocol=https", "host=\(host)", "username=bob", "password=pw-bob"))
        #expect(anotherUser == ["SearchItems": 2, "CreateItem": 1], "\(anotherUser)")
        // bob's is the newest: alice's new password is stored without reading her old one.
        let notNewest = try calls(wire("protocol=https", "host=\(host)", "username=alice", "password=pw-changed"))
        #expect(notNewest == ["SearchItems": 2, "CreateItem": 1, "Delete": 1], "\(notNewest)")
        // Now hers is: compared (if it is in the default collection: ReadAlias), then
        // replaced, or left alone.
        let replaced = try calls(wire("protocol=https", "host=\(host)", "username=alice", "password=pw-new"))
        #expect(replaced == ["SearchItems": 2, "ReadAlias": 1, "GetSecrets": 1, "CreateItem": 1, "Delete": 1], "\(replaced)")
        let unchanged = try calls(wire("protocol=https", "host=\(host)", "username=alice", "password=pw-new"))
        #expect(unchanged == ["SearchItems": 2, "ReadAlias": 1, "GetSecrets": 1], "\(unchanged)")

        // Nothing lost: both users, the new password, each item of git's schema, one each.
        #expect(try helper.get(wire("protocol=https", "host=\(host)", "username=alice")).attributes["password"] == "pw-new")
        #expect(try helper.get(wire("protocol=https", "host=\(host)", "username=bob")).attributes["password"] == "pw-bob")
        #expect(try tool.itemNumbers(["xdg:schema": "org.git.Password", "server": host]).count == 2)
        #expect(try tool.itemNumbers(["server": host]).count == 2)
    }

    /// libsecret's connection (secret_service_get_sync) made nine bus calls before the
    /// first of ours: three AddMatch, GetNameOwner thrice, StartServiceByName and the
    /// service's properties. Ours asks who owns the name, and starts the keyring by D-Bus
    /// activation only when no one does, as a desktop's first client of the day needs;
    /// then whose process that owner is (GetConnectionUnixUser: another user's keyring is
    /// never sent anything, see SecretServiceForeignBusTests).
    @Test func connectingAsksTheBusOnceAndStartsAKeyringThatIsNotRunning() throws {
        let sandbox = try Sandbox(), session = try PrivateSessionBus(sandbox: sandbox, services: .desktop)
        let helper = SecretServiceHelper(sandbox: sandbox, bus: session.bus)
        #expect(try session.secretServiceOwner() == nil)
        let first = try SecretRequests(sandbox: sandbox, bus: session.bus, methods: ["StartServiceByName"])
        let started = try helper.get(wire("protocol=https", "host=example.com"))
        #expect(started.exitCode == 0 && started.stdout.isEmpty && started.stderr.isEmpty, "\(started)")
        #expect(try first.stopCountingCalls() == ["StartServiceByName": 1])
        try session.adoptStartedKeyring()

        let monitor = try SecretRequests(sandbox: sandbox, bus: session.bus, methods: nil)
        let get = try helper.get(wire("protocol=https", "host=example.com"))
        let counts = try monitor.stopCountingCalls()
        #expect(get.exitCode == 0 && get.stdout.isEmpty, "\(get)")
        // GDBus's proxy still watches its name's owner (one AddMatch, and the RemoveMatch
        // of its end, if that is sent before the helper exits); nothing was found, so no
        // session is opened.
        #expect(counts.filter { $0.key != "RemoveMatch" } == ["Hello": 1, "GetNameOwner": 1, "GetConnectionUnixUser": 1, "AddMatch": 1,
                                                              "SearchItems": 2]
                && (counts["RemoveMatch"] ?? 0) <= 1, "\(counts)")
    }

    /// New-user finding (stop 20): with 5,000 items, list, export and erase-all failed
    /// after 5 s ("no answer"), though the keyring answered all along. libsecret's search
    /// made an item proxy for each item found, six bus calls each, two of them AddMatch,
    /// whose rules the bus daemon then checks every message against: a search grew with
    /// the square of the items. Now a search reads the paths, then one GetAll per item.
    @Test func aListAsksOneCallPerItem() throws {
        let world = try KeyringWorld(), sandbox = world.sandbox, session = world.session
        let helper = world.secretService
        let lines = (0..<40).map { "https://user\($0):pw\($0)@host\($0).example.com\n" }.joined()
        let file = try sandbox.file("many.gitcred", lines, mode: 0o600)
        let imported = try helper("import", file)
        #expect(imported.exitCode == 0, "\(imported)")
        let monitor = try SecretRequests(sandbox: sandbox, bus: session.bus, methods: nil)
        let list = try helper("list")
        let counts = try monitor.stopCountingCalls()
        #expect(list.exitCode == 0 && list.stdoutLines.count == 41, "\(list)")
        // One GetAll per item (none of the service itself: see connectingAsks…).
        #expect(counts["GetAll"] == 40 && counts["SearchItems"] == 2 && counts["GetSecrets"] == 1, "\(counts)")
        #expect((counts["AddMatch"] ?? 0) + (counts["RemoveMatch"] ?? 0) + (counts["GetNameOwner"] ?? 0) < 10, "\(counts)")

        // A host is looked up by attribute: its items only, as erase HOST does.
        for arguments in [["list", "host7.example.com"], ["erase", "host8.example.com"]] {
            let monitor = try SecretRequests(sandbox: sandbox, bus: session.bus, methods: ["GetAll"])
            let result = try helper.invoke(arguments, input: [])
            let counts = try monitor.stopCountingCalls()
            #expect(result.exitCode == 0 && (counts["GetAll"] ?? 0) <= 3, "\(arguments): \(counts) \(result)")
        }
        #expect(try helper("list", "host7.example.com").stdoutLines.count == 2)

        // Attack finding (stop 20): another program's items with git's attributes, but not
        // its schema, were each described (GetAll) on every get: 3,000 took a get 5.8 s.
        let tool = SecretTool(sandbox: sandbox, bus: session.bus)
        for index in 0..<30 {
            try tool.store(label: "other \(index)", secret: "s", schema: "org.example.Other",
                           ["protocol": "https", "server": "host3.example.com", "user": "u\(index)"])
        }
        let monitor2 = try SecretRequests(sandbox: sandbox, bus: session.bus, methods: ["GetAll"])
        let get = try helper.get(wire("protocol=https", "host=host3.example.com"))
        let described = try monitor2.stopCountingCalls()
        #expect(get.attributes["password"] == "pw3" && (described["GetAll"] ?? 0) <= 2, "\(described) \(get)")
        #expect(try helper("list", "host8.example.com").stdoutLines.isEmpty)
    }
}

extension SecretRequests {
    /// Stops the monitor; how many calls of each method it saw.
    func stopCountingCalls() throws -> [String: Int] {
        let text = stopAndRead()
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("method call") {
            guard let member = line.components(separatedBy: "member=").last else { continue }
            counts[member.trimmingCharacters(in: .whitespaces), default: 0] += 1
        }
        return counts
    }
}
