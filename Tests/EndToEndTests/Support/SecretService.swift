import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// The Secret Service tests run against a real gnome-keyring on a D-Bus session bus that no
// desktop owns: scripts/with-test-keyring starts one for the whole test run (make test runs
// `swift test` through it); tests that change global state (locking the collection) or need
// a bus without a Secret Service start a `PrivateSessionBus` of their own.

/// How children reach a session bus: what they need in their environment.
struct SessionBus: Sendable {
    /// DBUS_SESSION_BUS_ADDRESS, and XDG_RUNTIME_DIR of the session when there is one.
    let environment: [String: String]

    struct Missing: Error, CustomStringConvertible {
        let description = "no test keyring: DBUS_SESSION_BUS_ADDRESS or TEST_KEYRING_HOME is not set. "
            + "The Secret Service tests need the throwaway gnome-keyring of scripts/with-test-keyring: run them as "
            + "`scripts/with-test-keyring swift test --skip-build --disable-xctest` (make test does)"
    }

    /// The bus of scripts/with-test-keyring, shared by every test of the run. Throws, which
    /// fails the test, when the tests were started without it: they must not skip silently,
    /// nor write into the keyring of whoever runs them at a desktop.
    static func testKeyring() throws -> SessionBus {
        let environment = ProcessInfo.processInfo.environment
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty,
              let keyringHome = environment["TEST_KEYRING_HOME"], !keyringHome.isEmpty
        else { throw Missing() }
        return SessionBus(environment: ["DBUS_SESSION_BUS_ADDRESS": address,
                                        "XDG_RUNTIME_DIR": environment["XDG_RUNTIME_DIR"] ?? ""].filter { !$0.value.isEmpty })
    }
}

/// git-credential-secretservice as a test drives it, on a given bus. Every run is also
/// checked for GLib's log lines on stderr, which must never get there.
struct SecretServiceHelper: CredentialHelper {
    let sandbox: Sandbox
    let bus: SessionBus
    var timeout: Double = 30

    func invoke(_ arguments: [String], input: [UInt8]) throws -> ProcessResult {
        let result = try sandbox.run(BuiltProducts.secretServiceHelper, arguments, input: input,
                                     environment: bus.environment, timeout: timeout)
        #expect(!result.timedOut, "git-credential-secretservice \(arguments) hung: \(result)")
        expectNoGLibNoise(result)
        return result
    }
}

/// An item as secret-tool shows it.
struct KeyringItem: Equatable {
    var label: String?
    var schema: String?
    /// Filled only when a search found exactly this one item (secret-tool prints all
    /// attributes of all items on stderr without a separator).
    var attributes: [String: String]?
}

/// secret-tool (libsecret-tools): writes and reads items the way every other libsecret
/// client does, git's contrib git-credential-libsecret included.
struct SecretTool {
    let sandbox: Sandbox
    let bus: SessionBus

    func run(_ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
        try sandbox.run(Sandbox.which("secret-tool") ?? "/usr/bin/secret-tool", arguments, input: input,
                        environment: bus.environment, timeout: 20)
    }

    /// `secret-tool ACTION key value ...`, keys sorted.
    func run(_ action: [String], _ attributes: [String: String], input: [UInt8] = []) throws -> ProcessResult {
        try run(action + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }, input: input)
    }

    /// Writes an item of `schema` (the xdg:schema attribute) with the secret text as given.
    func store(label: String, secret: String, schema: String, _ attributes: [String: String],
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run(["store", "--label=\(label)"], attributes.merging(["xdg:schema": schema]) { $1 },
                             input: Array(secret.utf8))
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "secret-tool store: \(result)", sourceLocation: sourceLocation)
    }

    /// The secret text of an item with these attributes, nil when there is none.
    func lookup(_ attributes: [String: String]) throws -> String? {
        let result = try run(["lookup"], attributes)
        return result.exitCode == 0 ? result.stdoutText : nil
    }

    /// Every item with these attributes, in any schema, locked ones too (no unlocking).
    func items(_ attributes: [String: String]) throws -> [KeyringItem] {
        let result = try run(["search", "--all"], attributes)
        var items: [KeyringItem] = []
        for line in result.stdoutLines {
            if line.hasPrefix("[/") {
                items.append(KeyringItem())
            } else if line.hasPrefix("label = ") {
                items[items.count - 1].label = String(line.dropFirst("label = ".count))
            } else if line.hasPrefix("schema = ") {
                items[items.count - 1].schema = String(line.dropFirst("schema = ".count))
            }
        }
        if items.count == 1 {
            items[0].attributes = Dictionary(result.stderrLines.compactMap { line in
                guard line.hasPrefix("attribute."), let separator = line.range(of: " = ") else { return nil }
                return (String(line["attribute.".endIndex..<separator.lowerBound]), String(line[separator.upperBound...]))
            }) { $1 }
        }
        return items
    }

    /// The one item with these attributes; records an issue and returns nil unless there is exactly one.
    func item(_ attributes: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws -> KeyringItem? {
        let found = try items(attributes)
        #expect(found.count == 1, "expected one item with \(attributes), found \(found)", sourceLocation: sourceLocation)
        return found.count == 1 ? found[0] : nil
    }

    /// Deletes every item with these attributes.
    func clear(_ attributes: [String: String]) throws {
        _ = try run(["clear"], attributes)
    }
}

