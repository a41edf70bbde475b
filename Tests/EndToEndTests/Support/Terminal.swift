import Foundation
import Testing

/// What a person at a terminal saw, and how the program ended.
struct TerminalSession {
    let terminal: String
    let stdout: String
    /// The exit status; minus the signal's number when a signal ended the program.
    let code: Int
    /// Whether the terminal echoes what is typed, once the program has ended.
    let echo: Bool
}

extension Sandbox {
    /// Runs `executable` with its stdin from `input` and /dev/tty on a pseudo-terminal that
    /// answers the prompts in order (python3 plays the person: an answer starting with ^C is
    /// typed as it is, with no Enter; "signal:N" sends signal N instead); stderr goes to the terminal
    /// too when `stderrOnTerminal`, else nowhere; stdin is the terminal too (not `input`) when
    /// `stdinOnTerminal`, as for a command a person types. GIT_TERMINAL_PROMPT is on, as for a
    /// person (the sandbox turns it off elsewhere), unless `extra` says otherwise.
    func atTerminal(_ executable: String, _ arguments: [String], input: [UInt8] = [], answers: [String],
                    stderrOnTerminal: Bool = false, stdinOnTerminal: Bool = false,
                    environment extra: [String: String] = [:]) throws -> TerminalSession {
        let requestFile = try file("request-\(UUID().uuidString)", input)
        var environment = ["GIT_TERMINAL_PROMPT": "1"].merging(extra) { $1 }
        if stderrOnTerminal { environment["STDERR_TO_TERMINAL"] = "1" }
        if stdinOnTerminal { environment["STDIN_FROM_TERMINAL"] = "1" }
        let result = try run("/usr/bin/python3", ["-c", Self.terminalDriver, requestFile, executable] + arguments,
                             input: Array(answers.map { $0 + "\n" }.joined().utf8), environment: environment)
        expectSuccess(result)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.bytes)) as? [String: Any])
        return TerminalSession(terminal: report["terminal"] as? String ?? "", stdout: report["stdout"] as? String ?? "",
                               code: report["code"] as? Int ?? -1, echo: report["echo"] as? Bool ?? false)
    }

    /// The person at the terminal, in python3: a pseudo-terminal as the controlling
    /// terminal of the helper, an answer typed after each prompt (a line ending ": " or "] "). With
    /// STDERR_TO_TERMINAL set, the helper's stderr is the terminal too.
    static let terminalDriver = #"""
    import fcntl, json, os, select, subprocess, sys, termios, time
    answers = sys.stdin.buffer.read().split(b"\n")
    master, slave = os.openpty()
    def take_terminal():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    with open(sys.argv[1], "rb") as request:
        child = subprocess.Popen(sys.argv[2:], stdin=slave if os.environ.get("STDIN_FROM_TERMINAL") else request, stdout=subprocess.PIPE, stderr=slave if os.environ.get("STDERR_TO_TERMINAL") else subprocess.DEVNULL,
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
            if pending.rstrip().endswith((b":", b"]")) and answers:
                time.sleep(0.05)
                answer = answers.pop(0)
                if answer.startswith(b"signal:"):
                    os.kill(child.pid, int(answer[7:]))
                else:
                    os.write(master, answer if answer.startswith(b"\x03") else answer + b"\n")
                pending = b""
    if child.poll() is None:
        child.kill()
    # What the program wrote just before it exited may still wait in the terminal.
    while select.select([master], [], [], 0.1)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    out = child.stdout.read()
    code = child.wait()
    # The terminal's settings as the program left them (the master reports the slave's).
    echo = bool(termios.tcgetattr(master)[3] & termios.ECHO)
    print(json.dumps({"terminal": shown.decode(errors="replace"), "stdout": out.decode(errors="replace"), "code": code, "echo": echo}))
    """#
}
