import Foundation
import Testing

/// What a person at a terminal saw, and how the program ended.
struct TerminalSession: CustomStringConvertible {
    let terminal: String
    let stdout: String
    /// The exit status; minus the signal's number when a signal ended the program.
    let code: Int
    /// Whether the terminal echoes what is typed, once the program has ended.
    let echo: Bool
    /// How many of the person's steps were taken (typed, or waited for) before the end.
    let steps: Int

    var description: String { "code \(code), \(steps) steps, terminal \(terminal.debugDescription), stdout \(stdout.debugDescription)" }
}

/// One thing the person at the terminal does: wait until the program shows `after` (nil:
/// a prompt, a line ending in ":" or "]"), pause, then type `text` (nothing: only wait), or
/// send `signal` to the program instead.
struct TerminalStep {
    var after: String?
    var pause = 0.05
    var text = ""
    var signal: Int32?

    /// Answers a prompt: typed with Enter, except one starting with ^C (typed as it is);
    /// "signal:N" sends signal N instead.
    static func answer(_ answer: String) -> TerminalStep {
        if answer.hasPrefix("signal:"), let number = Int32(answer.dropFirst("signal:".count)) {
            return TerminalStep(after: nil, signal: number)
        }
        return TerminalStep(after: nil, text: answer.hasPrefix("\u{03}") ? answer : answer + "\n")
    }

    var json: [String: Any] {
        var step: [String: Any] = ["pause": pause, "text": text]
        if let after { step["after"] = after }
        if let signal { step["signal"] = Int(signal) }
        return step
    }
}

extension Sandbox {
    /// Runs `command` (a path or a name on PATH) on a pseudo-terminal that is its
    /// controlling terminal (/dev/tty) and takes `steps` in order as the output asks for
    /// them (python3 plays the person). stdin is `input` unless `stdinOnTerminal`; stdout a
    /// pipe (`TerminalSession.stdout`) unless `stdoutOnTerminal`; stderr the terminal when
    /// `stderrOnTerminal`, else nowhere. The one pseudo-terminal of the tests: prompts,
    /// interactive shells and pinentry all run here. At most `seconds`, then the program
    /// is killed.
    func onTerminal(_ command: [String], input: [UInt8] = [], steps: [TerminalStep],
                    stdinOnTerminal: Bool = false, stdoutOnTerminal: Bool = false, stderrOnTerminal: Bool = false,
                    seconds: Double = 20, environment: [String: String] = [:]) throws -> TerminalSession {
        let requestFile = try file("request-\(UUID().uuidString)", input)
        let config: [String: Any] = [
            "argv": command, "stdin": stdinOnTerminal ? NSNull() : requestFile as Any,
            "stdout_on_terminal": stdoutOnTerminal, "stderr_on_terminal": stderrOnTerminal,
            "steps": steps.map(\.json), "seconds": seconds,
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
        let result = try run("/usr/bin/python3", ["-c", Self.terminalDriver, json], environment: environment, timeout: seconds + 30)
        expectSuccess(result)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.bytes)) as? [String: Any])
        return TerminalSession(terminal: report["terminal"] as? String ?? "", stdout: report["stdout"] as? String ?? "",
                               code: report["code"] as? Int ?? -1, echo: report["echo"] as? Bool ?? false,
                               steps: report["steps"] as? Int ?? 0)
    }

    /// Runs `executable` with its stdin from `input` and /dev/tty on a pseudo-terminal that
    /// answers the prompts in order (`TerminalStep.answer`); stderr goes to the terminal
    /// too when `stderrOnTerminal`, else nowhere; stdin is the terminal too (not `input`) when
    /// `stdinOnTerminal`, as for a command a person types. GIT_TERMINAL_PROMPT is on, as for a
    /// person (the sandbox turns it off elsewhere), unless `extra` says otherwise.
    func atTerminal(_ executable: String, _ arguments: [String], input: [UInt8] = [], answers: [String],
                    stderrOnTerminal: Bool = false, stdinOnTerminal: Bool = false,
                    environment extra: [String: String] = [:]) throws -> TerminalSession {
        try onTerminal([executable] + arguments, input: input, steps: answers.map(TerminalStep.answer),
                       stdinOnTerminal: stdinOnTerminal, stderrOnTerminal: stderrOnTerminal,
                       environment: ["GIT_TERMINAL_PROMPT": "1"].merging(extra) { $1 })
    }

    /// The person at the terminal, in python3: a pseudo-terminal as the controlling
    /// terminal of the program, each step taken once what it waits for was shown since the
    /// step before; then what the program wrote before it exited, its status and the
    /// terminal's echo setting, as JSON.
    static let terminalDriver = #"""
    import fcntl, json, os, select, subprocess, sys, termios, time
    config = json.loads(sys.argv[1])
    steps, taken = config["steps"], 0
    master, slave = os.openpty()
    def take_terminal():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    stdin = slave if config["stdin"] is None else open(config["stdin"], "rb")
    child = subprocess.Popen(config["argv"], stdin=stdin,
                             stdout=slave if config["stdout_on_terminal"] else subprocess.PIPE,
                             stderr=slave if config["stderr_on_terminal"] else subprocess.DEVNULL,
                             preexec_fn=take_terminal, pass_fds=(slave,))
    os.close(slave)
    shown, pending, deadline = b"", b"", time.time() + config["seconds"]
    def due(step):
        # The rest of what was shown after the awaited text, for the next step; None: not yet.
        if "after" not in step:
            return b"" if pending.rstrip().endswith((b":", b"]")) else None
        at = pending.find(step["after"].encode())
        return None if at < 0 else pending[at + len(step["after"].encode()):]
    def read(seconds):
        # What the terminal shows next: b"" when nothing came within `seconds`, None once it closed.
        if not select.select([master], [], [], seconds)[0]:
            return b""
        try:
            return os.read(master, 4096) or None
        except OSError:
            return None
    while child.poll() is None and time.time() < deadline:
        while steps and due(steps[0]) is not None:
            step = steps.pop(0)
            pending = due(step)
            time.sleep(step["pause"])
            if "signal" in step:
                os.kill(child.pid, step["signal"])
            elif step["text"]:
                os.write(master, step["text"].encode())
            taken += 1
        chunk = read(0.05)
        if chunk is None:
            break
        shown += chunk
        pending += chunk
    if child.poll() is None:
        child.kill()
    # What the program wrote just before it exited may still wait in the terminal.
    while chunk := read(0.1):
        shown += chunk
    out = child.stdout.read() if child.stdout else b""
    code = child.wait()
    # The terminal's settings as the program left them (the master reports the slave's).
    echo = bool(termios.tcgetattr(master)[3] & termios.ECHO)
    print(json.dumps({"terminal": shown.decode(errors="replace"), "stdout": out.decode(errors="replace"),
                      "code": code, "echo": echo, "steps": taken}))
    """#
}
