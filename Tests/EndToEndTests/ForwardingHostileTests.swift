import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The remote is the less trusted end (issue 25, items 4 and 5): whatever its user or its
/// root sends through the forwarded socket, serve does not crash, hang or answer past its
/// hosts, and still answers an ordinary get; on the remote, the helper uses only a socket
/// of the user's own; on the person's side, only the person's processes are read.
@Suite(.enabled(if: sshWorldUnavailable == nil, Comment(rawValue: sshWorldUnavailable ?? "")))
struct ForwardingHostileTests {
    // Each world without the ~/.ssh/rc claim: the hostile client finds its session's
    // socket where sshd binds it (the arrival path), as the remote's root would anyway.

    /// forward_client.py on the remote, through a session forwarding to `serve`.
    func client(_ world: ForwardWorld, _ serve: ForwardServe, _ arguments: String, input: [UInt8] = []) throws -> ProcessResult {
        try world.sshd.run("/usr/bin/python3 \(shellQuoted(forwardClient)) \(shellQuoted(world.remoteSocket)) \(arguments)",
                           forwarding: world.forward(to: serve), input: input, timeout: 180)
    }

    /// After the abuse: an ordinary get through a new session is answered (within 15 s:
    /// serve's children of the abuse may still be ending, and it turns away what comes
    /// beyond 32 at once), and every log line is one short printable line without the password.
    func expectServeStillAnswers(_ world: ForwardWorld, _ serve: ForwardServe, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try getWithin(15, world, serve)
        #expect(got.attributes["password"] == world.password && got.stderr.isEmpty, "an ordinary get afterwards: \(got)\n\(serve.stderr)\(serve.log.suffix(5))\nsshd: \(world.sshd.log.suffix(1500))",
                sourceLocation: sourceLocation)
        for line in serve.log {
            #expect(line.utf8.count < 512 && !line.contains(world.password) && line.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F },
                    "an unsound log line: \(line.prefix(600).debugDescription)", sourceLocation: sourceLocation)
        }
    }

    /// A get through a new session, again until answered or `seconds` have passed.
    func getWithin(_ seconds: Double, _ world: ForwardWorld, _ serve: ForwardServe) throws -> ProcessResult {
        let deadline = Date().addingTimeInterval(seconds)
        var got: ProcessResult
        repeat {
            got = try world.helper("get", world.request, through: serve)
        } while got.attributes["password"] == nil && Date() < deadline
        return got
    }

    struct Garbage: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let bytes: @Sendable (_ host: String) -> [UInt8]
    }

    static let garbage = [
        Garbage(testDescription: "random bytes") { _ in (0..<4096).map { _ in UInt8.random(in: 0...255) } },
        Garbage(testDescription: "an HTTP request") { _ in Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8) },
        Garbage(testDescription: "an action that is not one") { Array("git-credential-forward/1 steal\nprotocol=http\nhost=\($0)\n\n".utf8) },
        Garbage(testDescription: "another version") { Array("git-credential-forward/2 get\nprotocol=http\nhost=\($0)\n\n".utf8) },
        Garbage(testDescription: "a NUL in the host") { Array("git-credential-forward/1 get\nprotocol=http\nhost=\($0)\0.evil\n\n".utf8) },
        Garbage(testDescription: "a CR in the host") { Array("git-credential-forward/1 get\nprotocol=http\nhost=\($0)\r\n\n".utf8) },
        Garbage(testDescription: "terminal escapes in the host") { _ in Array("git-credential-forward/1 get\nprotocol=http\nhost=\u{1B}]0;owned\u{07}\u{1B}[2J\n\n".utf8) },
        Garbage(testDescription: "a 2 MiB first line") { _ in Array(repeating: UInt8(ascii: "x"), count: 2 << 20) },
        Garbage(testDescription: "a request over 1 MiB") { _ in Array("git-credential-forward/1 get\nprotocol=http\nhost=".utf8) + Array(repeating: UInt8(ascii: "x"), count: 3 << 20) + [0x0A, 0x0A] },
    ]

    @Test(arguments: garbage)
    func garbageGetsNoCredentialAndServeGoesOn(_ garbage: Garbage) throws {
        let world = try ForwardWorld(claim: .atFirstGet)
        let serve = try world.serve()
        let sent = try client(world, serve, "send", input: garbage.bytes(world.server.host))
        #expect(sent.exitCode == 0, "\(sent)")
        #expect(!sent.stdoutText.contains("answer") && !sent.stdoutText.contains(world.password), "garbage was answered: \(sent)")
        #expect(sent.stdout.isEmpty || sent.stdoutText.hasPrefix("none ") || sent.stdoutText.hasPrefix("<"), "\(sent)")
        try expectServeStillAnswers(world, serve)
    }

    /// Thousands of connections at once and in a row: each is answered (pong) or turned
    /// away (busy), none is left hanging, and serve answers afterwards.
    @Test func thousandsOfConnectionsAreAnsweredOrTurnedAway() throws {
        let world = try ForwardWorld(claim: .atFirstGet)
        let serve = try world.serve()
        let flood = try client(world, serve, "flood 2000 100")
        #expect(flood.exitCode == 0, "\(flood)")
        let outcomes = Dictionary(uniqueKeysWithValues: flood.stdoutLines.map { line in
            (String(line.split(separator: " ")[0]), Int(line.split(separator: " ")[1]) ?? 0)
        })
        // pong; none busy; or closed: serve's queue full, ssh on this side could not connect
        // and closed the remote's connection (reset, its ping unread). Never an answer, and
        // none left waiting (the client gives up on one after 30 s: a TimeoutError).
        #expect(Set(outcomes.keys).isSubset(of: ["pong", "none", "closed", "<ConnectionResetError>"]) && outcomes.values.reduce(0, +) == 2000,
                "outcomes other than pong, busy and closed: \(outcomes)\n\(serve.stderr)")
        #expect((outcomes["pong"] ?? 0) > 0, "\(outcomes)")
        try expectServeStillAnswers(world, serve)
    }

    /// Connections that never finish their request hold up nothing but themselves: with
    /// one held, a get is answered at once; with more than serve handles at once, turned
    /// away (busy) only until serve gives up on them (5 s).
    @Test func requestsThatNeverFinishDoNotHoldUpTheOthers() throws {
        let world = try ForwardWorld(claim: .atFirstGet)
        let serve = try world.serve()
        let command = "/usr/bin/python3 \(shellQuoted(forwardClient)) \(shellQuoted(world.remoteSocket))"
        let one = try world.sshd.openSession(forwarding: world.forward(to: serve), command: command + " stall 1", expecting: "stalled 1")
        let got = try world.helper("get", world.request, through: serve)
        #expect(got.attributes["password"] == world.password, "a get beside one unfinished request: \(got)")

        let many = try world.sshd.openSession(forwarding: world.forward(to: serve), command: command + " stall 40", expecting: "stalled 40")
        // Held open (the session goes on) until serve gives up on them...
        let deadline = Date().addingTimeInterval(30)
        while !serve.log.contains(where: { $0.contains("no whole request") }) && Date() < deadline { usleep(50_000) }
        #expect(serve.log.contains { $0.contains("no whole request") }, "serve did not give up on unfinished requests in 30 s: \(serve.log)")
        // ...and then answers, the 40 still open on the remote.
        let answered = try getWithin(15, world, serve)
        #expect(answered.attributes["password"] == world.password, "no answer beside 40 unfinished requests: \(answered)\n\(serve.log)")
        one.end()
        many.end()
        try expectServeStillAnswers(world, serve)
    }

    /// serve's children, by pid, and whether each has ended (a zombie not yet reaped).
    func children(of serve: ForwardServe) -> [(pid: pid_t, ended: Bool)] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the command's parentheses: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == serve.pid else { return nil }
            return (pid, fields[0] == "Z")
        }
    }

    /// A burst that filled serve's 32 places has ended: the next request is answered, not
    /// turned away as busy by children that are gone but not yet counted out. On this
    /// machine's side, straight to serve's socket (ssh's part is not what is tested).
    @Test func theFirstRequestAfterABurstEndsIsAnswered() throws {
        let world = try ForwardWorld(claim: .atFirstGet)
        let serve = try world.serve()
        let burst = try BackgroundProcess("/usr/bin/python3", [forwardClient, serve.socket, "stall", "32"], environment: world.machine.sandbox.environment)
        #expect(try burst.firstLine(timeout: 20) == "stalled 32")
        var deadline = Date().addingTimeInterval(20)
        while children(of: serve).count < 32 && Date() < deadline { usleep(10_000) }
        #expect(children(of: serve).count == 32, "serve did not take the 32: \(children(of: serve))")

        burst.stop()  // each child reads the end of its request, answers, logs, ends
        deadline = Date().addingTimeInterval(20)
        while !children(of: serve).allSatisfy(\.ended) && Date() < deadline { usleep(5_000) }
        let request = Array("git-credential-forward/1 get\n".utf8) + world.request
        let got = try world.machine.sandbox.run("/usr/bin/python3", [forwardClient, serve.socket, "send"], input: request)
        #expect(got.stdoutLines.contains("answer") && got.stdoutText.contains("password=\(world.password)\n"),
                "the first request after the burst: \(got)")
    }

    // MARK: The socket on the remote

    enum NotTheUsers: String, CaseIterable, CustomTestStringConvertible {
        case anotherUsersSocket = "another user's socket"
        case symbolicLink = "a symbolic link to a socket"
        case directoryOthersCanWrite = "a socket in a directory others can write"
        var testDescription: String { rawValue }
    }

    /// Someone else's socket where the helper looks, one that answers: refused in one line
    /// (git goes on to its next helper), and nothing is sent to it.
    @Test(arguments: NotTheUsers.allCases)
    func aSocketThatIsNotTheUsersIsRefusedInOneLine(_ situation: NotTheUsers) throws {
        let world = try ForwardWorld(claim: .atFirstGet)
        // The record of what the listener got: in the remote's HOME, where its listener can write.
        let remote = world.remote, record = world.remote.home + "/listener.record"
        try ChildProcess.writeFile(record, [], mode: 0o666)
        var socket = world.remoteSocket, option = ""
        let listener: BackgroundProcess
        func listen(at path: String, asTheRemoteUser: Bool) throws -> BackgroundProcess {
            let command = (asTheRemoteUser ? ["/usr/bin/setpriv", "--reuid=\(remote.uid)", "--regid=\(remote.gid)", "--clear-groups"] : [])
                + ["/usr/bin/python3", SourceTree.root + "/Tests/Fixtures/recording_listener.py", path, record]
            let started = try BackgroundProcess(command[0], Array(command.dropFirst()), environment: ["PATH": Sandbox.searchPath])
            #expect(try started.firstLine(timeout: 10) == "ready")
            return started
        }
        switch situation {
        case .anotherUsersSocket:
            listener = try listen(at: socket, asTheRemoteUser: false)
            lchown(socket, Sandbox.anotherUser, Sandbox.anotherUser)
        case .symbolicLink:
            listener = try listen(at: remote.home + "/elsewhere.sock", asTheRemoteUser: true)
            try FileManager.default.createSymbolicLink(atPath: socket, withDestinationPath: remote.home + "/elsewhere.sock")
            lchown(socket, remote.uid, remote.gid)
        case .directoryOthersCanWrite:
            let shared = remote.home + "/shared"
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
            chmod(shared, 0o777)
            chown(shared, remote.uid, remote.gid)
            socket = shared + "/forward.sock"
            option = "--socket \(shellQuoted(socket)) "
            listener = try listen(at: socket, asTheRemoteUser: true)
        }
        let got = try world.helper(option + "get", world.request, through: nil)
        #expect(got.exitCode == 0 && got.stdout.isEmpty, "\(got)")
        expectOneLineFailure(got, exitCode: 0, mentioning: ["git-credential-forward: ", socket, "Fix: "])
        usleep(200_000)
        #expect((contents(of: record) ?? []).isEmpty, "the helper sent its request to the socket: \(String(decoding: contents(of: record) ?? [], as: UTF8.self))")
        #expect(fileExists(socket), "the helper removed a socket that is not the user's")
        listener.stop()
    }

    /// serve reads only its own user's processes (SO_PEERCRED): a connection of another
    /// uid to its socket, made reachable here on purpose (mode 0666, as a container's
    /// bind mount may make it), gets nothing, and is logged.
    @Test func aConnectionFromAnotherUserGetsNothing() throws {
        let world = try ForwardWorld(claim: .atFirstGet)
        let socket = try world.machine.sandbox.ownDirectory() + "/serve.sock"
        let serve = try world.serve(["--socket", socket])
        #expect(serve.socket == socket)
        chmod(socket, 0o666)
        let request = Array("git-credential-forward/1 get\n".utf8) + world.request
        let python = ["/usr/bin/python3", forwardClient, socket, "send"]

        let stranger = try world.machine.sandbox.runAsAnotherUser(python[0], Array(python.dropFirst()), input: request)
        // Closed at once (a reset, or a broken pipe while it sends), not a byte of an answer.
        #expect(stranger.exitCode == 0 && !stranger.stdoutText.contains("answer") && !stranger.stdoutText.contains(world.password)
                && !stranger.stdoutText.contains("none"), "another uid was answered: \(stranger)")
        let own = try world.machine.sandbox.run(python[0], Array(python.dropFirst()), input: request)
        #expect(own.stdoutLines.contains("answer") && own.stdoutText.contains("password=\(world.password)\n"), "\(own)")
        #expect(serve.log.contains { $0.contains("uid \(Sandbox.anotherUser)") }, "\(serve.log)")
    }
}
