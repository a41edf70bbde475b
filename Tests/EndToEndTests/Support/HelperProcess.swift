import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a process wrote on one stream.
struct Output: Equatable, CustomStringConvertible {
    var bytes: [UInt8] = []

    var isEmpty: Bool { bytes.isEmpty }
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The lines, without their LF.
    var lines: [String] {
        guard !bytes.isEmpty else { return [] }
        var text = self.text
        if text.hasSuffix("\n") { text.removeLast() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
    var description: String { text.debugDescription }
}

/// What a finished child process left behind.
struct ProcessResult: CustomStringConvertible {
    /// The exit status, or `nil` when a signal ended the process.
    var exitCode: Int32?
    var signal: Int32?
    var timedOut = false
    var stdout = Output()
    var stderr = Output()

    var stdoutText: String { stdout.text }
    var stderrText: String { stderr.text }
    var stdoutLines: [String] { stdout.lines }
    var stderrLines: [String] { stderr.lines }

    /// `key=value` lines of standard output as a dictionary (the last one wins, as in git).
    var attributes: [String: String] {
        var result: [String: String] = [:]
        for line in stdoutLines {
            guard let separator = line.firstIndex(of: "=") else { continue }
            result[String(line[..<separator])] = String(line[line.index(after: separator)...])
        }
        return result
    }

    var description: String {
        let ending = timedOut ? "timed out" : exitCode.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
        return "[\(ending)] stdout: \(stdout) stderr: \(stderr)"
    }
}

struct SpawnError: Error, CustomStringConvertible {
    let description: String
}

/// Runs a program to completion with posix_spawn: stdin fed and stdout and stderr read in
/// one poll loop (so no pipe fills up and deadlocks), extra descriptors opened on files
/// (`3<file`), in a given working directory and a new session without a controlling
/// terminal (so nothing can prompt on the terminal of whoever runs the tests), with no
/// signal blocked and SIGPIPE at its default, killed with its whole process group after
/// `timeout` seconds.
enum ChildProcess {
    /// glibc's POSIX_SPAWN_SETSID (since 2.26); the macro is not imported into Swift.
    private static let spawnSetSID: Int16 = 0x80
    /// Pipes are created and marked close-on-exec under this lock, and spawns take it
    /// too, so a pipe end never leaks into a child started by a test running in parallel.
    private static let spawnLock = NSLock()

    static func run(
        _ executable: String, _ arguments: [String], stdin: [UInt8] = [],
        environment: [String: String], inputFiles: [Int32: String] = [:], directory: String? = nil,
        timeout: Double = 30
    ) throws -> ProcessResult {
        signal(SIGPIPE, SIG_IGN)  // a child that exits before reading all of stdin is not our death
        let (pid, input, output, errors) = try spawn(executable, arguments, environment: environment,
                                                     inputFiles: inputFiles, directory: directory)
        let deadline = Date().addingTimeInterval(timeout)
        var result = ProcessResult()
        result.timedOut = !pump(stdin, into: input, from: output, errors, result: &result, until: deadline)
        if result.timedOut { kill(-pid, SIGKILL) }
        let status = waitForExit(pid, until: deadline)
        if status & 0x7F == 0 {
            result.exitCode = (status >> 8) & 0xFF
        } else {
            result.signal = status & 0x7F
            result.timedOut = result.timedOut || Date() >= deadline
        }
        return result
    }

    /// Starts the child; returns its pid and our ends of its stdin, stdout and stderr.
    fileprivate static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], inputFiles: [Int32: String],
        directory: String?
    ) throws -> (pid_t, Int32, Int32, Int32) {
        if directory != nil && addChdir == nil { throw SpawnError(description: "this libc cannot spawn in a directory") }
        spawnLock.lock()
        defer { spawnLock.unlock() }
        let input = try makePipe(), output = try makePipe(), errors = try makePipe()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        // The child gets stdin, stdout, stderr and the files asked for, none of the test
        // runner's descriptors (glibc's closefrom action is not visible from Swift).
        for fd in openDescriptors() where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        for (fd, path) in inputFiles.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_addopen(&actions, fd, path, O_RDONLY, 0)
        }
        if let directory, let addChdir { _ = addChdir(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and SIGPIPE at its default: it would
        // otherwise inherit the test runner's mask (SIGTERM blocked: a daemon that a test
        // starts could then not be stopped) and our ignored SIGPIPE.
        var noSignals = sigset_t(), defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, spawnSetSID | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted(by: { $0.key < $1.key }).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        [input.read, output.write, errors.write].forEach { close($0) }
        guard code == 0 else {
            [input.write, output.read, errors.read].forEach { close($0) }
            throw SpawnError(description: "cannot run \(executable): \(String(cString: strerror(code)))"
                + " (build the package first, or set HELPER_BIN_DIR to the directory holding the executables)")
        }
        return (pid, input.write, output.read, errors.read)
    }

    /// Writes a file the way pipes are made: under the spawn lock and close-on-exec, so no
    /// child started meanwhile inherits it open for writing (executing a script that some
    /// process holds open for writing fails with ETXTBSY).
    static func writeFile(_ path: String, _ contents: [UInt8], mode: mode_t) throws {
        spawnLock.lock()
        defer { spawnLock.unlock() }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw SpawnError(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var written = 0
        while written < contents.count {
            let count = contents.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            guard count > 0 else { throw SpawnError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
            written += count
        }
        guard fchmod(fd, mode) == 0 else { throw SpawnError(description: "cannot chmod \(path)") }
    }

    /// glibc's posix_spawn_file_actions_addchdir_np (2.29+), which Swift's Glibc module does not export.
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addChdir: AddChdir? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }

    /// This process's open descriptors, from /proc/self/fd.
    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Feeds stdin and collects stdout and stderr until both are closed. False on timeout.
    /// Closes all three descriptors.
    private static func pump(
        _ stdin: [UInt8], into input: Int32, from output: Int32, _ errors: Int32,
        result: inout ProcessResult, until deadline: Date
    ) -> Bool {
        var input: Int32? = input, output: Int32? = output, errors: Int32? = errors
        var written = 0
        _ = fcntl(input!, F_SETFL, fcntl(input!, F_GETFL) | O_NONBLOCK)
        if stdin.isEmpty { close(input!); input = nil }
        defer { [input, output, errors].compactMap { $0 }.forEach { close($0) } }

        var buffer = [UInt8](repeating: 0, count: 65536)
        while output != nil || errors != nil {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            var fds = [pollfd(fd: input ?? -1, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: output ?? -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: errors ?? -1, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000) + 1) < 0 { continue }

            if let fd = input, fds[0].revents != 0 {
                let count = stdin.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
                if count > 0 { written += count }
                if written == stdin.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    close(fd)
                    input = nil
                }
            }
            for (index, stream) in [(1, \ProcessResult.stdout.bytes), (2, \ProcessResult.stderr.bytes)] {
                guard let fd = index == 1 ? output : errors, fds[index].revents != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    result[keyPath: stream] += buffer[0..<count]
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    close(fd)
                    if index == 1 { output = nil } else { errors = nil }
                }
            }
        }
        return true
    }

