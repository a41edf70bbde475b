import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// serve's own decisions, with the remote's helper talking to its socket directly (what
/// ssh's forward hands it, minus ssh: ForwardingTests has the real ssh): what an answer
/// holds, what a store from the remote does, one confirmation at a time, the log.
@Suite struct ForwardServeTests {
    /// The person's machine: a sandbox whose git asks `helper` (a shell function helper
    /// line), serve running there for the remote "build", and a remote's HOME beside it.
    final class Forward {
        let sandbox: Sandbox
        let socket: String
        let log: String
        let remoteHome: String
        private var serve: BackgroundProcess?

        init(helper: String, serveOptions: [String], environment extra: [String: String] = [:]) throws {
            sandbox = try Sandbox()
            socket = sandbox.root + "/run/build.sock"
            log = sandbox.root + "/forward.log"
            remoteHome = sandbox.root + "/remote"
            try FileManager.default.createDirectory(atPath: remoteHome, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let configured = try sandbox.git(["config", "--global", "credential.helper", helper])
            #expect(configured.exitCode == 0, "\(configured)")
            serve = try BackgroundProcess(BuiltProducts.directory + "/git-credential-forward",
                                          ["serve", "build", "--socket", socket, "--log", log] + serveOptions,
                                          environment: sandbox.environment.merging(extra) { $1 })
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(20_000) }
            #expect(FileManager.default.fileExists(atPath: socket), "serve made no socket")
        }

        /// The remote's helper, git's way: `git-credential-forward --socket S ACTION`.
        func remote(_ action: String, _ request: [UInt8]) throws -> ProcessResult {
            try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["--socket", socket, action], input: request,
                            environment: ["HOME": remoteHome])
        }

        var logLines: [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// An askpass program (SSH_ASKPASS) that records each question and says yes (exit 0)
        /// or no, after `delay` seconds.
        static func askpass(in sandbox: Sandbox, yes: Bool, delay: Int = 0) throws -> [String: String] {
            let directory = try sandbox.ownDirectory()
            let program = directory + "/askpass", asked = sandbox.root + "/asked"
            try ChildProcess.writeFile(program, Array("""
                #!/bin/sh
                printf '%s: %s\\n' "$SSH_ASKPASS_PROMPT" "$1" >> '\(asked)'
                sleep \(delay)
                exit \(yes ? 0 : 1)

                """.utf8), mode: 0o755)
            return ["SSH_ASKPASS": program, "DISPLAY": ":99", "ASKED": asked]
        }
    }

    static let helperAnswering = #"!f() { test "$1" = get && printf 'username=alice\npassword=s3cret\npassword_expiry_utc=4102444800\noauth_refresh_token=REFRESH\n'; }; f"#

    @Test func anAnswerHoldsWhatAuthenticatesAndNeverTheRefreshToken() throws {
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com"])
        let got = try forward.remote("get", wire("protocol=https", "host=example.com", "password=a-guess"))
        #expect(got.exitCode == 0 && got.stderr.isEmpty, "\(got)")
        // git 2.39 (Debian 12) passes password_expiry_utc on from 2.41 only.
        #expect(got.stdoutText.hasPrefix("username=alice\npassword=s3cret\n") && !got.stdoutText.contains("oauth_refresh_token"), "\(got)")
        #expect(forward.logLines.last?.hasSuffix(" build get https://example.com: answered user alice") == true, "\(forward.logLines)")
        #expect(!forward.logLines.joined().contains("s3cret") && !forward.logLines.joined().contains("REFRESH"))
    }

    @Test func anAnswerForAnotherHostIsNotPassedOn() throws {
        let helper = #"!f() { test "$1" = get && printf 'protocol=https\nhost=elsewhere.example\nusername=alice\npassword=s3cret\n'; }; f"#
        let forward = try Forward(helper: helper, serveOptions: ["--host", "example.com"])
        let got = try forward.remote("get", wire("protocol=https", "host=example.com"))
        #expect(got.exitCode == 0 && got.stdout.isEmpty && got.stderr.isEmpty, "\(got)")
        #expect(forward.logLines.last?.hasSuffix("a helper here answered for another protocol or host: not passed on") == true, "\(forward.logLines)")
    }

