import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// git-credential-forward end to end (issue 25): `serve` on the person's machine asking
/// their own git-credential-sqlite, the real `ssh -R` into a real sshd on loopback, and
/// real git on the remote cloning from the loopback HTTP server with `credential.helper
/// forward`. What the person's machine decides: hosts, actions, confirmation.
@Suite(.enabled(if: sshWorldUnavailable == nil, Comment(rawValue: sshWorldUnavailable ?? "")))
struct ForwardingTests {
    @Test func aCloneOnTheRemoteAsksNothingAndLeavesNoSecretThere() throws {
        let world = try ForwardWorld()
        let serve = try world.serve()
        let clone = try world.clone("project", through: serve)
        #expect(clone.exitCode == 0 && clone.stderr.isEmpty, "clone: \(clone)\nserve: \(serve.stderr) \(serve.log)\n\(world.server.log)")
        #expect(fileExists(world.remote.home + "/project/.git"), "no clone on the remote")
        world.expectNothingAtRestOnTheRemote()

        // Its get answered; the store git sends after the clone worked is git's approve of
        // that answer, said as such (it changes nothing: the same credential); the password
        // in no line.
        let log = serve.waitForLog(lines: 2)
        #expect(log.contains { $0.contains(" remote get http://\(world.server.host)") && $0.contains(": answered") && $0.contains("alice") }, "\(log)")
        #expect(log.filter { $0.contains(" store ") }.allSatisfy { $0.contains(": git's approve of what serve answered ") }, "\(log)")
        #expect(!log.joined().contains(world.password), "the log holds the password: \(log)")
        #expect(try world.personsPassword() == world.password)
    }

    /// Nor in any process's argv or environment, on either end, while the clone runs
    /// (the server answers slowly, so that the clients are there to be seen).
    @Test func noProcessHoldsThePasswordInItsArgumentsOrEnvironment() throws {
        let world = try ForwardWorld(responseDelay: 0.5)
        let serve = try world.serve()
        let (clone, report) = try ProcessSampler.watching(secrets: ["password": world.password]) {
            try world.clone("project", through: serve)
        }
        #expect(clone.exitCode == 0, "clone: \(clone)")
        #expect(report.findings.isEmpty, "\(report)")
        #expect(report.programs.isSuperset(of: ["git-credential-forward", "git-remote-http"]), "the sampler saw neither end: \(report.programs.sorted())")
    }