/// Host names and paths that no other test uses: tests run in parallel on one keyring.
/// `hosts("example.com")` is `example.com.test-<tag>`, so that `"evil." + hosts("x")`
/// is `hosts("evil.x")`.
final class UniqueNames {
    let tag = "test-" + UUID().uuidString.lowercased().prefix(13)
    private(set) var hosts: Set<String> = []
    private(set) var paths: Set<String> = []

    /// `name`, made this test's own (without a port: add `:8443` to the result).
    func callAsFunction(_ name: String) -> String {
        let host = "\(name).\(tag)"
        hosts.insert(host)
        return host
    }

    /// An absolute path under a directory of this test's own.
    func path(_ path: String) -> String {
        let unique = "/\(tag)" + (path.hasPrefix("/") ? path : "/" + path)
        paths.insert(unique)
        return unique
    }
}

/// One test on the shared test keyring: its own sandbox, the helper and secret-tool on
/// the keyring's bus, names of its own, and on deinit every item on those names removed.
final class SharedKeyring {
    let sandbox: Sandbox
    let bus: SessionBus
    let helper: SecretServiceHelper
    let secretTool: SecretTool
    let names = UniqueNames()

    /// On the provider's shared bus: gnome-keyring's of scripts/with-test-keyring unless told.
    init(_ provider: SecretServiceProvider = .gnomeKeyring) throws {
        bus = try provider.sharedBus()
        sandbox = try Sandbox()
        helper = SecretServiceHelper(sandbox: sandbox, bus: bus)
        secretTool = SecretTool(sandbox: sandbox, bus: bus)
    }

    deinit {
        for host in names.hosts { try? secretTool.clear(["server": host]) }
        for path in names.paths { try? secretTool.clear(["object": path]) }
    }

    /// How many items of any schema carry these attributes.
    func count(_ attributes: [String: String]) throws -> Int { try secretTool.items(attributes).count }
}

/// A D-Bus session bus of one test's own, in its sandbox, optionally with a gnome-keyring:
/// for what changes global state (locking the login collection, stopping the daemon), or a
/// bus on which no Secret Service answers. The daemons are stopped on deinit.
final class PrivateSessionBus {
    static let keyringPassword = "private-test-keyring"  // a test value; empty would ask on a GUI

    /// What the bus starts on demand (D-Bus activation).
    enum Services {
        /// Nothing: no one owns, or can be started as, org.freedesktop.secrets.
        case none
        /// What a desktop session has installed: gnome-keyring, and its prompter, which
        /// fails at once without a display.
        case desktop
        /// Only a prompter that never answers, like a prompt shown on a display no one looks
        /// at (a locked screen, a desktop left logged in while its user works over SSH).
        case unansweredPrompter
    }

    let sandbox: Sandbox
    let bus: SessionBus
    private let busPID: pid_t
    private var keyringPID: pid_t?
    private var keyringFrozen = false

    init(sandbox: Sandbox, services: Services) throws {
        self.sandbox = sandbox
        let runtime = sandbox.root + "/runtime", serviceDirectory = sandbox.root + "/dbus-services"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var serviceDirectories = ""
        switch services {
        case .none: break
        case .desktop: serviceDirectories = "<standard_session_servicedirs/>"
        case .unansweredPrompter:
            // Connects to the bus, never takes the prompter's name, ends with the bus.
            try sandbox.file("dbus-services/org.gnome.keyring.SystemPrompter.service", """
                [D-BUS Service]
                Name=org.gnome.keyring.SystemPrompter
                Exec=\(Sandbox.which("dbus-monitor") ?? "/usr/bin/dbus-monitor") --session type=signal,interface=org.example.Nothing

                """)
            serviceDirectories = "<servicedir>\(serviceDirectory)</servicedir>"
        }
        let configuration = try sandbox.file("dbus-session.conf", """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(runtime)</listen>
              \(serviceDirectories)
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """)
        let started = try sandbox.run(Sandbox.which("dbus-daemon") ?? "/usr/bin/dbus-daemon",
                                      ["--config-file=\(configuration)", "--fork", "--print-address=1", "--print-pid=1"],
                                      environment: ["XDG_RUNTIME_DIR": runtime], timeout: 10)
        let lines = started.stdoutLines
        guard started.exitCode == 0, lines.count == 2, let pid = pid_t(lines[1]) else {
            throw SpawnError(description: "dbus-daemon did not start: \(started)")
        }
        busPID = pid
        bus = SessionBus(environment: ["DBUS_SESSION_BUS_ADDRESS": lines[0], "XDG_RUNTIME_DIR": runtime])
    }

