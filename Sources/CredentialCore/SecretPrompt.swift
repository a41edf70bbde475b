import CProcess

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Asking a person for a secret the way git does: an askpass program (`GIT_ASKPASS`,
/// then `SSH_ASKPASS`) if one is set, else the terminal with echo off unless
/// GIT_TERMINAL_PROMPT says no. Never argv, never the environment; without either, no
/// one is asked.
public enum SecretPrompt {
    static let limit = 65536

    /// False while completing a shell word: nothing may ask a person then (no passphrase
    /// prompt, no keyring unlock prompt); what needs one is left out.
    nonisolated(unsafe) public static var allowed = true

    /// A secret from an inherited file descriptor (`--passphrase-fd N`): read to EOF,
    /// one trailing newline removed.
    public static func read(fd: Int32) throws -> [UInt8] {
        guard let bytes = SystemIO.readAll(fd, limit: limit) else {
            throw HelperError(.usage, "cannot read the passphrase from file descriptor \(fd): \(SystemIO.errorText())",
                              fix: "open that descriptor for reading, e.g. 3< file")
        }
        return trimmingNewline(bytes)
    }

    /// Whether `ask` could reach anyone.
    public static var canAsk: Bool { allowed && (askpassProgram != nil || terminalAvailable) }

    /// The answer, or `nil` when there is no askpass program and no terminal.
    public static func ask(_ prompt: String) throws -> [UInt8]? {
        guard allowed else { return nil }
        if let program = askpassProgram { return try runAskpass(program, prompt: prompt) }
        return askTerminal(prompt)
    }

    static var askpassProgram: String? {
        SystemIO.environment("GIT_ASKPASS") ?? SystemIO.environment("SSH_ASKPASS")
    }

    /// Whether the terminal may be asked and there is one (PromptPlace's rule).
    public static var terminalAvailable: Bool { PromptPlace.here.terminal }

    static func trimmingNewline(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        if result.last == 0x0A { result.removeLast() }
        if result.last == 0x0D { result.removeLast() }
        return result
    }

    /// Runs the askpass program with the prompt as its one argument (as git does) and
    /// takes its standard output.
    static func runAskpass(_ program: String, prompt: String) throws -> [UInt8] {
        let variable = SystemIO.environment("GIT_ASKPASS") != nil ? "GIT_ASKPASS" : "SSH_ASKPASS"
        guard let path = try Subprocess.named(by: variable, program),
              let result = Subprocess.run(path, [prompt], collectErrors: false, limit: limit) else {
            throw HelperError(.failure, "cannot run the askpass program \(program): \(SystemIO.errorText())",
                              fix: "fix or unset GIT_ASKPASS / SSH_ASKPASS")
        }
        guard result.succeeded, result.output.count <= limit else {
            throw HelperError(.failure, "the askpass program \(program) gave no answer", fix: "answer its prompt, or unset GIT_ASKPASS / SSH_ASKPASS")
        }
        return trimmingNewline(result.output)
    }

    /// A yes/no question on the terminal (never askpass: a confirmation is not a secret
    /// a program should answer). `nil` when there is no terminal; true only for "y" or "yes".
    public static func confirm(_ question: String) -> Bool? {
        guard allowed, let answer = askTerminal(question, echo: true) else { return nil }
        return ["y", "yes"].contains(String(decoding: answer, as: UTF8.self).lowercased())
    }

    /// Reads one line from /dev/tty, with echo off unless `echo`; `nil` when there is no terminal.
    static func askTerminal(_ prompt: String, echo: Bool = false) -> [UInt8]? {
        guard PromptPlace.here.terminalAllowed else { return nil }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var saved = termios()
        let hidesEcho = !echo && tcgetattr(fd, &saved) == 0
        if hidesEcho {
            // Before echo goes off: Ctrl-C or a kill at the prompt must not leave the
            // terminal without echo for the shell and whatever runs next.
            cterminal_guard(fd, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer {
            if hidesEcho {
                tcsetattr(fd, TCSAFLUSH, &saved)
                cterminal_release()
                SystemIO.writeAll(fd, "\n")
            }
        }
        SystemIO.writeAll(fd, prompt)
        var line: [UInt8] = []
        var byte: [UInt8] = [0]
        while line.count < limit {
            let count = SystemIO.readSome(fd, into: &byte)
            if count <= 0 || byte[0] == 0x0A { break }
            line.append(byte[0])
        }
        return trimmingNewline(line)
    }
}