    /// `--host` decides; the request's host is compared without regard to case, and HOST
    /// allows every port of it, HOST:PORT that port only.
    @Test(arguments: [("127.0.0.2", false), ("127.0.0.1:1", false), ("127.0.0.1", true), ("localhost", false)])
    func onlyTheHostsAllowedAreAnswered(allowed: String, answered: Bool) throws {
        let world = try ForwardWorld()
        let serve = try world.serve(["--host", allowed])
        let got = try world.helper("get", world.request, through: serve)
        if answered {
            #expect(got.exitCode == 0 && got.attributes["password"] == world.password && got.stderr.isEmpty, "\(got)")
        } else {
            expectSilentMiss(got)
            let log = serve.waitForLog(lines: 1)
            #expect(log.last?.contains("http://\(world.server.host)") == true && log.last?.contains("--host \(world.server.host)") == true,
                    "the log does not say which host was asked and how to allow it: \(log)")
        }
    }

    @Test func serveWithNoHostAnswersNothingAndSaysHowToAllowOne() throws {
        let world = try ForwardWorld()
        let serve = try ForwardServe(machine: world.machine, name: "remote", [])
        #expect(serve.stderr.contains("no host"), "\(serve.stderr)")
        let clone = try world.clone("project", through: serve)
        #expect(clone.exitCode != 0 && !fileExists(world.remote.home + "/project/.git"), "cloned with no host allowed: \(clone)")
        let log = serve.waitForLog(lines: 1)
        #expect(log.first?.contains("--host \(world.server.host)") == true, "\(log)")
    }

    /// The person's store after the remote's `git credential approve` (a token refreshed
    /// there) and `reject` (a password its server refused): untouched unless serve allows them.
    @Test func storeAndEraseFromTheRemoteChangeTheStoreOnlyWhereAllowed() throws {
        let world = try ForwardWorld()
        let newer = wire("protocol=http", "host=\(world.server.host)", "username=alice", "password=refreshed-on-the-remote")
        let rejected = wire("protocol=http", "host=\(world.server.host)", "username=alice", "password=\(world.password)")

        // Refused, and the remote told why in one line (else git said only "Authentication
        // failed" there, run after run, of a password stale on the person's machine).
        let refusing = try world.serve()
        var told = try world.credential("approve", newer, through: refusing)
        #expect(told.exitCode == 0 && told.stderrText.hasSuffix("(its serve does not allow store). Fix: store it on your machine, or serve there with --allow-store\n"), "\(told)")
        #expect(try world.personsPassword() == world.password, "a store not allowed changed the person's store")
        told = try world.credential("reject", rejected, through: refusing)
        #expect(told.exitCode == 0 && told.stderrText.hasSuffix("the server refused (its serve does not allow erase), so the next command gets it again. Fix: change or remove it on your machine, or serve there with --allow-erase\n"), "\(told)")
        #expect(try world.personsPassword() == world.password, "an erase not allowed changed the person's store")
        let refusals = refusing.waitForLog(lines: 2)
        #expect(refusals.count == 2 && refusals[0].contains("--allow-store") && refusals[1].contains("--allow-erase"), "\(refusals)")
        refusing.stop()

        let allowing = try world.serve(["--allow-store", "--allow-erase"])
        told = try world.credential("approve", newer, through: allowing)
        expectSuccess(told)
        #expect(try world.personsPassword() == "refreshed-on-the-remote", "an allowed store did not reach the person's store")
        told = try world.credential("reject", wire("protocol=http", "host=\(world.server.host)", "username=alice", "password=refreshed-on-the-remote"),
                                    through: allowing)
        expectSuccess(told)
        #expect(try world.personsPassword() == nil, "an allowed erase did not reach the person's store")
        world.expectNothingAtRestOnTheRemote()
    }

    // MARK: Confirmation

    @Test func aConfirmedRequestIsAnsweredAndTheQuestionNamesTheRemoteAndTheHost() throws {
        let world = try ForwardWorld()
        let yes = try Confirmer(world.machine.sandbox, status: 0)
        let serve = try world.serve(["--confirm"], environment: ["SSH_ASKPASS": yes.program, "DISPLAY": ":99"])
        let got = try world.helper("get", world.request, through: serve)
        #expect(got.attributes["password"] == world.password && got.stderr.isEmpty, "\(got)\n\(serve.log)")
        #expect(yes.questions.count == 1 && yes.questions.first?.hasPrefix("confirm: ") == true, "\(yes.questions)")
        #expect(yes.questions.first.map { $0.contains("remote") && $0.contains(world.server.host) } == true, "\(yes.questions)")
    }

    enum NoConfirmation: String, CaseIterable, CustomTestStringConvertible {
        case declined = "the askpass says no"
        case noProgram = "no askpass program"
        case noDisplay = "an askpass but no display"
        var testDescription: String { rawValue }
    }

    @Test(arguments: NoConfirmation.allCases)
    func withNoYesTheRemoteGetsNothing(_ situation: NoConfirmation) throws {
        let world = try ForwardWorld()
        let confirmer = try Confirmer(world.machine.sandbox, status: situation == .declined ? 1 : 0)
        let environment: [String: String] = switch situation {
        case .declined: ["SSH_ASKPASS": confirmer.program, "DISPLAY": ":99"]
        case .noProgram: ["DISPLAY": ":99"]  // and no ssh-askpass on the sandbox's PATH
        case .noDisplay: ["SSH_ASKPASS": confirmer.program]
        }
        let serve = try world.serve(["--confirm"], environment: environment)
        expectSilentMiss(try world.helper("get", world.request, through: serve))
        #expect(confirmer.questions.count == (situation == .declined ? 1 : 0), "\(confirmer.questions)")
        let log = serve.waitForLog(lines: 1)
        #expect(log.first?.contains("declined") == true || log.first?.contains("no one to confirm") == true, "\(log)")
    }

    // MARK: No one serving

    /// serve stopped (its socket removed as it ends), the session still forwarding to it:
    /// the remote's get is a silent miss, and git goes on to its next helper.
    @Test func whenServeIsStoppedGitGoesOnToItsNextHelper() throws {
        let world = try ForwardWorld()
        let serve = try world.serve()
        serve.stop()
        #expect(!fileExists(serve.socket), "serve left its socket behind")

        expectSilentMiss(try world.helper("get", world.request, through: serve))
        // Fast: ssh on this side finds no one and closes the remote's connection, and the
        // helper ends on that, not after its 5 s wait for an answer (its trace says which).
        let traced = try world.helper("get", world.request, through: serve, environment: ["GIT_CREDENTIAL_TRACE": "1"])
        #expect(traced.stderrText.contains("connection") && !traced.stderrText.contains("no answer within"), "\(traced)")
        let next = "credential.helper=!f() { test \"$1\" = get && printf 'username=alice\\npassword=%s\\n' \(shellQuoted(world.password)); }; f"
        let clone = try world.clone("project", through: serve, config: [next])
        #expect(clone.exitCode == 0 && clone.stderr.isEmpty, "clone: \(clone)")
    }

    /// doctor on the remote, in a session: whether the other end answers through the
    /// forwarded socket, and what to do when it does not.
    @Test func doctorOnTheRemoteSaysWhetherServeAnswers() throws {
        let world = try ForwardWorld()
        let serve = try world.serve()
        let answering = try world.helper("doctor", [], through: serve)
        #expect(answering.exitCode == 0 && answering.stdoutLines.contains { $0.hasPrefix("ok  ") && $0.contains("socket") && $0.contains("answers") },
                "\(answering)")
        #expect(answering.stdoutLines.contains { $0.hasPrefix("ok  ") && $0.contains("git config") }, "\(answering)")

        let unforwarded = try world.helper("doctor", [], through: nil)
        // The forward cannot work: a FAIL, and doctor's exit code says so to a script.
        #expect(unforwarded.exitCode == 1 && unforwarded.stdoutLines.contains { $0.hasPrefix("FAIL") && $0.contains("no forward") && $0.contains("Fix: ") }, "\(unforwarded)")

        serve.stop()
        let stopped = try world.helper("doctor", [], through: serve)
        #expect(stopped.exitCode == 1 && stopped.stdoutLines.contains { $0.hasPrefix("FAIL") && $0.contains("nothing answers") && $0.contains("Fix: ") },
                "\(stopped)")
        #expect(!stopped.stdoutText.contains("no answer within"), "doctor waited for an answer from no one: \(stopped)")
    }

    /// No forward at all (a session without -R): nothing there, a silent miss.
    @Test func withNoSocketOnTheRemoteAGetIsASilentMiss() throws {
        let world = try ForwardWorld()
        expectSilentMiss(try world.helper("get", world.request, through: nil))
        #expect(!fileExists(world.remoteSocket))
    }
}