    /// Stops the daemons and waits until they are gone, so that none of them still writes
    /// into the sandbox when it is removed.
    deinit {
        if let keyringPID {
            if keyringFrozen { kill(keyringPID, SIGCONT) }
            kill(keyringPID, SIGTERM)
        }
        kill(busPID, SIGTERM)
        for pid in [keyringPID, busPID].compactMap({ $0 }) { waitUntilGone(pid) }
    }


    /// The pid of the keyring daemon this bus was given, nil before `startKeyring`.
    var keyring: pid_t? { keyringPID }

    /// Starts gnome-keyring-daemon with the login keyring unlocked by `keyringPassword`
    /// (created on first start, in the sandbox's XDG_DATA_HOME), and waits until it owns
    /// the Secret Service's name.
    func startKeyring() throws {
        let started = try sandbox.run(Sandbox.which("gnome-keyring-daemon") ?? "/usr/bin/gnome-keyring-daemon",
                                      ["--unlock", "--components=secrets", "--daemonize"],
                                      input: Array(Self.keyringPassword.utf8), environment: bus.environment, timeout: 10)
        guard started.exitCode == 0 else { throw SpawnError(description: "gnome-keyring-daemon did not start: \(started)") }
        keyringPID = try waitForSecretService { $0 != nil }
    }

    /// Waits for the keyring the bus started on demand (D-Bus activation) to own the
    /// Secret Service's name, and stops it with the bus.
    func adoptStartedKeyring() throws {
        keyringPID = try waitForSecretService { $0 != nil }
    }

    /// Stops the keyring daemon and starts it again unlocked: the only way to unlock a
    /// collection without someone answering a prompt.
    func restartKeyring() throws {
        if let keyringPID { kill(keyringPID, SIGTERM) }
        keyringPID = nil
        _ = try waitForSecretService { $0 == nil }
        try startKeyring()
    }

    /// Stops the keyring daemon (SIGSTOP) without it leaving the bus: a Secret Service
    /// that is there but never answers.
    func freezeKeyring() {
        guard let keyringPID else { return }
        kill(keyringPID, SIGSTOP)
        keyringFrozen = true
    }

    /// Kills the bus daemon (SIGKILL), as a crash or an OOM kill would: every connection
    /// to it breaks at once, whatever call is under way.
    func killBus() {
        kill(busPID, SIGKILL)
    }

    /// Locks the login collection, as a screen lock or a timeout would.
    func lockLoginCollection() throws {
        let result = try dbusSend(["--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
                                   "org.freedesktop.Secret.Service.Lock",
                                   "array:objpath:/org/freedesktop/secrets/collection/login"])
        guard result.exitCode == 0 else { throw SpawnError(description: "cannot lock the login collection: \(result)") }
    }

    /// The pid of the process owning org.freedesktop.secrets, nil when none does (asking
    /// the bus does not start one).
    func secretServiceOwner() throws -> pid_t? {
        let result = try dbusSend(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                   "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.secrets"])
        guard result.exitCode == 0, let last = result.stdoutLines.last?.split(separator: " ").last else { return nil }
        return pid_t(last)
    }

    private func waitForSecretService(until done: (pid_t?) -> Bool) throws -> pid_t? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let owner = try secretServiceOwner()
            if done(owner) { return owner }
            usleep(20_000)
        }
        throw SpawnError(description: "the Secret Service's name did not change owner in 10 s")
    }

    private func dbusSend(_ arguments: [String]) throws -> ProcessResult {
        try sandbox.run(Sandbox.which("dbus-send") ?? "/usr/bin/dbus-send", ["--session", "--print-reply"] + arguments,
                        environment: bus.environment, timeout: 10)
    }
}

/// Waits up to 5 s for a process that is not our child (daemons fork away) to exit:
/// gone from /proc, or a zombie left for init to reap.
func waitUntilGone(_ pid: pid_t) {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ")
        else { return }
        if stat[afterName.upperBound...].hasPrefix("Z") { return }
        usleep(10_000)
    }
}
