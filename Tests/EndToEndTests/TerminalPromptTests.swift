import Foundation
import Testing

/// The passphrase asked on the terminal (/dev/tty, echo off), as a person at a
/// terminal sees it. A pseudo-terminal driven by python3 plays the person: it waits for
/// each prompt before typing the answer, as someone would.
@Suite struct TerminalPromptTests {
    let sandbox: Sandbox
    let helper: SQLiteHelper

    init() throws {
        sandbox = try Sandbox()
        helper = sandbox.sqlite()
    }

    static let credential = wire("protocol=https", "host=tty.example", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=tty.example")

    /// Runs the helper with its stdin from `input` and /dev/tty on a pseudo-terminal that
    /// answers the prompts in order; returns what the terminal showed, stdout, and the exit code.
    func atTerminal(_ arguments: [String], input: [UInt8] = [], answers: [String]) throws -> (terminal: String, stdout: String, code: Int) {
        let requestFile = try sandbox.file("request-\(UUID().uuidString)", input)
        let result = try sandbox.run(
            "/usr/bin/python3", ["-c", Self.driver, requestFile, BuiltProducts.sqliteHelper] + arguments,
            input: Array(answers.map { $0 + "\n" }.joined().utf8))
        expectSuccess(result)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.bytes)) as? [String: Any])
        return (report["terminal"] as? String ?? "", report["stdout"] as? String ?? "", report["code"] as? Int ?? -1)
    }

    @Test func initAndUnlockAskOnTheTerminalWithoutEcho() throws {
        let created = try atTerminal(["init", "--passphrase", "--scrypt-cost", "10"], answers: ["tty phrase", "tty phrase"])
        #expect(created.code == 0)
        #expect(created.terminal.contains("New passphrase for") && created.terminal.contains("Repeat the passphrase"))
        #expect(!created.terminal.contains("tty phrase"), "the passphrase was echoed")

        let unlocked = try atTerminal(["unlock", "--timeout", "60"], answers: ["tty phrase"])
        #expect(unlocked.code == 0)
        try helper.storeAll(Self.credential)
        #expect(try helper.get(Self.lookup).stdoutLines.contains("password=alice-secret"))
        _ = try helper("lock")
    }

    @Test func getAsksWhenLockedAndATerminalIsThere() throws {
        _ = try atTerminal(["init", "--passphrase", "--scrypt-cost", "10"], answers: ["tty phrase", "tty phrase"])
        let store = try atTerminal(["store"], input: Self.credential, answers: ["tty phrase"])
        #expect(store.code == 0)
        let found = try atTerminal(["get"], input: Self.lookup, answers: ["tty phrase"])
        #expect(found.code == 0)
        #expect(found.stdout == "username=alice\npassword=alice-secret\n")
        #expect(found.terminal.contains("Passphrase for"))
    }

    @Test func twoDifferentNewPassphrasesAreRefused() throws {
        let created = try atTerminal(["init", "--passphrase", "--scrypt-cost", "10"], answers: ["one phrase", "another"])
        #expect(created.code == 2)
        #expect(!fileExists(sandbox.database))
    }

    /// The person at the terminal, in python3: a pseudo-terminal as the controlling
    /// terminal of the helper, an answer typed after each prompt (a line ending ": ").
    static let driver = #"""
    import fcntl, json, os, select, subprocess, sys, termios, time
    answers = sys.stdin.buffer.read().split(b"\n")
    master, slave = os.openpty()
    def take_terminal():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    with open(sys.argv[1], "rb") as request:
        child = subprocess.Popen(sys.argv[2:], stdin=request, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 preexec_fn=take_terminal, pass_fds=(slave,))
    os.close(slave)
    shown, pending, deadline = b"", b"", time.time() + 20
    while child.poll() is None and time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            shown += chunk
            pending += chunk
            if pending.rstrip().endswith(b":") and answers:
                time.sleep(0.05)
                os.write(master, answers.pop(0) + b"\n")
                pending = b""
    if child.poll() is None:
        child.kill()
    out = child.stdout.read()
    print(json.dumps({"terminal": shown.decode(errors="replace"), "stdout": out.decode(errors="replace"), "code": child.wait()}))
    """#
}