    @Test func theRemotesValuesAreQuotedInTheLog() throws {
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com"])
        let got = try forward.remote("get", wire("protocol=https", "host=example.com", "username=\u{1b}[2Jmallory\u{7}"))
        #expect(got.exitCode == 0)
        let text = try String(contentsOfFile: forward.log, encoding: .utf8)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "a control character reached the log: \(text.debugDescription)")
        #expect(text.contains(#"user "\033[2Jmallory\007""#), "\(text)")
    }

    /// git stores with every helper what it used: the remote's store of what the person's
    /// helpers hold changes nothing and asks nothing; a new password is confirmed and stored.
    @Test func aStoreOfWhatIsHeldAsksNothingAndANewOneIsConfirmedThenStored() throws {
        let sandbox = try Sandbox()
        let askpass = try Forward.askpass(in: sandbox, yes: true)
        let stored = sandbox.root + "/stored"
        let helper = #"!f() { test "$1" = get && printf 'username=alice\npassword=s3cret\n'; test "$1" = store && cat > '\#(stored)'; }; f"#
        let forward = try Forward(helper: helper, serveOptions: ["--host", "example.com", "--allow-store", "--confirm"], environment: askpass)
        _ = sandbox  // the askpass program lives in its own directory

        let same = try forward.remote("store", wire("protocol=https", "host=example.com", "username=alice", "password=s3cret"))
        #expect(same.exitCode == 0 && same.stderr.isEmpty, "\(same)")
        #expect(!FileManager.default.fileExists(atPath: stored) && !FileManager.default.fileExists(atPath: askpass["ASKED"]!))
        #expect(forward.logLines.isEmpty, "a store that changes nothing is not worth a line: \(forward.logLines)")

        let new = try forward.remote("store", wire("protocol=https", "host=example.com", "username=alice", "password=refreshed"))
        #expect(new.exitCode == 0 && new.stderr.isEmpty, "\(new)")
        #expect(try String(contentsOfFile: askpass["ASKED"]!, encoding: .utf8)
                == "confirm: Allow build to store a credential in your helpers for https://example.com user alice?\n")
        #expect(try String(contentsOfFile: stored, encoding: .utf8).contains("password=refreshed\n"))
        #expect(forward.logLines.last?.hasSuffix("store https://example.com user alice: stored by your helpers") == true, "\(forward.logLines)")
    }

    /// A remote cannot pile dialogs on the person's desktop: while one confirmation shows,
    /// another request is refused (and git there asks its next helper).
    @Test func oneConfirmationShowsAtATime() throws {
        let sandbox = try Sandbox()
        let askpass = try Forward.askpass(in: sandbox, yes: true, delay: 3)
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com", "--confirm"], environment: askpass)
        let first = try BackgroundProcess("/bin/sh", ["-c", "printf 'protocol=https\\nhost=example.com\\n\\n' | \"$0\" --socket \"$1\" get > \"$2\"",
                                                       BuiltProducts.directory + "/git-credential-forward", forward.socket, sandbox.root + "/first"],
                                          environment: forward.sandbox.environment)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: askpass["ASKED"]!) && Date() < deadline { usleep(20_000) }
        let second = try forward.remote("get", wire("protocol=https", "host=example.com"))
        #expect(second.exitCode == 0 && second.stdout.isEmpty && second.stderr.isEmpty, "\(second)")
        #expect(forward.logLines.contains { $0.hasSuffix("get https://example.com: refused: another request is waiting for your confirmation") }, "\(forward.logLines)")
        let answered = Date().addingTimeInterval(20)
        while !forward.logLines.contains(where: { $0.hasSuffix(": answered user alice") }) && Date() < answered { usleep(50_000) }
        first.stop()
        #expect(try String(contentsOfFile: sandbox.root + "/first", encoding: .utf8).hasPrefix("username=alice\npassword=s3cret\n"))
    }

    @Test func withNoOneToConfirmTheAnswerIsNo() throws {
        // No display: no one could see the question.
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com", "--confirm"])
        let got = try forward.remote("get", wire("protocol=https", "host=example.com"))
        #expect(got.exitCode == 0 && got.stdout.isEmpty && got.stderr.isEmpty, "\(got)")
        #expect(forward.logLines.last?.hasSuffix("refused: no one to confirm it: no display to ask on (DISPLAY and WAYLAND_DISPLAY are unset)") == true, "\(forward.logLines)")
    }

    @Test func aStoreTypedAtATerminalIsRefusedInOneLine() throws {
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com"])
        let session = try forward.sandbox.onTerminal([BuiltProducts.directory + "/git-credential-forward", "--socket", forward.socket, "store"],
                                                     steps: [], stdinOnTerminal: true, stdoutOnTerminal: true, stderrOnTerminal: true, seconds: 10)
        #expect(session.code == 2, "\(session)")
        #expect(session.terminal.replacingOccurrences(of: "\r", with: "") == "git-credential-forward: store reads git's request on standard input, which is a terminal here. Fix: git runs it; to try it: printf 'protocol=https\\nhost=HOST\\n\\n' | git-credential-forward get\n", "\(session)")
    }
}
