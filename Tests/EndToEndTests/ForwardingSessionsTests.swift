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

    enum Order: String, CaseIterable, CustomTestStringConvertible {
        case newerEndsFirst = "the newer session ends first"
        case olderEndsFirst = "the older session ends first"
        var testDescription: String { rawValue }
    }

    /// Two sessions to the same host at once: a clone in them gets the credential; then
    /// one ends, and the other must still get it.
    ///
    /// Both share the one socket path in HOME, and only one listener is there: with
    /// StreamLocalBindUnlink yes, sshd removes the older session's socket and binds the
    /// newer's; with no, the newer's forward is not bound and the older's serves both.
    /// When the session holding the listener ends, the other one is left with a dead socket
    /// (or none): a known limitation of one fixed path, listed as a known issue below.
    @Test(arguments: SSHServer.BindUnlink.allCases, Order.allCases)
    func twoSessionsToTheSameHostGetTheCredential(_ bindUnlink: SSHServer.BindUnlink, _ order: Order) throws {
        let world = try ForwardWorld(bindUnlink: bindUnlink)
        let serve = try world.serve()
        let older = try world.sshd.openSession(forwarding: world.forward(to: serve))
        let newer = try world.sshd.openSession(forwarding: world.forward(to: serve), requireForward: bindUnlink == .yes)
        let processes = world.remote.processes.count

        // A shell of either session: any process of the user reads the one path in HOME.
        let clone = try world.clone("with-two-sessions", through: nil)
        #expect(clone.exitCode == 0 && clone.stderr.isEmpty, "clone with two sessions open: \(clone)\n\(serve.log)")

        let (ending, left) = order == .newerEndsFirst ? (newer, older) : (older, newer)
        ending.end()
        try world.remote.waitUntilNoProcesses(but: processes / 2, "one of two sessions ended")
        let holderEnded = (bindUnlink == .yes) == (order == .newerEndsFirst)
        try withKnownIssue("the session left gets nothing once the one whose socket sshd bound has ended (one fixed path in HOME)") {
            let got = try world.helper("get", world.request, through: nil)
            #expect(got.attributes["password"] == world.password, "the session left lost its forward: \(got)\nsshd: \(world.sshd.log)")
        } when: { holderEnded }
        left.end()
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
