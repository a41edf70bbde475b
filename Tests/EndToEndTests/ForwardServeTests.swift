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
    }

    /// A socket someone listens on at `path` until the value is stopped.
    static func listener(at path: String, in sandbox: Sandbox) throws -> BackgroundProcess {
        let listener = try BackgroundProcess("/usr/bin/python3", ["-c", "import socket, sys, time; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); print('ready', flush=True); time.sleep(60)", path],
                                             environment: sandbox.environment)
        #expect(try listener.firstLine(timeout: 20) == "ready")
        return listener
    }

    /// A socket no one listens on any more at `path`, as a session that ended leaves one.
    static func deadSocket(at path: String, in sandbox: Sandbox) throws {
        let made = try sandbox.run("/usr/bin/python3", ["-c", "import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen()", path])
        #expect(made.exitCode == 0 && FileManager.default.fileExists(atPath: path), "\(made)")
    }

    /// A helper line that appends each action it is run with to `calls`, then runs `then`
    /// (shell, "$1" the action): whether serve ran the person's helpers at all.
    static func recording(_ calls: String, then: String = "") -> String {
        #"!f() { echo "$1" >> '"# + calls + "'; " + then + " }; f"
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

    /// git stores with every helper what it used: the remote's store of what serve answered
    /// is git's approve of that answer, passed to the person's helpers without a question
    /// or a line (so that a token one of them made is kept); a new password is confirmed
    /// and stored.
    @Test func gitsStoreOfWhatServeAnsweredIsItsApproveAndANewOneIsConfirmed() throws {
        let sandbox = try Sandbox()
        let askpass = try Confirmer(sandbox, status: 0)
        let stored = sandbox.root + "/stored"
        let helper = #"!f() { test "$1" = get && printf 'username=alice\npassword=s3cret\n'; test "$1" = store && cat >> '\#(stored)'; }; f"#
        let forward = try Forward(helper: helper, serveOptions: ["--host", "example.com", "--allow-store", "--confirm"], environment: askpass.environment)

        let got = try forward.remote("get", wire("protocol=https", "host=example.com", "path=org/app.git"))
        #expect(got.stdoutText.hasPrefix("username=alice\npassword=s3cret\n"), "\(got)")
        let same = try forward.remote("store", wire("protocol=https", "host=example.com", "path=org/app.git", "username=alice", "password=s3cret"))
        #expect(same.exitCode == 0 && same.stderr.isEmpty, "\(same)")
        #expect(try String(contentsOfFile: stored, encoding: .utf8).contains("username=alice\npassword=s3cret\n"), "git's approve did not reach the helpers")
        #expect(askpass.questions.count == 1, "the approve of serve's own answer asked again: \(askpass.questions)")
        #expect(forward.logLines.count == 2 && forward.logLines[1].contains("store https://example.com/org/app.git user alice: git's approve of what serve answered ")
                && forward.logLines[1].hasSuffix(" s ago: stored by your helpers"), "\(forward.logLines)")

        let new = try forward.remote("store", wire("protocol=https", "host=example.com", "path=org/app.git", "username=alice", "password=refreshed"))
        #expect(new.exitCode == 0 && new.stderr.isEmpty, "\(new)")
        #expect(askpass.questions.last == "confirm: Allow build to store a credential in your helpers for https://example.com/org/app.git user alice?")
        #expect(try String(contentsOfFile: stored, encoding: .utf8).contains("password=refreshed\n"))
        #expect(forward.logLines.last?.hasSuffix("store https://example.com/org/app.git user alice: stored by your helpers") == true, "\(forward.logLines)")
    }

    /// Store not allowed: a store of what serve answered is still git's approve (a token kept,
    /// so the next clone signs in no more), while any other store is refused at once, the
    /// same way whether it guesses the held password right or wrong, running none of the
    /// person's helpers (they were asked to compare: an oracle at a hundred guesses a second,
    /// and a pinentry or unlock prompt no confirmation named), and the remote is told why.
    @Test func aStoreNotAllowedIsRefusedAtOnceRunningNoHelperRightGuessOrWrong() throws {
        let sandbox = try Sandbox()
        let calls = sandbox.root + "/calls", stored = sandbox.root + "/stored"
        let helper = Self.recording(calls, then: #"test "$1" = get && printf 'username=alice\npassword=s3cret\n'; test "$1" = store && cat >> '\#(stored)';"#)
        let forward = try Forward(helper: helper, serveOptions: ["--host", "example.com"])
        var told: [String] = []
        for guess in ["s3cret", "wrong"] {
            let store = try forward.remote("store", wire("protocol=https", "host=example.com", "username=alice", "password=\(guess)"))
            #expect(store.exitCode == 0 && store.stdout.isEmpty, "\(store)")
            told.append(store.stderrText)
        }
        #expect(told[0] == told[1] && told[0] == "git-credential-forward: your machine did not store the credential for example.com used here (its serve does not allow store). Fix: store it on your machine, or serve there with --allow-store\n", "\(told)")
        #expect(!FileManager.default.fileExists(atPath: calls), "a refused store ran the person's helpers: \(String(decoding: contents(of: calls) ?? [], as: UTF8.self))")
        #expect(forward.logLines.count == 2 && forward.logLines.allSatisfy { $0.hasSuffix("not stored: store is not allowed for build (serve --allow-store allows it)") }, "\(forward.logLines)")

        // After serve answered it, git's store of the same is its approve of that answer.
        let got = try forward.remote("get", wire("protocol=https", "host=example.com"))
        #expect(got.stdoutText.hasPrefix("username=alice\npassword=s3cret\n"), "\(got)")
        // With an expiry of the remote's own (the answer had none): not passed on, else the
        // person's credential would expire.
        let approve = try forward.remote("store", wire("protocol=https", "host=example.com", "username=alice", "password=s3cret", "password_expiry_utc=4102444800"))
        #expect(approve.exitCode == 0 && approve.stderr.isEmpty, "\(approve)")
        let kept = try String(contentsOfFile: stored, encoding: .utf8)
        #expect(kept.contains("password=s3cret\n") && !kept.contains("password_expiry_utc"), "git's approve of serve's answer did not reach the helpers as answered: \(kept)")
        #expect(Output(bytes: contents(of: calls) ?? []).lines == ["get", "store"], "each asked once: \(String(decoding: contents(of: calls) ?? [], as: UTF8.self))")
        // Once: a remote that keeps an answer cannot store it back again later, over a
        // password the person changed meanwhile (an attack round's finding).
        let replay = try forward.remote("store", wire("protocol=https", "host=example.com", "username=alice", "password=s3cret"))
        #expect(replay.stderrText.contains("its serve does not allow store"), "\(replay)")
        #expect(Output(bytes: contents(of: calls) ?? []).lines == ["get", "store"], "a replayed approve reached the helpers")
    }

    /// The question names the account the request names, last and whole: a long path
    /// (tabs, control characters) is cut, never the user, and text of the remote's in the
    /// path that names another account cannot take its place (an attack round's finding).
    @Test func theQuestionEndsWithTheRealUserWhateverThePath() throws {
        let sandbox = try Sandbox()
        let askpass = try Confirmer(sandbox, status: 0)
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com", "--confirm"], environment: askpass.environment)
        let path = "acme-fork/app.git\" user alice-work?" + String(repeating: "\t", count: 100)
        let got = try forward.remote("get", wire("protocol=https", "host=example.com", "path=\(path)", "username=alice"))
        #expect(got.stdoutText.hasPrefix("username=alice\n"), "\(got)")
        let question = askpass.questions.first ?? ""
        #expect(question.hasSuffix("...(cut) user alice?") && question.count < 220, "\(question)")
    }

    /// A remote that closed its end before the question gets none on the person's desktop
    /// (a dialog for a request nobody waits for, whose yes the log called answered). serve
    /// reads the person's git configuration first (a request without a path), which gives
    /// the close time to arrive.
    @Test func noQuestionForARequestNobodyWaitsFor() throws {
        let sandbox = try Sandbox()
        let askpass = try Confirmer(sandbox, status: 0)
        let helper = #"!f() { test "$1" = get && sleep 1 && printf 'username=alice\npassword=s3cret\n'; }; f"#
        let forward = try Forward(helper: helper, serveOptions: ["--host", "example.com", "--confirm"], environment: askpass.environment)
        let gone = try sandbox.run("/usr/bin/python3", ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            s.sendall(b'git-credential-forward/1 get\\nprotocol=https\\nhost=example.com\\n\\n'); s.close()
            """, forward.socket])
        #expect(gone.exitCode == 0, "\(gone)")
        let deadline = Date().addingTimeInterval(10)
        while forward.logLines.isEmpty && Date() < deadline { usleep(50_000) }
        #expect(!askpass.asked, "asked about a request nobody waits for: \(askpass.questions)")
        #expect(forward.logLines.last?.hasSuffix("not asked: the remote closed the connection before the question") == true, "\(forward.logLines)")
    }

    /// doctor on the person's machine: without NAME it says serve runs here and which
    /// doctor checks this end (its Fix for a remote would make forward this machine's
    /// helper); with a NAME serve does not run for, it names those it runs for (a typo).
    @Test func doctorOnThePersonsMachineNamesTheForwardsThatRun() throws {
        let sandbox = try Sandbox()
        let program = BuiltProducts.directory + "/git-credential-forward"
        let serve = try BackgroundProcess(program, ["serve", "build", "--host", "example.com"], environment: sandbox.environment)
        defer { serve.stop() }
        let socket = sandbox.home + "/.cache/git-credential-forward/build/socket"
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(20_000) }
        let here = try sandbox.run(program, ["doctor"])
        #expect(here.stdoutLines.first == "warn  this machine: serve runs here for build: the checks below are of a remote's end, and their Fix is not for this machine. Fix: check this end: git-credential-forward doctor build", "\(here)")
        let typo = try sandbox.run(program, ["doctor", "biuld"])
        #expect(typo.exitCode == 1 && typo.stdoutLines.first?.contains("serve is not running for biuld (it runs for build)") == true, "\(typo)")
    }

    /// An erase must name a password or credential that is not empty: git's own store
    /// ignores the password of an erase, and `password=` erased the user there.
    @Test func anEraseWithAnEmptyPasswordIsRefused() throws {
        let sandbox = try Sandbox()
        let calls = sandbox.root + "/calls"
        let forward = try Forward(helper: Self.recording(calls), serveOptions: ["--host", "example.com", "--allow-erase"])
        for request in [wire("protocol=https", "host=example.com", "username=alice", "password="), wire("protocol=https", "host=example.com", "username=", "password=x")] {
            let erase = try forward.remote("erase", request)
            #expect(erase.exitCode == 0, "\(erase)")
        }
        #expect(!FileManager.default.fileExists(atPath: calls), "an erase naming nothing reached the helpers")
        #expect(forward.logLines.count == 2 && forward.logLines.allSatisfy { $0.hasSuffix("not erased: the request names no username and password (git's reject names both)") }, "\(forward.logLines)")
    }

    /// A directory others can add to is no place for serve's socket, sticky or not.
    @Test func serveRefusesADirectoryOthersCanWriteEvenSticky() throws {
        let sandbox = try Sandbox()
        let shared = try sandbox.ownDirectory() + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)
        let served = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["serve", "build", "--host", "example.com", "--socket", shared + "/socket"], timeout: 10)
        #expect(served.exitCode == 1 && served.stderrText.contains("\(shared), where build's socket would be, is not a directory of yours that only you can write (mode 1777"), "\(served)")
        #expect(!FileManager.default.fileExists(atPath: shared + "/socket"))
    }

    /// A remote refused in a loop fills no disk: at most 20 refusals' lines a minute, the rest
    /// counted and said with the next line; an answer, another kind of line, is written.
    @Test func refusalsAreLoggedAtMostTwentyAMinuteAndAnswersAlways() throws {
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com"])
        for _ in 0..<30 { _ = try forward.remote("get", wire("protocol=https", "host=elsewhere.example")) }
        let got = try forward.remote("get", wire("protocol=https", "host=example.com"))
        #expect(got.stdoutText.hasPrefix("username=alice\n"), "\(got)")
        // The count is said with the next line (the answer), else once a minute and at the end.
        let lines = forward.logLines
        // The minute may turn during the loop: then up to twice the bound, and fewer untold.
        let refused = lines.filter { $0.contains("is not among the hosts allowed") }.count
        let untold = lines.compactMap { line in line.range(of: "build log: ").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) ?? 0 } }.reduce(0, +)
        #expect(refused >= 20 && refused <= 40 && refused + untold == 30, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("get https://example.com: answered user alice") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("more refused requests not written (over 20 a minute of kinds said already)") } || refused == 30, "\(lines)")
    }

    /// A flood's count is said as serve stops, not left for a later request to tell; and a
    /// flood of one kind (host, user) hides no line of another kind (an attack round: the
    /// answer of the personal account, and its approve, were lost behind 120 answers).
    @Test func aFloodHidesNoOtherKindOfLineAndItsCountIsSaidAtTheEnd() throws {
        let sandbox = try Sandbox()
        let socket = try sandbox.ownDirectory() + "/socket", log = sandbox.root + "/forward.log"
        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", Self.helperAnswering]))
        let serve = try BackgroundProcess(BuiltProducts.directory + "/git-credential-forward",
                                          ["serve", "build", "--host", "example.com", "--for", "6s", "--socket", socket, "--log", log], environment: sandbox.environment)
        defer { serve.stop() }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(20_000) }
        let remote = { (request: [UInt8]) throws -> ProcessResult in
            try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["--socket", socket, "get"], input: request)
        }
        for _ in 0..<25 { _ = try remote(wire("protocol=https", "host=elsewhere.example")) }
        let other = try remote(wire("protocol=https", "host=another.example", "username=bob"))
        #expect(other.stdout.isEmpty)
        while FileManager.default.fileExists(atPath: socket) && Date() < deadline.addingTimeInterval(10) { usleep(100_000) }
        let lines = Output(bytes: contents(of: log) ?? []).lines
        #expect(lines.contains { $0.contains("get https://another.example user bob: ") }, "the other kind of line was lost: \(lines)")
        let untold = lines.compactMap { line in line.range(of: "build log: ").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) ?? 0 } }.reduce(0, +)
        #expect(lines.filter { $0.contains("elsewhere.example") }.count + untold == 25, "\(lines)")
    }

    /// Where the person's git picks the account by the repository's path (the README's two
    /// accounts), a request without one is answered by no helper: the host-wide account
    /// would be used there, and git's reject of it erase that account here (found by a new
    /// user: the personal credential erased by a clone of a work repository). The remote
    /// is told the one line that fixes it; with the path, the account is the one git here
    /// picks for the same repository.
    @Test func aRequestWithoutThePathIsRefusedWhereTheAccountDependsOnIt() throws {
        let sandbox = try Sandbox()
        let calls = sandbox.root + "/calls"
        let helper = Self.recording(calls, then: #"test "$1" = get && printf 'password=pw-%s\n' "$(sed -n 's/^username=//p')";"#)
        let forward = try Forward(helper: helper, serveOptions: ["--host", "github.com", "--allow-erase"])
        for (key, value) in [("credential.https://github.com.username", "alice"), ("credential.https://github.com/acme.username", "alice-work")] {
            #expect(try forward.sandbox.git(["config", "--global", key, value]).exitCode == 0)
        }
        for (action, path) in [("get", nil), ("erase", nil), ("get", "path="), ("get", "path=/")] as [(String, String?)] {
            let asked = try forward.remote(action, wire(["protocol=https", "host=github.com", path, "username=alice", "password=pw-alice"].compactMap { $0 }))
            #expect(asked.exitCode == 0 && asked.stdout.isEmpty, "\(asked)")
            #expect(asked.stderrText == "git-credential-forward: your machine picks the account for github.com by the repository's path, and git here sends none, so it answered nothing. Fix: git config --global credential.useHttpPath true\n", "\(asked)")
        }
        #expect(!FileManager.default.fileExists(atPath: calls), "a helper ran for a request without its path")
        #expect(forward.logLines.contains { $0.contains("erase https://github.com user alice: not answered: your git picks the account for this host by the repository's path") }, "\(forward.logLines)")

        let work = try forward.remote("get", wire("protocol=https", "host=github.com", "path=acme/app.git"))
        #expect(work.stdoutText == "username=alice-work\npassword=pw-alice-work\n", "\(work)")
        let personal = try forward.remote("get", wire("protocol=https", "host=github.com", "path=alice/dotfiles.git"))
        #expect(personal.stdoutText == "username=alice\npassword=pw-alice\n", "\(personal)")
    }

    /// Each forward has a directory of its own, which a container is given whole: serve
    /// refuses one that holds anything else (another forward's socket), before it binds.
    @Test func serveRefusesASocketDirectoryItDoesNotHaveAlone() throws {
        let sandbox = try Sandbox()
        let shared = try sandbox.ownDirectory()
        let first = try Self.listener(at: shared + "/box.sock", in: sandbox)
        defer { first.stop() }
        let served = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["serve", "build", "--host", "example.com", "--socket", shared + "/build.sock"], timeout: 10)
        #expect(served.exitCode == 1 && served.stderrText == "git-credential-forward: \(shared) holds more than build's socket (box.sock): whatever is given the directory, as a container its mount, would reach those too. Fix: give each forward a directory of its own: the default (\(sandbox.home)/.cache/git-credential-forward/build/socket), or --socket DIR/socket in a new directory\n", "\(served)")
        #expect(!FileManager.default.fileExists(atPath: shared + "/build.sock"))
    }

    /// `--for`: a forward handed to a sandbox ends by itself.
    @Test func serveForADurationStopsByItselfAndRemovesItsSocket() throws {
        let sandbox = try Sandbox()
        let socket = try sandbox.ownDirectory() + "/socket"
        let started = Date()
        let served = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["serve", "build", "--host", "example.com", "--for", "2s", "--socket", socket], timeout: 20)
        #expect(served.exitCode == 0 && Date().timeIntervalSince(started) < 15, "\(served)")
        #expect(served.stderrText.hasSuffix("git-credential-forward: stopped serving build (its --for time is up)\n") && served.stderrText.contains("; stops in 2 seconds or at Ctrl-C"), "\(served)")
        #expect(!FileManager.default.fileExists(atPath: socket))
        let wrong = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["serve", "build", "--for", "2 hours"])
        #expect(wrong.exitCode == 2 && wrong.stderrText.hasPrefix("git-credential-forward: --for 2 hours is not a duration"), "\(wrong)")
    }

    /// `--while PID`: a forward that ends with the ssh session whose LocalCommand started it.
    @Test func serveWhileAProcessRunsStopsWhenItEnds() throws {
        let sandbox = try Sandbox()
        let socket = try sandbox.ownDirectory() + "/socket"
        let session = try BackgroundProcess("/bin/sleep", ["2"], environment: sandbox.environment)
        defer { session.stop() }
        let served = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["serve", "build", "--host", "example.com", "--while", String(session.pid), "--socket", socket], timeout: 20)
        #expect(served.exitCode == 0 && served.stderrText.contains("; Ctrl-C stops, and when process \(session.pid) ends\n")
                && served.stderrText.hasSuffix("git-credential-forward: stopped serving build (process \(session.pid) ended)\n"), "\(served)")
        #expect(!FileManager.default.fileExists(atPath: socket))
        let gone = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["serve", "build", "--while", "999999999"])
        #expect(gone.exitCode == 2 && gone.stderrText == "git-credential-forward: --while 999999999: no such process. Fix: name a running process, as ssh's LocalCommand can: --while $PPID\n", "\(gone)")
    }

    /// A locked passphrase store behind serve: its log says what the store said (locked,
    /// and the unlock that fixes it), not that no helper has one.
    @Test func aLockedStoreBehindServeIsSaidInTheLog() throws {
        let forward = try Forward(helper: BuiltProducts.directory + "/git-credential-sqlite", serveOptions: ["--host", "example.com"])
        let sqlite = BuiltProducts.directory + "/git-credential-sqlite"
        let passphrase = forward.sandbox.root + "/passphrase"
        try ChildProcess.writeFile(passphrase, Array("a long enough passphrase\n".utf8), mode: 0o600)
        let made = try forward.sandbox.run(sqlite, ["--passphrase-fd", "3", "init", "--passphrase"] + SQLiteHelper.lowScryptCost, inputFiles: [3: passphrase])
        #expect(made.exitCode == 0, "\(made)")
        let stored = try forward.sandbox.run(sqlite, ["--passphrase-fd", "3", "store"], input: wire("protocol=https", "host=example.com", "username=alice", "password=s3cret"), inputFiles: [3: passphrase])
        #expect(stored.exitCode == 0, "\(stored)")
        #expect(try forward.sandbox.run(sqlite, ["lock"]).exitCode == 0)
        let got = try forward.remote("get", wire("protocol=https", "host=example.com"))
        #expect(got.exitCode == 0 && got.stdout.isEmpty, "\(got)")
        let line = forward.logLines.last ?? ""
        #expect(line.contains("get https://example.com: no helper here has one (a helper said: git-credential-sqlite: the store ") && line.contains(" is locked") && line.contains("unlock"), "\(forward.logLines)")
    }

    /// `--confirm` asks as ssh does: SSH_ASKPASS without a display when SSH_ASKPASS_REQUIRE=force,
    /// and without it, the Fix says so (it asked to set SSH_ASKPASS, which was set).
    @Test func confirmHonoursSSHAskpassRequireForce() throws {
        let sandbox = try Sandbox()
        let askpass = try Confirmer(sandbox, status: 0)
        let unforced = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["serve", "build", "--host", "github.com", "--confirm", "--socket", sandbox.root + "/run/socket"],
                                       environment: ["SSH_ASKPASS": askpass.program], timeout: 3)
        #expect(unforced.stderrText.contains("no display to ask on (DISPLAY and WAYLAND_DISPLAY are unset). Fix: run serve in your desktop session, or set SSH_ASKPASS_REQUIRE=force to use SSH_ASKPASS without a display"), "\(unforced)")
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com", "--confirm"],
                                  environment: ["SSH_ASKPASS": askpass.program, "SSH_ASKPASS_REQUIRE": "force"])
        let got = try forward.remote("get", wire("protocol=https", "host=example.com"))
        #expect(got.stdoutText.hasPrefix("username=alice\npassword=s3cret\n"), "\(got)\n\(forward.logLines)")
        #expect(askpass.questions == ["confirm: Allow build to use your credential for https://example.com?"], "\(askpass.questions)")
    }

    /// A remote cannot pile dialogs on the person's desktop: while one confirmation shows,
    /// another request is refused (and git there asks its next helper).
    @Test func oneConfirmationShowsAtATime() throws {
        let sandbox = try Sandbox()
        let askpass = try Confirmer(sandbox, status: 0, delay: 3)
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com", "--confirm"], environment: askpass.environment)
        let first = try BackgroundProcess("/bin/sh", ["-c", "printf 'protocol=https\\nhost=example.com\\n\\n' | \"$0\" --socket \"$1\" get > \"$2\"",
                                                       BuiltProducts.directory + "/git-credential-forward", forward.socket, sandbox.root + "/first"],
                                          environment: forward.sandbox.environment)
        let deadline = Date().addingTimeInterval(10)
        while !askpass.asked && Date() < deadline { usleep(20_000) }
        let second = try forward.remote("get", wire("protocol=https", "host=example.com"))
        #expect(second.exitCode == 0 && second.stdout.isEmpty && second.stderr.isEmpty, "\(second)")
        #expect(forward.logLines.contains { $0.hasSuffix("get https://example.com: refused: another request is waiting for your confirmation") }, "\(forward.logLines)")
        let answered = Date().addingTimeInterval(20)
        while !forward.logLines.contains(where: { $0.hasSuffix(": answered user alice") }) && Date() < answered { usleep(50_000) }
        first.stop()
        #expect(try String(contentsOfFile: sandbox.root + "/first", encoding: .utf8).hasPrefix("username=alice\npassword=s3cret\n"))
        // Asked before any helper runs (the log names the user they answered with).
        #expect(try String(contentsOfFile: askpass.record, encoding: .utf8) == "confirm: Allow build to use your credential for https://example.com?\n")
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

    @Test func mistakesOfAPersonGetOneLineThatLeadsSomewhere() throws {
        let sandbox = try Sandbox()
        let program = BuiltProducts.directory + "/git-credential-forward"
        let typo = try sandbox.run(program, ["serv", "build"])
        #expect(typo.exitCode == 2 && typo.stderrText == "git-credential-forward: unknown command 'serv'. Fix: did you mean 'serve'? (see git-credential-forward --help)\n", "\(typo)")
        let log = try sandbox.run(program, ["serve", "build", "--host", "github.com", "--log", sandbox.root + "/no/such/forward.log"])
        #expect(log.exitCode == 2 && log.stderrText.contains("its directory \(sandbox.root)/no/such does not exist. Fix: create it (mkdir -p"), "\(log)")
        let port = try sandbox.run(program, ["serve", "build", "--host", "github.com:99999"])
        #expect(port.exitCode == 2 && port.stderrText.contains("--host github.com:99999 is not HOST or HOST:PORT"), "\(port)")
        // serve runs until stopped: its first lines, then the end of the test's patience.
        let confirm = try sandbox.run(program, ["serve", "build", "--host", "github.com", "--confirm", "--socket", sandbox.root + "/run/socket"], timeout: 3)
        #expect(confirm.stderrText.contains("git-credential-forward: --confirm: no one can be asked here, so every request is refused: no display to ask on"), "\(confirm)")
    }

    /// git matches credential.<url>.* against PROTOCOL://HOST as written: a protocol
    /// holding "://" and a host of its own must not reach another host's helpers (found by
    /// the attack round: protocol=https://corp.internal/? with host=example.com).
    @Test(arguments: ["https://corp.internal/?", "https://corp.internal/x?", "https://corp.internal#", "HTTPS", "https:", ""])
    func aProtocolThatIsNoSchemeReachesNoHelper(_ scheme: String) throws {
        let sandbox = try Sandbox()
        let called = sandbox.root + "/corp-called"
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com", "--allow-store", "--allow-erase"])
        let corp = #"!f() { echo "$1" >> '\#(called)'; test "$1" = get && printf 'username=corp\npassword=CORP_SECRET\n'; }; f"#
        #expect(try forward.sandbox.git(["config", "--global", "credential.https://corp.internal.helper", corp]).exitCode == 0)
        for action in ["get", "store", "erase"] {
            let result = try forward.remote(action, wire("protocol=\(scheme)", "host=example.com", "username=corp", "password=STORED"))
            #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(action): \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: called), "the other host's helper ran: \(String(describing: try? String(contentsOfFile: called, encoding: .utf8)))")
        #expect(forward.logLines.count == 3 && forward.logLines.allSatisfy { $0.contains("is not a URL scheme") }, "\(forward.logLines)")
    }

    /// What the remote sends reaches the person's dialog escaped, as in the log: no escape
    /// sequence, no direction override that would make one host read as another.
    @Test func theQuestionShowsTheRemotesValuesEscaped() throws {
        let sandbox = try Sandbox()
        let askpass = try Confirmer(sandbox, status: 1)
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com", "--confirm"], environment: askpass.environment)
        let got = try forward.remote("get", wire("protocol=https", "host=example.com", "username=gh\u{202E}\u{2066}moc.live\u{1b}[1m", "path=" + String(repeating: "x", count: 5000)))
        #expect(got.exitCode == 0 && got.stdout.isEmpty, "\(got)")
        let asked = try String(contentsOfFile: askpass.record, encoding: .utf8)
        #expect(!asked.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, "\(asked.debugDescription)")
        #expect(asked.hasPrefix("confirm: Allow build to use your credential for https://example.com/xxx") && asked.count < 400, "\(asked)")
        #expect(forward.logLines.last?.hasSuffix("declined at the confirmation") == true, "\(forward.logLines)")
    }

    @Test func aStoreWithNothingToStoreAndNotARequestAreLoggedAsSuch() throws {
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com", "--allow-store"])
        let empty = try forward.remote("store", wire("protocol=https", "host=example.com", "username=alice"))
        #expect(empty.exitCode == 0 && empty.stderr.isEmpty, "\(empty)")
        #expect(forward.logLines.last?.hasSuffix("build store https://example.com user alice: nothing to store: the request holds no username and password") == true, "\(forward.logLines)")
        // Bytes that are not this protocol: a connection that asked nothing, said so.
        let garbage = try forward.sandbox.run("/usr/bin/python3", ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"GET / HTTP/1.0\\r\\n\\r\\n"); print(s.recv(100))
            """, forward.socket])
        #expect(garbage.stdoutText == "b'none bad-request\\n'\n", "\(garbage)")
        #expect(forward.logLines.last?.hasSuffix("build connection: not a request of git-credential-forward/1") == true, "\(forward.logLines)")
    }

    /// git may run a helper with an action it does not know yet: nothing done, nothing said.
    @Test func anActionOfALaterGitIsIgnoredSilently() throws {
        let sandbox = try Sandbox()
        let later = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["frobnicate"], input: wire("protocol=https", "host=example.com"))
        #expect(later.exitCode == 0 && later.stdout.isEmpty && later.stderr.isEmpty, "\(later)")
    }

    /// A socket in a directory others can write (a HOME of mode 770, whose group may have
    /// other members) is not used: they could move it away and put theirs in its place.
    @Test func aSocketInADirectoryOthersCanWriteIsRefusedInOneLine() throws {
        let sandbox = try Sandbox()
        let shared = sandbox.root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o770])
        let socket = shared + "/.git-credential-forward.sock"
        let listener = try Self.listener(at: socket, in: sandbox)
        defer { listener.stop() }
        let got = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["--socket", socket, "get"], input: wire("protocol=https", "host=example.com"))
        #expect(got.exitCode == 0 && got.stdout.isEmpty, "\(got)")
        #expect(got.stderrText == "git-credential-forward: \(shared), above \(socket), is writable by group or others (mode 0770), who could move it away. Fix: chmod go-w \(shared)\n", "\(got)")
    }

    /// A socket an earlier session left in the arrival path (it ran no git, and ~/.ssh/rc
    /// was not set up yet) kept this session's forward from binding: claim, from ~/.ssh/rc,
    /// removes it and says at once, in one line, to reconnect (found by the second day: setup's
    /// own ssh commands left one, and no later session bound until a get removed it).
    @Test func claimRemovesASocketLeftInTheWayAndSaysToReconnect() throws {
        let sandbox = try Sandbox()
        let arrival = sandbox.home + "/.git-credential-forward.sock"
        try Self.deadSocket(at: arrival, in: sandbox)
        let session = ["SSH_CONNECTION": "127.0.0.1 40000 127.0.0.1 22"]
        let claim = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["claim"], environment: session)
        #expect(claim.exitCode == 0 && claim.stdout.isEmpty, "\(claim)")
        #expect(claim.stderrText.hasPrefix("git-credential-forward: this ssh session's forward could not bind \(arrival): a socket an earlier session left was in the way (removed now). Fix: reconnect; so that a session that never runs git leaves nothing in the next one's way, add "), "\(claim)")
        #expect(claim.stderrText.hasSuffix(" claim to ~/.ssh/rc here\n"), "\(claim)")
        #expect(!FileManager.default.fileExists(atPath: arrival))

        // With claim in ~/.ssh/rc already, the Fix is to reconnect, and nothing more.
        try Self.deadSocket(at: arrival, in: sandbox)
        try FileManager.default.createDirectory(atPath: sandbox.home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try sandbox.file("home/.ssh/rc", "~/.local/bin/git-credential-forward claim\n")
        let again = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["claim"], environment: session)
        #expect(again.stderrText.hasSuffix("(removed now). Fix: reconnect\n"), "\(again)")
        // Nothing in the way, nothing said.
        let quiet = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["claim"], environment: session)
        #expect(quiet.exitCode == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
    }

    /// After a no, the remote's next request is refused without a question for a while
    /// (second attack round: ten declined requests in a row made ten dialogs). The question
    /// comes before any helper runs, so it is asked about a user no helper has too: asking
    /// the helpers first told a remote which accounts exist (a later round).
    @Test func afterANoTheRemoteIsNotAskedAboutAgainAtOnce() throws {
        let sandbox = try Sandbox()
        let askpass = try Confirmer(sandbox, status: 1)
        let calls = sandbox.root + "/calls"
        let helper = Self.recording(calls, then: #"test "$1" = get && grep -q '^username=alice$' && printf 'username=alice\npassword=s3cret\n';"#)
        let forward = try Forward(helper: helper, serveOptions: ["--host", "example.com", "--confirm"], environment: askpass.environment)
        let unknown = try forward.remote("get", wire("protocol=https", "host=example.com", "username=nobody"))
        #expect(unknown.stdout.isEmpty && askpass.questions == ["confirm: Allow build to use your credential for https://example.com user nobody?"], "\(askpass.questions)")
        // Existing or not, the same: refused, no helper run (they ran first once, and the
        // refusal told declined from nothing: an attack round's finding).
        for user in ["alice", "carol", "alice"] {
            let got = try forward.remote("get", wire("protocol=https", "host=example.com", "username=\(user)"))
            #expect(got.exitCode == 0 && got.stdout.isEmpty && got.stderr.isEmpty, "\(got)")
        }
        #expect(!FileManager.default.fileExists(atPath: calls), "a helper ran without a yes")
        #expect(try String(contentsOfFile: askpass.record, encoding: .utf8).split(separator: "\n").count == 1)
        #expect(Array(forward.logLines.suffix(4).map { String($0.split(separator: ": ", maxSplits: 1).last ?? "") })
                == ["declined at the confirmation"] + Array(repeating: "refused: you said no less than 30 seconds ago", count: 3), "\(forward.logLines)")
    }

    /// A remote can send 64 KiB values: each is cut in the log, whose lines stay short.
    @Test func theLogCutsTheRemotesLongValues() throws {
        let forward = try Forward(helper: Self.helperAnswering, serveOptions: ["--host", "example.com"])
        let long = String(repeating: "\u{1}", count: 60000)
        let got = try forward.remote("get", wire("protocol=https", "host=" + long, "username=" + long, "path=" + long))
        #expect(got.exitCode == 0 && got.stdout.isEmpty, "\(got)")
        let line = try #require(forward.logLines.last)
        #expect(line.count < 2000 && line.contains("...(60000 bytes)"), "\(line.prefix(300))")
    }

    /// The remote reads the serving end's answer whole or not at all, and passes on only
    /// what authenticates: an answer cut short, or one holding a refresh token, from a
    /// serving end that is not this program's.
    @Test(arguments: [("answer\nusername=u\npassword=pa", ""), ("answer\nusername=u\npassword=pa\noauth_refresh_token=RT\n\n", "username=u\npassword=pa\n")])
    func anAnswerIsWholeAndHoldsWhatAuthenticates(_ sent: String, _ printed: String) throws {
        let sandbox = try Sandbox()
        let socket = sandbox.root + "/fake.sock"
        let fake = try BackgroundProcess("/usr/bin/python3", ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); print("ready", flush=True)
            c, _ = s.accept(); c.recv(65536); c.sendall(sys.argv[2].encode()); c.close()
            """, socket, sent], environment: sandbox.environment)
        defer { fake.stop() }
        #expect(try fake.firstLine(timeout: 20) == "ready")
        let got = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["get"], input: wire("protocol=https", "host=example.com"),
                                  environment: ["GIT_CREDENTIAL_FORWARD_SOCKET": socket])
        #expect(got.exitCode == 0 && got.stdoutText == printed && got.stderr.isEmpty, "\(got)")
    }

    /// A socket the person named that is not one: the Fix names it again, never moves
    /// what is there (GIT_CREDENTIAL_FORWARD_SOCKET=/etc/passwd: "mv /etc/passwd ...").
    @Test func aNamedPathThatIsNoSocketIsNamedAgainNotMoved() throws {
        let sandbox = try Sandbox()
        let got = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["get"], input: wire("protocol=https", "host=example.com"),
                                  environment: ["GIT_CREDENTIAL_FORWARD_SOCKET": "/etc/passwd"])
        #expect(got.exitCode == 0 && got.stdout.isEmpty, "\(got)")
        #expect(got.stderrText == "git-credential-forward: /etc/passwd is a regular file, not a socket, so it is not used. Fix: name the forwarded socket by --socket or GIT_CREDENTIAL_FORWARD_SOCKET, or unset it\n", "\(got)")
    }

    /// serve refuses a place another user could have made before it makes anything there.
    @Test(.enabled(if: geteuid() == 0, "needs root to make a directory of another user"))
    func serveMakesNothingWhereItRefuses() throws {
        let sandbox = try Sandbox()
        let runtime = sandbox.root + "/theirs"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        chown(runtime, Sandbox.anotherUser, Sandbox.anotherUser)
        let served = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["serve", "build", "--host", "example.com"],
                                     environment: ["XDG_RUNTIME_DIR": runtime], timeout: 10)
        #expect(served.exitCode == 1 && served.stderrText.contains("\(runtime), above \(runtime)/git-credential-forward/build/socket, belongs to uid 65534"), "\(served)")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/git-credential-forward"))
    }

    /// claim, at each login, looks at every session's socket: a live one is not connected
    /// to (sshd passes each connection on to that session's ssh, which says "connect ...
    /// failed" in its terminal when serve is stopped), a dead one is still removed.
    @Test func claimConnectsToNoLiveSessionsSocket() throws {
        let sandbox = try Sandbox()
        let sessions = sandbox.home + "/.git-credential-forward"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let record = sandbox.root + "/connections"
        let watched = try BackgroundProcess("/usr/bin/python3", ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); print('ready', flush=True)
            while True:
                c, _ = s.accept(); open(sys.argv[2], 'a').write('connected\\n')
            """, sessions + "/0a0b0c0d.sock", record], environment: sandbox.environment)
        defer { watched.stop() }
        #expect(try watched.firstLine(timeout: 20) == "ready")
        try Self.deadSocket(at: sessions + "/0e0e0e0e.sock", in: sandbox)
        let arrival = try Self.listener(at: sandbox.home + "/.git-credential-forward.sock", in: sandbox)
        defer { arrival.stop() }
        let claimed = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["claim"], environment: ["SSH_CONNECTION": "127.0.0.1 40000 127.0.0.1 22"])
        #expect(claimed.exitCode == 0 && claimed.stderr.isEmpty, "\(claimed)")
        usleep(300_000)
        #expect(!FileManager.default.fileExists(atPath: record), "claim connected to a live session's socket")
        #expect(!FileManager.default.fileExists(atPath: sessions + "/0e0e0e0e.sock"), "a dead session's socket was left")
        #expect(!FileManager.default.fileExists(atPath: sandbox.home + "/.git-credential-forward.sock"), "the arrival socket was not moved on")
    }

    /// The remote's doctor with no socket: the path it looked at, and (setup guesses
    /// /home/USER) the --remote-home that makes setup print the line for this home; and
    /// whether git there sends the repository's path.
    @Test func theRemotesDoctorNamesThePathItExpectsAndTheHomeToGiveSetup() throws {
        let sandbox = try Sandbox()
        let home = sandbox.root + "/srv home/alice"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let program = BuiltProducts.directory + "/git-credential-forward"
        #expect(try sandbox.git(["config", "--global", "credential.helper", program]).exitCode == 0)
        var doctor = try sandbox.run(program, ["doctor"], environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
        let socketLine = doctor.stdoutLines.first { $0.contains(" socket: ") } ?? doctor.stdoutText
        #expect(socketLine.contains("its RemoteForward names another path than \(home)/.git-credential-forward.sock: on your machine, git-credential-forward setup NAME --remote-home '\(home)' prints the line for this one"), "\(doctor)")
        doctor = try sandbox.run(program, ["doctor"])
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("warn  paths: git here sends no repository path") && $0.hasSuffix("Fix: git config --global credential.useHttpPath true") }, "\(doctor)")
        #expect(try sandbox.git(["config", "--global", "credential.useHttpPath", "true"]).exitCode == 0)
        doctor = try sandbox.run(program, ["doctor"])
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("ok    paths: git here sends each repository's path") }, "\(doctor)")
    }

    /// A session's socket is named by a hash of SSH_CONNECTION, short enough for a socket's
    /// address whatever the addresses (IPv6's made 90-byte names: every get of such a session
    /// missed, found by the bench); where even that is too long, it stays at the arrival path.
    @Test func aSessionsSocketPathFitsASocketAddress() throws {
        let sandbox = try Sandbox()
        let session = ["SSH_CONNECTION": "2001:db8:85a3::8a2e:370:7334 54321 2001:db8:85a3::8a2e:370:7335 22"]
        let one = try Self.listener(at: sandbox.home + "/.git-credential-forward.sock", in: sandbox)
        defer { one.stop() }
        let claimed = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["claim"], environment: session)
        #expect(claimed.exitCode == 0 && claimed.stderr.isEmpty, "\(claimed)")
        let moved = try FileManager.default.contentsOfDirectory(atPath: sandbox.home + "/.git-credential-forward")
        #expect(moved.count == 1 && moved[0].count == 13 && (sandbox.home + "/.git-credential-forward/" + moved[0]).utf8.count <= 107, "\(moved)")

        // A HOME so long that no session's name fits below it: the socket stays put.
        let home = sandbox.root + "/" + String(repeating: "h", count: 75 - sandbox.root.count - 1)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let two = try Self.listener(at: home + "/.git-credential-forward.sock", in: sandbox)
        defer { two.stop() }
        let left = try sandbox.run(BuiltProducts.directory + "/git-credential-forward", ["claim"], environment: session.merging(["HOME": home]) { $1 })
        #expect(left.exitCode == 0 && left.stderr.isEmpty && FileManager.default.fileExists(atPath: home + "/.git-credential-forward.sock"), "\(left)")
    }
}
