#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs another program (git, an askpass program, a sibling helper) and collects what it
/// writes. Arguments go to execve as they are: no shell, so nothing in them is
/// interpreted. Standard input is `input` when given, else inherited (askpass needs the
/// terminal); stderr is collected when asked, else inherited.
public enum Subprocess {
    public struct Result: Sendable {
        public var status: Int32
        public var output: [UInt8]
        public var errors: [UInt8]
        /// It ran out of its time and was killed (see `run`'s `timeoutSeconds`).
        public var timedOut = false

        public var succeeded: Bool { status == 0 }
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        /// The last line of stderr, for a one-line message (git's `fatal: ...`).
        public var lastErrorLine: String {
            String(decoding: errors, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "exit status \(status)"
        }
    }

    /// `nil` when the program cannot be started (not found, not executable). With
    /// `timeoutSeconds`, a child still running then is killed (SIGKILL): a program that may
    /// wait for someone (gpg's pinentry) cannot hang the helper.
    public static func run(_ program: String, _ arguments: [String], input: [UInt8]? = nil,
                           collectErrors: Bool = true, limit: Int = 1 << 30, timeoutSeconds: Int? = nil) -> Result? {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard privatePipe(&outPipe), !collectErrors || privatePipe(&errPipe), input == nil || privatePipe(&inPipe) else {
            for fd in outPipe + errPipe + inPipe where fd >= 0 { close(fd) }
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        if collectErrors { posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2) }
        if input != nil { posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        for fd in [outPipe[1], errPipe[1], inPipe[0]] where fd >= 0 { close(fd) }
        defer { for fd in [outPipe[0], errPipe[0]] where fd >= 0 { close(fd) } }
        if let input, inPipe[1] >= 0 {
            // Input is small (a request); the child reads it before writing much.
            if spawned == 0 { SystemIO.writeAll(inPipe[1], input) }
            close(inPipe[1])
        }
        guard spawned == 0 else { return nil }
        let deadline = timeoutSeconds.map { monotonicMilliseconds() + Int64($0) * 1000 }
        let (output, errors, timedOut) = collect(outPipe[0], errPipe[0], limit: limit, deadline: deadline)
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exitStatus, output: output, errors: errors, timedOut: timedOut)
    }

    /// A pipe whose ends are not inherited by this or any other child (pipe2 with
    /// O_CLOEXEC is not visible to Swift without _GNU_SOURCE).
    static func privatePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Reads both pipes to EOF at once, so a child filling one never blocks on the other.
    /// Past `deadline` (monotonic milliseconds) it stops, saying so: what the child
    /// started (gpg-agent) may hold the pipes open long after.
    static func collect(_ out: Int32, _ err: Int32, limit: Int, deadline: Int64? = nil) -> ([UInt8], [UInt8], Bool) {
        var buffers: [[UInt8]] = [[], []]
        var fds = [pollfd(fd: out, events: Int16(POLLIN), revents: 0), pollfd(fd: err, events: Int16(POLLIN), revents: 0)]
        var chunk = [UInt8](repeating: 0, count: 16384)
        while fds.contains(where: { $0.fd >= 0 }) {
            let wait = deadline.map { Int32(clamping: max(0, $0 - monotonicMilliseconds())) } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 && wait >= 0 { return (buffers[0], buffers[1], true) }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = SystemIO.readSome(fds[index].fd, into: &chunk)
                if count <= 0 {
                    fds[index].fd = -1
                } else if buffers[index].count <= limit {
                    // Past the limit, the rest is read and dropped: the caller sees the
                    // excess, and the child is not left blocked on a full pipe.
                    buffers[index] += chunk[0..<count]
                }
            }
        }
        return (buffers[0], buffers[1], false)
    }

    static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// The full path of `program` on PATH, as a shell would find it; `nil` when none.
    public static func which(_ program: String) -> String? {
        let path = SystemIO.environment("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":", omittingEmptySubsequences: false)
            .map { ($0.isEmpty ? "." : String($0)) + "/" + program }
            .first { access($0, X_OK) == 0 }
    }

    /// The path of the running executable, symlinks resolved.
    public static var currentExecutable: String? { realPath("/proc/self/exe") }

    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