    /// The wait status; kills the process group if it is still running at the deadline.
    fileprivate static func waitForExit(_ pid: pid_t, until deadline: Date) -> Int32 {
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return status }
            if done < 0 && errno != EINTR { return status }
            if Date() >= deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return status
            }
            usleep(2000)
        }
    }
}

/// A child that runs beside the test (a server), started like `ChildProcess.run`'s children
/// (a session of its own, none of our descriptors) with its stdin held open: a child that
/// stops when its stdin closes stops also when the test process dies. `stop()`, or
/// deinit, ends it and whatever it started in its process group.
final class BackgroundProcess {
    let pid: pid_t
    private var input: Int32?
    private var output: Int32?
    private var errors: Int32?
    private var stopped = false

    init(_ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil) throws {
        (pid, input, output, errors) = try ChildProcess.spawn(executable, arguments, environment: environment,
                                                               inputFiles: [:], directory: directory)
    }

    deinit { stop() }

    /// The first line the child writes on stdout, without its LF. Throws, quoting what the
    /// child said on stderr, when it ends or says nothing within `timeout` seconds. Our
    /// ends of its stdout and stderr are closed afterwards: it must write nothing more there.
    func firstLine(timeout: Double) throws -> String {
        defer { [output, errors].compactMap { $0 }.forEach { close($0) }; output = nil; errors = nil }
        let deadline = Date().addingTimeInterval(timeout)
        var said: [Int32: [UInt8]] = [:], buffer = [UInt8](repeating: 0, count: 4096)
        var open = [output, errors].compactMap { $0 }
        while !open.isEmpty, deadline.timeIntervalSinceNow > 0 {
            if let newline = said[output!]?.firstIndex(of: 0x0A) {
                return String(decoding: said[output!]![..<newline], as: UTF8.self)
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), Int32(max(deadline.timeIntervalSinceNow, 0) * 1000) + 1) <= 0 { continue }
            for ready in fds where ready.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(ready.fd, $0.baseAddress, $0.count) }
                if count > 0 { said[ready.fd, default: []] += buffer[0..<count] } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == ready.fd }
                }
            }
        }
        if let line = said[output!], let newline = line.firstIndex(of: 0x0A) {
            return String(decoding: line[..<newline], as: UTF8.self)
        }
        let stderr = String(decoding: said[errors!] ?? [], as: UTF8.self)
        throw SpawnError(description: "no first line on stdout within \(timeout) s; stderr: \(stderr.debugDescription)")
    }

    /// Closes its stdin, asks its process group to end (SIGTERM) and reaps it, killing the
    /// group after 5 s.
    func stop() {
        guard !stopped else { return }
        stopped = true
        [input, output, errors].compactMap { $0 }.forEach { close($0) }
        kill(-pid, SIGTERM)  // before reaping: until then the group's id cannot be reused
        _ = ChildProcess.waitForExit(pid, until: Date().addingTimeInterval(5))
    }
}
