import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The README's container variant, without docker (not on these machines): a "container"
/// is a mount namespace of its own (as a runtime makes one) where the forward's own directory
/// is bind-mounted read-only at /run/git-credential-forward, as `docker run -v ...:ro` mounts it; its processes
/// run as the person (docker's `--user`), name the socket in GIT_CREDENTIAL_FORWARD_SOCKET
/// and use a git configuration of their own. Real git clones from the loopback server there.
@Suite(.enabled(if: geteuid() == 0 && Sandbox.which("unshare") != nil && Sandbox.which("nsenter") != nil,
                "needs root (CI's user) for a mount namespace, and unshare and nsenter"))
struct ForwardContainerTests {
    /// A mount namespace (PrivateMount) with `directory` at /run/git-credential-forward,
    /// /run a fresh tmpfs there, and a HOME and environment of its own.
    final class Container {
        static let mountPoint = "/run/git-credential-forward"
        private let mount: PrivateMount
        let home: String
        let environment: [String: String]

        init(mounting directory: String, in sandbox: Sandbox, socketName: String) throws {
            home = sandbox.root + "/container-home"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            mount = try PrivateMount(sandbox: sandbox, directory: Self.mountPoint,
                                     mounting: #"mount -t tmpfs -o mode=0755 tmpfs /run && mkdir "$0" && mount --bind "$1" "$0" && mount -o remount,bind,ro "$0""#, directory)
            environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
                           "GIT_CREDENTIAL_FORWARD_SOCKET": Self.mountPoint + "/" + socketName]
        }

        /// `command` run in the container, in its HOME (as `uid`: at its root).
        func run(_ command: [String], input: [UInt8] = [], as uid: uid_t? = nil) throws -> ProcessResult {
            try mount.run(command[0], Array(command.dropFirst()), input: input, environment: environment, directory: uid == nil ? home : "/", as: uid)
        }
    }

    /// Set up as the README says (`credential.helper` the program, the socket named by the
    /// variable), a clone asks nothing; serve restarted (Ctrl-C, then again) makes a new
    /// socket in the mounted directory, which the container reaches without being started
    /// again; and nothing of the password stays in the container's HOME.
    @Test func aContainerWithServesDirectoryMountedClonesAndReachesARestartedServe() throws {
        let machine = try ClientMachine(.sqlite)
        let password = awkwardPassword()
        let server = try machine.startServer(username: "alice", password: password)
        try server.makeRepository("project")
        try machine.store(username: "alice", password: password, for: server)
        var serve = try ForwardServe(machine: machine, name: "box", ["--host", server.host])
        let directory = (serve.socket as NSString).deletingLastPathComponent
        let container = try Container(mounting: directory, in: machine.sandbox, socketName: (serve.socket as NSString).lastPathComponent)
        let git = Sandbox.which("git") ?? "/usr/bin/git"
        let configured = try container.run([git, "config", "--global", "credential.helper", BuiltProducts.forward])
        #expect(configured.exitCode == 0, "\(configured)")

        let first = try container.run([git, "clone", "--quiet", server.repositoryURL("project"), "first"])
        #expect(fileExists(container.home + "/first/.git"), "no clone in the container's HOME")
        #expect(first.exitCode == 0 && first.stderr.isEmpty, "clone in the container: \(first)\nserve: \(serve.stderr) \(serve.log)")
        #expect(serve.waitForLog(lines: 1).first?.contains("box get http://\(server.host): answered user alice") == true, "\(serve.log)")

        serve.stop()
        let stopped = try container.run([BuiltProducts.forward, "get"], input: wire("protocol=http", "host=\(server.host)"))
        #expect(stopped.exitCode == 0 && stopped.stdout.isEmpty && stopped.stderr.isEmpty, "with serve stopped, not a silent miss: \(stopped)")
        serve = try ForwardServe(machine: machine, name: "box", ["--host", server.host])
        let second = try container.run([git, "clone", "--quiet", server.repositoryURL("project"), "second"])
        #expect(fileExists(container.home + "/second/.git"), "no second clone in the container's HOME")
        #expect(second.exitCode == 0 && second.stderr.isEmpty, "clone after serve restarted: \(second)\nserve: \(serve.stderr) \(serve.log)")

        let holding = (FileManager.default.enumerator(atPath: container.home)?.compactMap { $0 as? String } ?? []).filter {
            contents(of: container.home + "/" + $0)?.containsUTF8(password) ?? false
        }
        #expect(holding.isEmpty, "files of the container holding the password: \(holding)")
    }

