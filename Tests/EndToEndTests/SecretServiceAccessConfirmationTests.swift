import Foundation
import Testing

/// KeePassXC's default: before a client reads an item, a dialog on its screen asks whether
/// to allow it ("Confirm when passwords are retrieved by clients"); until then the item is
/// locked in an unlocked collection. With no one at that screen (the person works over SSH,
/// the screen is locked), the helpers said "the keyring is locked ... run secret-tool
/// lookup", which is untrue and does not help, and left the dialog open for someone to
/// answer later for nothing. Each test has a KeePassXC of its own, asking.
@Suite struct SecretServiceAccessConfirmationTests {
    let keepassxc: KeePassXC
    let sandbox: Sandbox
    let helper: SecretServiceHelper
    let host = "access-\(UUID().uuidString.prefix(8).lowercased()).example.com"

    init() throws {
        keepassxc = try KeePassXC(confirmAccess: true)
        sandbox = try Sandbox()
        helper = SecretServiceHelper(sandbox: sandbox, bus: keepassxc.bus)
        // Storing a new item asks nothing; reading one does.
        expectSuccess(try helper.store(wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret")))
    }

    /// The one line: what happened, and how to allow git in KeePassXC.
    func expectUnansweredConfirmation(_ result: ProcessResult, exitCode: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.exitCode == exitCode && result.stdout.isEmpty && result.stderrLines.count == 1,
                "\(result)", sourceLocation: sourceLocation)
        let line = result.stderrText
        for words in ["an access confirmation", "no one answered", "the question was dismissed", "Fix:",
                      "Tools > Settings > Secret Service Integration", "Confirm when passwords are retrieved by clients"] {
            #expect(line.contains(words), "\(words.debugDescription) missing: \(line)", sourceLocation: sourceLocation)
        }
        #expect(!line.contains("secret-tool lookup") && !line.contains("the keyring is locked"), "\(line)", sourceLocation: sourceLocation)
    }

    /// Every prompt the helper gave up on was dismissed, and KeePassXC took it back
    /// (Completed, dismissed): `runs` prompts, `runs` dismissals.
    func expectDismissed(_ monitor: SecretRequests, runs: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = monitor.stopAndRead()
        let calls = text.components(separatedBy: "member=Dismiss").count - 1
        let completed = text.components(separatedBy: "member=Completed").count - 1
        #expect(calls == runs, "Dismiss sent \(calls) times for \(runs) prompts: \(text)", sourceLocation: sourceLocation)
        #expect(completed == runs && text.contains("boolean true"),
                "KeePassXC did not take the prompts back: \(text)", sourceLocation: sourceLocation)
    }

    /// Nothing was lost: alice's item is still there, as stored (read once access is allowed).
    func expectAliceUnchanged(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let found = try SecretTool(sandbox: sandbox, bus: keepassxc.bus).items(["server": host])
        #expect(found.count == 1, "\(found)", sourceLocation: sourceLocation)
    }

    @Test func getSaysNoOneConfirmedAccessAndDismissesTheQuestion() throws {
        let monitor = try SecretRequests(sandbox: sandbox, bus: keepassxc.bus, methods: ["Dismiss"], signals: ["Completed"])
        // A get that cannot answer lets git ask the next helper: status 0, nothing on stdout.
        expectUnansweredConfirmation(try helper.get(wire("protocol=https", "host=\(host)")), exitCode: 0)
        expectDismissed(monitor, runs: 1)
        try expectAliceUnchanged()
    }

    @Test(arguments: ["store", "erase"])
    func storeAndEraseFailSayingSoAndChangeNothing(action: String) throws {
        let monitor = try SecretRequests(sandbox: sandbox, bus: keepassxc.bus, methods: ["Dismiss"], signals: ["Completed"])
        let result = try helper(action, input: wire("protocol=https", "host=\(host)", "username=alice", "password=alice-new"))
        expectUnansweredConfirmation(result, exitCode: 1)
        expectDismissed(monitor, runs: 1)
        try expectAliceUnchanged()
    }

    /// doctor's round trip reads only the item it just made, which KeePassXC lets a client
    /// do: it said all was ok while every get of alice's item (stored by another process)
    /// failed. It tells from alice's item's Locked property, for this client, with no
    /// dialog: nothing is asked to be unlocked (the call that shows KeePassXC's question),
    /// nothing dismissed (the round trip's create and delete prompts of its own item complete
    /// without a question), and the warning carries the get's Fix.
    @Test(arguments: ["secretservice", "keyring"])
    func doctorWarnsOfTheConfirmationWithoutAskingAtTheScreen(helperName: String) throws {
        let monitor = try SecretRequests(sandbox: sandbox, bus: keepassxc.bus, methods: ["Unlock", "Dismiss"])
        let doctor = helperName == "keyring"
            ? try KeyringHelper(sandbox: sandbox, environment: keepassxc.bus.environment)("doctor")
            : try helper("doctor")
        let calls = monitor.stopAndRead()
        #expect(!calls.contains("member=Unlock") && !calls.contains("member=Dismiss"), "doctor asked at the screen: \(calls)")
        #expect(doctor.stdoutText.contains("ok    round trip"), "\(doctor)")
        let warning = doctor.stdoutLines.filter { $0.hasPrefix("warn  access: ") }
        #expect(warning.count == 1, "\(doctor)")
        for words in ["an access confirmation", "a get with no one there finds nothing", "Fix: ",
                      "Tools > Settings > Secret Service Integration", "Confirm when passwords are retrieved by clients"] {
            #expect(warning.first?.contains(words) == true, "\(words.debugDescription) missing: \(doctor)")
        }
        try expectAliceUnchanged()
    }

    /// Where git is allowed (the setting unticked), doctor has nothing to say of it.
    @Test func doctorSaysNothingOfAccessWhereGitIsAllowed() throws {
        let shared = try SharedKeyring(.keepassxc)
        let host = shared.names("example.com")
        try shared.helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret"))
        let doctor = try shared.helper("doctor")
        #expect(doctor.stdoutText.contains("ok    round trip") && !doctor.stdoutText.contains("access:"), "\(doctor)")
    }

    /// git-credential-keyring's Secret Service side says the same.
    @Test func theKeyringHelperSaysTheSame() throws {
        let keyringHelper = KeyringHelper(sandbox: sandbox, environment: keepassxc.bus.environment)
        let monitor = try SecretRequests(sandbox: sandbox, bus: keepassxc.bus, methods: ["Dismiss"], signals: ["Completed"])
        let result = try keyringHelper.erase(wire("protocol=https", "host=\(host)", "username=alice"))
        expectUnansweredConfirmation(result, exitCode: 1)
        expectDismissed(monitor, runs: 1)
        try expectAliceUnchanged()
    }
}
