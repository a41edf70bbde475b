import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 23, item 2: a session bus, or a Secret Service on it, that is another user's. The
/// address of a bus in /tmp outlives its session in a shell or tmux; another user then
/// listens there, with a bus that lets others in and a keyring of their own. Nothing may
/// be sent to their Secret Service: git-credential-secretservice refuses in one line,
/// git-credential-keyring goes on with its SQLite store, doctor fails.
@Suite(.enabled(if: geteuid() == 0, "needs root to act as other users (setpriv)"))
struct SecretServiceForeignBusTests {
    static let host = "foreign-bus.example.com"
    static let lookup = wire("protocol=https", "host=\(host)")
    static let victimsCredential = wire("protocol=https", "host=\(host)", "username=victim", "password=victims-secret")
    /// An item in the other user's keyring that a get would answer with.
    static let planted = "answer-of-another-user"

    /// Who runs the helpers, and how the other user's bus lets them in.
    enum Victim: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case root = "root, on a bus that admits any user with an account"
        case unprivileged = "uid 65533, on a bus that admits anonymous connections"

        var testDescription: String { rawValue }
        var user: TestUser { self == .root ? .me : .unprivileged }
        var admission: SessionBusOfUser.Admission { self == .root ? .anyUser : .anonymous }
    }

    /// The victim: helpers run as `user` in a HOME of their own, with the address of `bus`.
    struct VictimSession {
        let user: TestUser
        let home: String
        let bus: SessionBusOfUser

        init(_ user: TestUser, on bus: SessionBusOfUser, in directory: StickyDirectory) throws {
            self.user = user
            self.bus = bus
            home = try directory.home(of: user, "victim")
            // An empty XDG_RUNTIME_DIR: only the address left in the environment names a bus.
            let runtime = try directory.home(of: user, "victim-runtime")
            environment = ["XDG_RUNTIME_DIR": runtime]
        }

        var environment: [String: String]

        func run(_ program: String, _ arguments: [String], input: [UInt8] = [], trace: Bool = false) throws -> ProcessResult {
            let result = try bus.run(as: user, home: home, BuiltProducts.directory + "/" + program, arguments, input: input,
                                     environment: environment.merging(trace ? ["GIT_CREDENTIAL_TRACE": "1"] : [:]) { $1 })
            #expect(!result.timedOut, "\(program) \(arguments) hung: \(result)")
            expectNoGLibNoise(result)
            return result
        }
    }

    /// Plants a git item in `user`'s keyring on `bus` that a get for `host` would answer with.
    static func plant(on bus: SessionBusOfUser, as user: TestUser, home: String) throws {
        let stored = try bus.secretTool(as: user, home: home, ["store", "--label=Git: https://\(host)/", "xdg:schema", "org.git.Password",
                                                               "protocol", "https", "server", host, "user", "alice"],
                                        input: Array(planted.utf8))
        #expect(stored.exitCode == 0, "secret-tool store: \(stored)")
    }

    /// The items with the host's attributes in `user`'s keyring, as secret-tool (as that user) sees them.
    static func items(on bus: SessionBusOfUser, as user: TestUser, home: String) throws -> Int {
        try bus.secretTool(as: user, home: home, ["search", "--all", "server", host]).stdoutLines.filter { $0.hasPrefix("[/") }.count
    }

    /// Stops the monitor, which listened while the victim's helpers ran and then while
    /// `keyringUser` looked at their own keyring (`look`), which returns what it found.
    /// Not one call before that look went to the Secret Service (by its well-known or its
    /// unique name); that look's calls did, which shows that the monitor saw such calls.
    func expectNoCallReachedTheService(_ monitor: SecretRequests, on bus: SessionBusOfUser, look: () throws -> Int) throws -> Int {
        try bus.mark()
        let found = try look()
        let service = try #require(try bus.secretServiceOwner())
        let lines = monitor.stopAndRead().split(separator: "\n")
        let marker = try #require(lines.firstIndex { $0.contains("member=Marker") }, "the monitor saw no marker: \(lines)")
        func toService(_ lines: ArraySlice<Substring>) -> [Substring] {
            lines.filter { $0.hasPrefix("method call") && ($0.contains("destination=\(service) ") || $0.contains("destination=org.freedesktop.secrets ")) }
        }
        #expect(toService(lines[..<marker]).isEmpty, "calls to the other user's service: \(toService(lines[..<marker]))")
        #expect(!toService(lines[marker...]).isEmpty, "the monitor did not see the other user's own calls: \(lines)")
        return found
    }

    /// What git-credential-secretservice and git-credential-keyring do for `victim`: the
    /// line of secretservice says `refusal` (each phrase) and `fix`; the keyring's trace says `refusal`.
    func expectNothingGoesToTheService(_ victim: VictimSession, refusal: [String], fix: String) throws {
        // get: nothing from the other user's keyring; secretservice says why, in one line.
        let get = try victim.run("git-credential-secretservice", ["get"], input: Self.lookup)
        #expect(get.exitCode == 0 && get.stdout.isEmpty, "\(get)")
        #expect(get.stderrLines.count == 1 && (refusal + [fix]).allSatisfy { get.stderrText.contains($0) }, "\(get)")
        expectOneLineFailure(try victim.run("git-credential-secretservice", ["store"], input: Self.victimsCredential),
                             exitCode: 1, mentioning: refusal + [fix])
        let keyringGet = try victim.run("git-credential-keyring", ["get"], input: Self.lookup)
        #expect(keyringGet.exitCode == 0 && keyringGet.stdout.isEmpty && keyringGet.stderr.isEmpty, "\(keyringGet)")

        // keyring: into its SQLite store, silently (as without a bus), saying why in its trace.
        let stored = try victim.run("git-credential-keyring", ["store"], input: Self.victimsCredential, trace: true)
        #expect(stored.exitCode == 0, "\(stored)")
        #expect(stored.stderrLines.contains { line in line.contains("no keyring: ") && refusal.allSatisfy { line.contains($0) } },
                "\(stored)")
        #expect(stored.stderrLines.contains { $0.contains("storing in sqlite: ") }, "\(stored)")
        let fromSQLite = try victim.run("git-credential-sqlite", ["get"], input: Self.lookup)
        #expect(fromSQLite.attributes["password"] == "victims-secret", "\(fromSQLite)")
        let keyringAnswer = try victim.run("git-credential-keyring", ["get"], input: Self.lookup)
        #expect(keyringAnswer.attributes["password"] == "victims-secret" && keyringAnswer.stderr.isEmpty, "\(keyringAnswer)")
    }

    /// The address of a bus that ended, now another user's bus with their keyring on it.
    @Test(arguments: Victim.allCases)
    func aBusAnotherUserTookOverGetsNothing(victim: Victim) throws {
        let sandbox = try Sandbox(), directory = try StickyDirectory()
        let theirs = try SessionBusOfUser(in: directory, sandbox: sandbox, owner: .attacker, admission: victim.admission)
        try theirs.startKeyring(as: .attacker, home: theirs.home)
        try Self.plant(on: theirs, as: .attacker, home: theirs.home)
        let session = try VictimSession(victim.user, on: theirs, in: directory)

        // Monitors see no method calls on a bus of anonymous connections (BecomeMonitor needs
        // a uid, and eavesdropping gets signals only): that bus's keyring is asked instead.
        let monitor = victim.admission == .anyUser ? try SecretRequests(sandbox: sandbox, bus: theirs.bus, methods: nil) : nil
        let refusal = ["the session bus at \(theirs.socket) belongs to uid 65534 (nobody), not to you", "nothing was sent to it"]
        let fix = "Fix: unset DBUS_SESSION_BUS_ADDRESS"
        try expectNothingGoesToTheService(session, refusal: refusal, fix: fix)

        // doctor: a FAIL, for the keyring's too (other programs of the session use that bus).
        for program in ["git-credential-secretservice", "git-credential-keyring"] {
            let doctor = try session.run(program, ["doctor"])
            #expect(doctor.exitCode == 1, "\(doctor)")
            #expect(doctor.stdoutLines.contains { $0.hasPrefix("FAIL  session bus: " + refusal[0]) && $0.contains(fix) },
                    "\(program) doctor: \(doctor)")
        }
        // Their keyring holds what they planted, and nothing of the victim's.
        let look = { try Self.items(on: theirs, as: .attacker, home: theirs.home) }
        #expect(try monitor.map { try expectNoCallReachedTheService($0, on: theirs, look: look) } ?? look() == 1)
    }

    /// The user's own bus, which lets other users in, where another user's keyring owns
    /// org.freedesktop.secrets. (A user's bus that admits others is unusual: a
    /// configuration with <allow user="*"/>, as here.)
    @Test func aSecretServiceOfAnotherUserOnYourBusGetsNothing() throws {
        let sandbox = try Sandbox(), directory = try StickyDirectory()
        let mine = try SessionBusOfUser(in: directory, sandbox: sandbox, owner: .me, admission: .anyUser)
        let theirHome = try directory.home(of: .attacker, "attacker")
        try mine.startKeyring(as: .attacker, home: theirHome)
        try Self.plant(on: mine, as: .attacker, home: theirHome)
        let session = try VictimSession(.me, on: mine, in: directory)

        let monitor = try SecretRequests(sandbox: sandbox, bus: mine.bus, methods: nil)
        let refusal = ["org.freedesktop.secrets on your session bus is owned by gnome-keyring-d (pid ", " of uid 65534 (nobody), not by you",
                       "nothing was sent"]
        try expectNothingGoesToTheService(session, refusal: refusal, fix: "Fix: stop that program")

        let doctor = try session.run("git-credential-secretservice", ["doctor"])
        #expect(doctor.exitCode == 1, "\(doctor)")
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("ok    session bus: connected to \(mine.address)") }, "\(doctor)")
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("FAIL  Secret Service: " + refusal[0]) }, "\(doctor)")
        #expect(try expectNoCallReachedTheService(monitor, on: mine) { try Self.items(on: mine, as: .attacker, home: theirHome) } == 1)
    }

    /// The same when no one owns the name yet, and the bus starts the service (D-Bus
    /// activation) as something that hands the name to another user's keyring: the
    /// owner is checked after it started.
    @Test func aSecretServiceStartedAsAnotherUserGetsNothing() throws {
        let sandbox = try Sandbox(), directory = try StickyDirectory()
        let theirHome = try directory.home(of: .attacker, "attacker")
        let keyring = TestUser.attacker.command("/usr/bin/env", [
            "HOME=\(theirHome)", "XDG_DATA_HOME=\(theirHome)/.local/share", "XDG_CONFIG_HOME=\(theirHome)/.config",
            "XDG_CACHE_HOME=\(theirHome)/.cache", Sandbox.which("gnome-keyring-daemon") ?? "/usr/bin/gnome-keyring-daemon",
            "--start", "--foreground", "--components=secrets"])
        let mine = try SessionBusOfUser(in: directory, sandbox: sandbox, owner: .me, admission: .anyUser,
                                        activating: keyring.joined(separator: " "))
        let session = try VictimSession(.me, on: mine, in: directory)

        let monitor = try SecretRequests(sandbox: sandbox, bus: mine.bus, methods: nil)
        let get = try session.run("git-credential-secretservice", ["get"], input: Self.lookup)
        try mine.adoptKeyring()
        #expect(get.exitCode == 0 && get.stdout.isEmpty, "\(get)")
        #expect(get.stderrLines.count == 1 && get.stderrText.contains(" of uid 65534 (nobody), not by you"), "\(get)")
        expectOneLineFailure(try session.run("git-credential-secretservice", ["store"], input: Self.victimsCredential),
                             exitCode: 1, mentioning: ["org.freedesktop.secrets on your session bus is owned by", "nothing was sent"])
        #expect(try expectNoCallReachedTheService(monitor, on: mine) { try Self.items(on: mine, as: .attacker, home: theirHome) } == 0)
    }

    /// Attack finding (issue 23): the helpers authenticated to another user's bus (AUTH
    /// EXTERNAL with the victim's uid, then Hello) before they looked whose it was. Now the
    /// listener is checked on a connection of its own first: nothing at all reaches it.
    @Test func aStaleAddressGetsNotAByte() throws {
        let sticky = try StickyDirectory()
        let socket = sticky.socketName(), record = sticky.path + "/received"
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: Sandbox.which("setpriv") ?? "/usr/bin/setpriv")
        listener.arguments = ["--reuid=\(Sandbox.anotherUser)", "--regid=\(Sandbox.anotherUser)", "--clear-groups",
                              Sandbox.which("python3") ?? "/usr/bin/python3", SourceTree.root + "/Tests/Fixtures/recording_listener.py", socket, record]
        let ready = Pipe()
        listener.standardOutput = ready
        try listener.run()
        // SIGKILL: a child of the test runner may have SIGTERM ignored.
        defer { kill(listener.processIdentifier, SIGKILL); listener.waitUntilExit() }
        #expect(ready.fileHandleForReading.availableData.starts(with: Array("ready".utf8)))

        let sandbox = try Sandbox()
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + socket]
        for (program, action) in [("git-credential-secretservice", "get"), ("git-credential-secretservice", "store"), ("git-credential-keyring", "get")] {
            let result = try sandbox.run(BuiltProducts.directory + "/" + program, [action],
                                         input: action == "get" ? Self.lookup : Self.victimsCredential, environment: environment)
            #expect(!result.stdoutText.contains("password="), "\(program) \(action): \(result)")
            if program == "git-credential-secretservice" {
                #expect(result.stderrLines.count == 1 && result.stderrText.contains("belongs to uid \(Sandbox.anotherUser)"), "\(program) \(action): \(result)")
            }
        }
        // The listener records each connection when the client is done with it (3 at least).
        var received = ""
        for _ in 0..<100 where received.split(separator: "\n").count < 3 {
            usleep(50_000)
            received = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        }
        #expect(!received.isEmpty && received.split(separator: "\n").allSatisfy { $0.hasPrefix("0 ") },
                "the other user's listener received: \(received)")
    }
}