    /// A container whose processes run as another uid than serve's (docker run without
    /// --user, as root): the helper there refuses the socket in one line that says how to
    /// run, sends nothing, and git goes on to its next helper. (serve would refuse the
    /// connection too: ForwardingHostileTests.)
    @Test func aContainerRunningAsAnotherUserIsToldToRunAsTheSocketsOwner() throws {
        let machine = try ClientMachine(.sqlite)
        let serve = try ForwardServe(machine: machine, name: "box", ["--host", "127.0.0.1"])
        let directory = (serve.socket as NSString).deletingLastPathComponent
        // Reachable by others, as a runtime's mount may make it.
        for opened in [machine.sandbox.root, machine.sandbox.root + "/runtime", machine.sandbox.root + "/runtime/git-credential-forward", directory] { chmod(opened, 0o711) }
        let container = try Container(mounting: directory, in: machine.sandbox, socketName: (serve.socket as NSString).lastPathComponent)
        let got = try container.run([BuiltProducts.forward, "get"], input: wire("protocol=http", "host=127.0.0.1"), as: Sandbox.anotherUser)
        #expect(got.exitCode == 0 && got.stdout.isEmpty, "\(got)")
        expectOneLineFailure(got, exitCode: 0, mentioning: [Container.mountPoint + "/socket", "uid \(geteuid()), not to you (uid \(Sandbox.anotherUser))",
                                                            "Fix: run git as uid \(geteuid()) (a container: docker run --user \(geteuid()))"])
        // doctor there says the same, and never to move serve's socket aside: every box
        // mounting it would be cut off (it said "mv ... .aside").
        let doctor = try container.run([BuiltProducts.forward, "doctor"], as: Sandbox.anotherUser)
        let socketLine = doctor.stdoutLines.first { $0.contains(" socket: ") } ?? doctor.stdoutText
        #expect(socketLine.hasPrefix("FAIL") && socketLine.contains("run git as uid \(geteuid())") && !doctor.stdoutText.contains("mv "), "\(doctor)")
        // The forward's directory as serve makes it (0700): the other uid cannot even look
        // into it, and is told whose it is (it read "no socket", as a session without one).
        chmod(directory, 0o700)
        let hidden = try container.run([BuiltProducts.forward, "get"], input: wire("protocol=http", "host=127.0.0.1"), as: Sandbox.anotherUser)
        expectOneLineFailure(hidden, exitCode: 0, mentioning: ["cannot look for \(Container.mountPoint)/socket: its directory belongs to uid \(geteuid()), not to you (uid \(Sandbox.anotherUser))",
                                                               "Fix: run git as uid \(geteuid()) (a container: docker run --user \(geteuid()))"])
        let hiddenDoctor = try container.run([BuiltProducts.forward, "doctor"], as: Sandbox.anotherUser)
        #expect(hiddenDoctor.stdoutLines.contains { $0.hasPrefix("FAIL  socket: cannot look for") } && !hiddenDoctor.stdoutText.contains("reconnect"), "\(hiddenDoctor)")
        usleep(200_000)
        #expect(serve.log.isEmpty, "the helper reached serve: \(serve.log)")
    }

    /// One box per forward: a container is given its forward's directory alone, read-only.
    /// Code there (as the person, as the README asks) sees no other forward's socket to ask
    /// for hosts its own does not allow, and cannot move serve's socket aside to bind its own
    /// there and receive what another remote's git sends (found by an attack round, when every
    /// forward's socket was in one mounted directory).
    @Test func aContainerReachesItsOwnForwardAloneAndCannotReplaceItsSocket() throws {
        let machine = try ClientMachine(.sqlite)
        let server = try machine.startServer(username: "alice", password: "s3cret")
        try machine.store(username: "alice", password: "s3cret", for: server)
        let other = try machine.startServer(username: "alice", password: "other-secret")
        try machine.store(username: "alice", password: "other-secret", for: other)
        let box = try ForwardServe(machine: machine, name: "box", ["--host", server.host])
        let build = try ForwardServe(machine: machine, name: "build", ["--host", other.host])
        #expect((box.socket as NSString).deletingLastPathComponent != (build.socket as NSString).deletingLastPathComponent)
        let container = try Container(mounting: (box.socket as NSString).deletingLastPathComponent, in: machine.sandbox, socketName: "socket")
        let listed = try container.run(["/bin/ls", "-A", Container.mountPoint])
        #expect(listed.stdoutText == "socket\n", "the container sees more than its forward's socket: \(listed)")
        let moved = try container.run(["/bin/mv", Container.mountPoint + "/socket", Container.mountPoint + "/aside"])
        #expect(moved.exitCode != 0 && moved.stderrText.contains("Read-only file system"), "\(moved)")
        let bound = try container.run(["/usr/bin/python3", "-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", Container.mountPoint + "/theirs"])
        #expect(bound.exitCode != 0, "a socket was bound in the forward's directory: \(bound)")
        // Its own forward answers; the other host, which only build's forward allows, gets nothing.
        let own = try container.run([BuiltProducts.forward, "get"], input: wire("protocol=http", "host=\(server.host)"))
        #expect(own.stdoutText.contains("password=s3cret\n"), "\(own)\nserve: \(box.stderr)")
        let theirs = try container.run([BuiltProducts.forward, "get"], input: wire("protocol=http", "host=\(other.host)"))
        #expect(theirs.exitCode == 0 && theirs.stdout.isEmpty, "\(theirs)")
        #expect(build.log.isEmpty, "the container reached build's forward: \(build.log)")
    }
}
