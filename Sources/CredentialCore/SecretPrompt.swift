#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Asking a person for a secret the way git does: an askpass program (`GIT_ASKPASS`,
/// then `SSH_ASKPASS`) if one is set, else the terminal with echo off. Never argv,
/// never the environment; without either, no one is asked.
public enum SecretPrompt {
    static let limit = 65536

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
    public static var canAsk: Bool { askpassProgram != nil || terminalAvailable }

    /// The answer, or `nil` when there is no askpass program and no terminal.
    public static func ask(_ prompt: String) throws -> [UInt8]? {
        if let program = askpassProgram { return try runAskpass(program, prompt: prompt) }
        return try askTerminal(prompt)
    }

    static var askpassProgram: String? {
        SystemIO.environment("GIT_ASKPASS") ?? SystemIO.environment("SSH_ASKPASS")
    }

    static var terminalAvailable: Bool {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        if fd < 0 { return false }
        close(fd)
        return true
    }

    static func trimmingNewline(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        if result.last == 0x0A { result.removeLast() }
        if result.last == 0x0D { result.removeLast() }
        return result
    }

    /// Runs the askpass program with the prompt as its one argument (as git does) and
    /// takes its standard output.
    static func runAskpass(_ program: String, prompt: String) throws -> [UInt8] {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            throw HelperError(.failure, "cannot run \(program): \(SystemIO.errorText())", fix: nil)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup(prompt), nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, arguments, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else {
            throw HelperError(.failure, "cannot run the askpass program \(program): \(SystemIO.errorText(spawned))",
                              fix: "fix or unset GIT_ASKPASS / SSH_ASKPASS")
        }
        let output = SystemIO.readAll(pipeEnds[0], limit: limit)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard let output, status == 0 else {
            throw HelperError(.failure, "the askpass program \(program) gave no answer", fix: "answer its prompt, or unset GIT_ASKPASS / SSH_ASKPASS")
        }
        return trimmingNewline(output)
    }

    /// Reads one line from /dev/tty with echo off; `nil` when there is no terminal.
    static func askTerminal(_ prompt: String) throws -> [UInt8]? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var saved = termios()
        let canHideEcho = tcgetattr(fd, &saved) == 0
        if canHideEcho {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        defer {
            if canHideEcho { tcsetattr(fd, TCSAFLUSH, &saved) }
            SystemIO.writeAll(fd, "\n")
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
