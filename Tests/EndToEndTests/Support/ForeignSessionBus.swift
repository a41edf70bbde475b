import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// A session bus of another user's, where Debian's dbus-run-session and dbus-launch put the
// user's own (/tmp/dbus-XXXXXXXXXX): the address a shell or tmux keeps after its session
// ended, which anyone may then listen on. Acting as other users needs root (setpriv).

/// A uid the tests act as: the test's own, or another one through setpriv.
struct TestUser: Sendable, Equatable, CustomStringConvertible {
    let uid: uid_t

    static var me: TestUser { TestUser(uid: geteuid()) }
    /// Who takes over the address: nobody, as in the other tests of another user.
    static let attacker = TestUser(uid: Sandbox.anotherUser)
    /// A user who is not root, with no account (a bus that admits anonymous connections
    /// lets them in; one that checks accounts would not).
    static let unprivileged = TestUser(uid: 65533)

    var description: String { "uid \(uid)" }

    /// `executable arguments` run as this user.
    func command(_ executable: String, _ arguments: [String]) -> [String] {
        guard uid != geteuid() else { return [executable] + arguments }
        return [Sandbox.which("setpriv") ?? "/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", executable] + arguments
    }
}

/// A directory like /tmp, of one test: root's, world-writable and sticky. Removed on
/// deinit with everything in it.
final class StickyDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/sticky-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SpawnError(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
        chmod(path, 0o1777)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A directory of `user`'s own (0700) in it: a throwaway HOME.
    func home(of user: TestUser, _ name: String) throws -> String {
        let home = path + "/" + name
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        chown(home, user.uid, user.uid)
        return home
    }

    /// A name Debian's dbus-launch would give a bus's socket here: dbus- and ten letters or digits.
    func socketName() -> String {
        let characters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return path + "/dbus-" + String((0..<10).map { _ in characters.randomElement()! })
    }
}

/// A session bus run by `owner`, listening on a socket in a sticky directory, that lets
/// other users connect too (`Admission`), optionally with a gnome-keyring of one user's.
/// The daemons are stopped on deinit.
final class SessionBusOfUser {
    /// Who besides its owner (and root) may connect: a stock session bus lets no one.
    enum Admission: Sendable {
        /// EXTERNAL authentication (the kernel says the uid), and a policy that admits any user with an account.
        case anyUser
        /// ANONYMOUS authentication: anyone, account or not.
        case anonymous
    }

    let sandbox: Sandbox
    let owner: TestUser
    let socket: String
    /// The owner's throwaway HOME.
    let home: String
    private let busPID: pid_t
    private var keyringPIDs: [pid_t] = []

    var address: String { "unix:path=" + socket }
    var bus: SessionBus { SessionBus(environment: ["DBUS_SESSION_BUS_ADDRESS": address]) }

