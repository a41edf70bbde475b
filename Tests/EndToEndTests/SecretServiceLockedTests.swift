import Foundation
import Testing

/// A keyring whose login collection is locked and cannot be unlocked, because no one can
/// see the prompt (no display): get stays silent, store and erase fail with one line, and
/// nothing in the collection is changed. Locking is global state, so every test has a
/// session bus and a gnome-keyring of its own.
@Suite struct SecretServiceLockedTests: InKeyringWorld {
    let world: KeyringWorld
    var helper: SecretServiceHelper { SecretServiceHelper(sandbox: sandbox, bus: session.bus, timeout: 20) }
    init(world: KeyringWorld) { self.world = world }

    static let alice = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")
    static let bob = wire("protocol=https", "host=example.com", "username=bob", "password=bob-secret")
    static let lookup = wire("protocol=https", "host=example.com")

    static func lookup(user: String) -> [UInt8] { wire("protocol=https", "host=example.com", "username=\(user)") }

    /// Alice and bob stored, then the collection locked (in place of InKeyringWorld's init).
    init() throws {
        self.init(world: try KeyringWorld())
        try helper.storeAll(Self.alice, Self.bob)
        try session.lockLoginCollection()
        #expect(try secretTool.lookup(["server": "example.com"]) == nil, "the collection did not lock")
    }

    /// After unlocking (a restart of the daemon with the password), both items are as stored.
    func expectBothItemsUnchanged(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try session.restartKeyring()
        #expect(try helper.password(for: Self.lookup(user: "alice")) == "alice-secret", sourceLocation: sourceLocation)
        #expect(try helper.password(for: Self.lookup(user: "bob")) == "bob-secret", sourceLocation: sourceLocation)
        #expect(try secretTool.items(["server": "example.com"]).count == 2, sourceLocation: sourceLocation)
    }

    @Test func getPrintsNothingAndAtMostOneLine() throws {
        for request in [Self.lookup, Self.lookup(user: "alice"), wire("protocol=https", "host=new.example")] {
            let result = try helper.get(request)
            #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderrLines.count <= 1, "\(result)")
        }
    }

    @Test func storeFailsAndOverwritesNothing() throws {
        let tally = ReliabilityTally(part: ReliabilityFaultTests.part)
        defer { tally.record() }
        let replacing = wire("protocol=https", "host=example.com", "username=alice", "password=alice-new")
        let adding = wire("protocol=https", "host=new.example", "username=carol", "password=carol-secret")
        for credential in [replacing, adding] {
            tally.count(expectOneLineFailure(try helper.store(credential), exitCode: 1, mentioning: ["Fix:"]))
        }
        try expectBothItemsUnchanged()
        expectSilentMiss(try helper.get(wire("protocol=https", "host=new.example")))
    }

    @Test func eraseFailsAndDeletesNothing() throws {
        let tally = ReliabilityTally(part: ReliabilityFaultTests.part)
        defer { tally.record() }
        let requests = [Self.alice, Self.lookup(user: "bob"), Self.lookup,
                        wire("protocol=https", "host=example.com", "password=bob-secret")]
        for request in requests {
            tally.count(expectOneLineFailure(try helper.erase(request), exitCode: 1, mentioning: ["Fix:"]))
        }
        // Locked items still show their attributes (not their secrets) to a search.
        #expect(try secretTool.items(["server": "example.com"]).count == 2)
        try expectBothItemsUnchanged()
    }
}

/// A locked collection whose unlock prompt is shown where no one answers it (a locked
/// screen, a desktop left logged in while its user works over SSH): the helper gives up
/// within seconds, as when no prompt can be shown, and leaves the keyring daemon running
/// (stopping it would lock every collection and lose the login session's unlock).
@Suite struct SecretServiceUnansweredPromptTests {
    static let alice = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")

    @Test(arguments: ["get", "store", "erase"])
    func theHelperGivesUpAndTheKeyringDaemonKeepsRunning(action: String) throws {
        let sandbox = try Sandbox()
        let session = try PrivateSessionBus(sandbox: sandbox, services: .unansweredPrompter)
        try session.startKeyring()
        let helper = SecretServiceHelper(sandbox: sandbox, bus: session.bus, timeout: 30)
        try helper.storeAll(Self.alice)
        try session.lockLoginCollection()

        let start = Date()
        let result = try helper(action, input: Self.alice)
        // It gives up after 5 s; D-Bus's own time-out is 25 s. 15 leaves room for a loaded machine.
        #expect(Date().timeIntervalSince(start) < 15, "gave up only after \(Date().timeIntervalSince(start)) s: \(result)")
        if action == "get" {
            #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderrLines.count <= 1, "\(result)")
        } else {
            expectOneLineFailure(result, exitCode: 1, mentioning: ["Fix:"])
        }
        usleep(300_000)  // the daemon, if it is going to die of it, does so at once
        #expect(try session.secretServiceOwner() == session.keyring,
                "the keyring daemon stopped after the helper gave up on its prompt")
    }
}
