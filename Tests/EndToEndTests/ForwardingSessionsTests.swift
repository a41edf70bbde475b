import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// git-credential-forward across ssh sessions as people have them (issue 25, item 2): a
/// second session to the same host, a reconnect after the client was killed, a session that
/// ended without cleaning up, with sshd's StreamLocalBindUnlink either way. What sshd does
/// with the remote socket is sshd's: it binds it as the user, never removes it, and binds
/// nothing where a file is unless StreamLocalBindUnlink is yes.
@Suite(.enabled(if: sshWorldUnavailable == nil, Comment(rawValue: sshWorldUnavailable ?? "")))
struct ForwardingSessionsTests {
    /// The world itself, without our program: sshd lets the throwaway account in with the
    /// test's key, binds the remote socket as that user, and `ssh -R` carries a connection
    /// made there to a listener on this side.
    @Test func theRemoteMachineForwardsAUnixSocket() throws {
        let sandbox = try Sandbox()
        let sshd = try SSHServer(sandbox: sandbox)
        let local = sandbox.root + "/listener.sock", record = sandbox.root + "/listener.record"
        let listener = try BackgroundProcess("/usr/bin/python3", [SourceTree.root + "/Tests/Fixtures/recording_listener.py", local, record],
                                             environment: sandbox.environment)
        #expect(try listener.firstLine(timeout: 10) == "ready")
        let remote = sshd.account.home + "/forwarded.sock"
        let sent = try sshd.run("id -un && stat -c %U \(shellQuoted(remote)) && printf hello | /usr/bin/python3 \(shellQuoted(forwardClient)) \(shellQuoted(remote)) send",
                                forwarding: SSHServer.Forward(remote: remote, local: local))
        #expect(sent.exitCode == 0 && sent.stdoutLines == [sshd.account.name, sshd.account.name], "\(sent)\nsshd: \(sshd.log)")
        let deadline = Date().addingTimeInterval(10)
        while contents(of: record) == nil && Date() < deadline { usleep(20_000) }
        #expect(contents(of: record).map { String(decoding: $0, as: UTF8.self) } == "5 68656c6c6f\n")
        #expect(fileExists(remote), "sshd removed the remote socket at the session's end (the helper's dead-socket removal assumes it does not)")
    }

    /// A second session to the same host while the first is open, then the first again
    /// once the second has ended.
    @Test(arguments: SSHServer.BindUnlink.allCases)
    func aSecondSessionToTheSameHostGetsTheCredentialAndSoDoesTheFirst(_ bindUnlink: SSHServer.BindUnlink) throws {
        let world = try ForwardWorld(bindUnlink: bindUnlink)
        let serve = try world.serve()
        let first = try world.sshd.openSession(forwarding: world.forward(to: serve))

        // yes: sshd removes the first session's socket and binds the second's; no: the
        // second's forward is not bound (the path is taken) and the first's socket serves it.
        let clone = try world.clone("second", through: serve, requireForward: bindUnlink == .yes)
        #expect(clone.exitCode == 0 && clone.stderr.isEmpty, "clone in the second session: \(clone)\n\(serve.log)")

        // The first session, its `ssh -R` still running: a get there (any process of the
        // user reads the one socket path in HOME).
        let again = try world.helper("get", world.request, through: nil)
        #expect(again.attributes["password"] == world.password, "the first session lost its forward when the second ended: \(again)\nsshd: \(world.sshd.log)")
        first.end()
        world.expectNothingAtRestOnTheRemote()
    }

    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case killed = "ssh client killed (kill -9)"
        case ended = "session ended by the client"
        var testDescription: String { rawValue }
    }

    /// A session gone (its client killed, or ended) leaves its socket on the remote; the
    /// next sessions must work without the person removing it by hand.
    @Test(arguments: SSHServer.BindUnlink.allCases, Ending.allCases)
    func aReconnectAfterASessionIsGoneGetsTheCredential(_ bindUnlink: SSHServer.BindUnlink, _ ending: Ending) throws {
        let world = try ForwardWorld(bindUnlink: bindUnlink)
        let serve = try world.serve()
        let first = try world.sshd.openSession(forwarding: world.forward(to: serve))
        switch ending {
        case .killed: first.killClient()
        case .ended: first.end()
        }
        try world.remote.waitUntilNoProcesses("the first session's end on the server")
        #expect(fileExists(world.remoteSocket), "sshd removed the socket of the session that ended")

        if bindUnlink == .no {
            // sshd cannot bind the path where the dead socket is: this session has no
            // forward, its get is a silent miss, and the helper removes the dead socket...
            let unforwarded = try world.helper("get", world.request, through: serve, requireForward: false)
            expectSilentMiss(unforwarded)
            #expect(world.sshd.log.contains("Address already in use"), "sshd bound the path after all: \(world.sshd.log)")
            #expect(!fileExists(world.remoteSocket), "the helper left the dead socket: the next session cannot bind it either")
        }
        // ...so that the next session forwards it again.
        let clone = try world.clone("after-reconnect", through: serve)
        #expect(clone.exitCode == 0 && clone.stderr.isEmpty, "clone after a reconnect: \(clone)\n\(serve.log)")
        world.expectNothingAtRestOnTheRemote()
    }
}

/// The hostile client of the forwarded socket (Tests/Fixtures/forward_client.py).
let forwardClient = SourceTree.root + "/Tests/Fixtures/forward_client.py"