    /// `activating`: the Exec line of an org.freedesktop.secrets service file (D-Bus activation).
    init(in directory: StickyDirectory, sandbox: Sandbox, owner: TestUser, admission: Admission, activating: String? = nil) throws {
        self.sandbox = sandbox
        self.owner = owner
        socket = directory.socketName()
        home = try directory.home(of: owner, "bus-of-\(owner.uid)")
        let authentication = switch admission {
        case .anyUser: "<auth>EXTERNAL</auth>"
        case .anonymous: "<auth>ANONYMOUS</auth><allow_anonymous/>"
        }
        var services = ""
        if let activating {
            try FileManager.default.createDirectory(atPath: home + "/services", withIntermediateDirectories: false)
            try ChildProcess.writeFile(home + "/services/org.freedesktop.secrets.service",
                                       Array("[D-BUS Service]\nName=org.freedesktop.secrets\nExec=\(activating)\n".utf8), mode: 0o644)
            services = "<servicedir>\(home)/services</servicedir>"
        }
        let configuration = home + "/session.conf"
        try ChildProcess.writeFile(configuration, Array("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              \(authentication)
              \(services)
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
                \(admission == .anyUser ? "<allow user=\"*\"/>" : "")
              </policy>
            </busconfig>
            """.utf8), mode: 0o644)
        for path in [configuration, home + "/services", home + "/services/org.freedesktop.secrets.service"] { chown(path, owner.uid, owner.uid) }
        let started = try Self.run(sandbox, as: owner, home: home, Sandbox.which("dbus-daemon") ?? "/usr/bin/dbus-daemon",
                                   ["--config-file=\(configuration)", "--fork", "--print-pid=1"], environment: [:])
        guard started.exitCode == 0, let pid = pid_t(started.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SpawnError(description: "dbus-daemon of \(owner) did not start: \(started)")
        }
        busPID = pid
    }

    deinit {
        for pid in keyringPIDs { kill(pid, SIGTERM) }
        kill(busPID, SIGTERM)
        for pid in keyringPIDs + [busPID] { waitUntilGone(pid) }
    }

    /// Runs `executable` as `user` with a HOME (and XDG directories) of `home`, on this bus.
    func run(as user: TestUser, home: String, _ executable: String, _ arguments: [String], input: [UInt8] = [],
             environment: [String: String] = [:]) throws -> ProcessResult {
        try Self.run(sandbox, as: user, home: home, executable, arguments, input: input,
                     environment: ["DBUS_SESSION_BUS_ADDRESS": address].merging(environment) { $1 })
    }

    private static func run(_ sandbox: Sandbox, as user: TestUser, home: String, _ executable: String, _ arguments: [String],
                            input: [UInt8] = [], environment: [String: String]) throws -> ProcessResult {
        let command = user.command(executable, arguments)
        let homes = ["HOME": home, "XDG_DATA_HOME": home + "/.local/share", "XDG_CONFIG_HOME": home + "/.config",
                     "XDG_CACHE_HOME": home + "/.cache"]
        return try sandbox.run(command[0], Array(command.dropFirst()), input: input,
                               environment: homes.merging(environment) { $1 }, directory: home, timeout: 20)
    }

    /// Starts gnome-keyring-daemon as `user` (in `home`, its login keyring unlocked) and
    /// waits until it owns the Secret Service's name.
    func startKeyring(as user: TestUser, home: String) throws {
        let started = try run(as: user, home: home, Sandbox.which("gnome-keyring-daemon") ?? "/usr/bin/gnome-keyring-daemon",
                              ["--unlock", "--components=secrets", "--daemonize"], input: Array("keyring-of-\(user.uid)".utf8))
        guard started.exitCode == 0 else { throw SpawnError(description: "gnome-keyring-daemon of \(user) did not start: \(started)") }
        try adoptKeyring()
    }

    /// Waits for a keyring (one started by D-Bus activation, say) to own the Secret
    /// Service's name, and stops it with the bus.
    func adoptKeyring() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let asked = try dbusSend(["--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                      "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.secrets"])
            if asked.exitCode == 0, let last = asked.stdoutLines.last?.split(separator: " ").last, let pid = pid_t(last) {
                keyringPIDs.append(pid)
                return
            }
            usleep(20_000)
        }
        throw SpawnError(description: "no one took org.freedesktop.secrets on the bus of \(owner) in 10 s")
    }

    /// The unique name of whoever owns org.freedesktop.secrets now, nil when no one does.
    func secretServiceOwner() throws -> String? {
        let asked = try dbusSend(["--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                  "org.freedesktop.DBus.GetNameOwner", "string:org.freedesktop.secrets"])
        guard asked.exitCode == 0, let last = asked.stdoutLines.last?.split(separator: " ").last else { return nil }
        return last.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// A signal its owner sends to anyone listening: marks a point in what a monitor saw.
    func mark() throws {
        let sent = try dbusSend(["--type=signal", "/org/example/Test", "org.example.Test.Marker"])
        guard sent.exitCode == 0 else { throw SpawnError(description: "cannot send a signal: \(sent)") }
    }

    /// dbus-send --session as the bus's owner.
    private func dbusSend(_ arguments: [String]) throws -> ProcessResult {
        try run(as: owner, home: home, Sandbox.which("dbus-send") ?? "/usr/bin/dbus-send", ["--session"] + arguments)
    }

    /// secret-tool as `user` (in `home`) on this bus.
    func secretTool(as user: TestUser, home: String, _ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
        try run(as: user, home: home, Sandbox.which("secret-tool") ?? "/usr/bin/secret-tool", arguments, input: input)
    }
}
