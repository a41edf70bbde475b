#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs another program (git, an askpass program, a sibling helper) and collects what it
/// writes. Arguments go to execve as they are: no shell, so nothing in them is
/// interpreted. Standard input is `input` when given, else inherited (askpass needs the
/// terminal); stderr is collected when asked, else inherited. A program named without a
/// slash is looked up by `which`, and only there: never in the current directory.
public enum Subprocess {
    public struct Result: Sendable {
        public var status: Int32
        public var output: [UInt8]
        public var errors: [UInt8]

        /// Killed (with its process group) because it outlasted the caller's time limit.
        public var timedOut = false
        /// Killed (with its process group) because it wrote more than the caller's limit:
        /// `output` or `errors` then holds more than `limit` bytes, and the rest was never made.
        public var overflowed = false

        public var succeeded: Bool { status == 0 && !timedOut && !overflowed }
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        /// The last line of stderr, for a one-line message (git's `fatal: ...`).
        public var lastErrorLine: String {
            String(decoding: errors, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "exit status \(status)"
        }
    }

    /// `nil` when the program cannot be started (not found, not executable).
    /// `program`: a name, looked up by `which`, or a path (with a slash), run as given, as
    /// git runs GIT_ASKPASS and core.askPass. The child's PATH is `searchPath`: what it
    /// looks up (pass its gpg2 and git, `env` its bash) comes from the same directories.
    /// `environment`: variables set (or replaced) for the child only. `timeoutSeconds`: the
    /// child runs in a process group of its own, killed whole when it has not finished by
    /// then (a program it started, gpg under pass, would otherwise keep the pipes open).
    /// `limit`: the most it may write on stdout or stderr; past that it is killed at once
    /// (a compressed entry that unpacks to gigabytes: gpg goes on unpacking after its own
    /// --max-output, and after a broken pipe, until it is killed).
    public static func run(_ program: String, _ arguments: [String], input: [UInt8]? = nil,
                           collectErrors: Bool = true, limit: Int = 1 << 30,
                           environment: [String: String?] = [:], timeoutSeconds: Double? = nil) -> Result? {
        let directories = searchDirectories
        guard let path = program.contains("/") ? program : which(program, in: directories) else {
            errno = ENOENT
            return nil
        }
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard privatePipe(&outPipe), !collectErrors || privatePipe(&errPipe), input == nil || privatePipe(&inPipe) else {
            for fd in outPipe + errPipe + inPipe where fd >= 0 { close(fd) }
            return nil
        }
        var descriptors = [(outPipe[1], Int32(1))]
        if collectErrors { descriptors.append((errPipe[1], 2)) }
        if input != nil { descriptors.append((inPipe[0], 0)) }
        let started = spawn(path, ([program] + arguments).map { Array($0.utf8) }, descriptors: descriptors,
                            environment: environment, directories: directories, ownProcessGroup: timeoutSeconds != nil)
        for fd in [outPipe[1], errPipe[1], inPipe[0]] where fd >= 0 { close(fd) }
        defer { for fd in [outPipe[0], errPipe[0], inPipe[1]] where fd >= 0 { close(fd) } }
        guard let pid = started else { return nil }
        let group = timeoutSeconds != nil
        if group { Running.group = pid }
        defer { if group { Running.group = 0 } }
        let deadline = timeoutSeconds.map { monotonicSeconds() + $0 }
        var (output, errors, ending) = collect(outPipe[0], errPipe[0], input: (inPipe[1], input ?? []), limit: limit, deadline: deadline)
        inPipe[1] = -1
        var status: Int32 = 0
        // A child may close its pipes and still not end: the limit holds for its exit too.
        // Most end a moment after closing them: looked at again soon, then less often.
        var pause: UInt32 = 50
        while let deadline, ending == nil, waitpid(pid, &status, WNOHANG) == 0 {
            if monotonicSeconds() >= deadline { ending = .late } else { usleep(pause); pause = min(pause * 2, 2_000) }
        }
        if ending != nil { kill(group ? -pid : pid, SIGKILL) }
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        var result = Result(status: exitStatus, output: output, errors: errors)
        result.timedOut = ending == .late
        result.overflowed = ending == .overflowed
        return result
    }

    /// Starts the program at `path` (found already: `which`) with `argv` (argv[0] first, as
    /// bytes: a caller's argument need not be UTF-8), each `descriptors` pair (ours, the
    /// child's) duplicated into the child, every other descriptor as this process has it
    /// (the caller's standard ones, unless replaced). The child's environment is the
    /// trusted-PATH rule's: PATH is `searchDirectories` (`directories` when the caller
    /// computed them already), a relative BASH_ENV or ENV is removed, and `environment`
    /// sets variables (nil: removes one). `nil` when it cannot start.
    public static func spawn(_ path: String, _ argv: [[UInt8]], descriptors: [(Int32, Int32)],
                             environment: [String: String?] = [:], directories: [String]? = nil,
                             ownProcessGroup: Bool = false) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (ours, theirs) in descriptors { posix_spawn_file_actions_adddup2(&actions, ours, theirs) }
        let arguments: [UnsafeMutablePointer<CChar>?] = argv.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { arguments.forEach { $0?.deallocate() } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownProcessGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        var changes = environment
        let searchPath = (directories ?? searchDirectories).joined(separator: ":")
        if SystemIO.environment("PATH") != searchPath { changes["PATH"] = searchPath }
        // A file bash (pass) or sh reads at start, named relative to the current directory:
        // the repository git works in would give its own (as a relative PATH entry would).
        for variable in ["BASH_ENV", "ENV"] where SystemIO.environment(variable).map({ !$0.hasPrefix("/") }) ?? false && changes[variable] == nil {
            changes[variable] = .some(nil)
        }
        let variables = changes.isEmpty ? nil : mergedEnvironment(changes)
        defer { variables?.forEach { free($0) } }
        var pid: pid_t = 0
        // posix_spawn, not posix_spawnp: the path is found already, and spawnp would search
        // PATH's empty entries (the current directory) for a name.
        let spawned = variables.map { posix_spawn(&pid, path, &actions, &attributes, arguments, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, arguments, environ)
        return spawned == 0 ? pid : nil
    }

    /// The process group of the bounded child running now (0: none), for `exit(afterSeconds:)`.
    enum Running { nonisolated(unsafe) static var group: pid_t = 0 }

    /// Ends this process after `seconds` (a shell completion, which must not freeze the
    /// prompt), and with it the bounded child it is waiting for: gpg runs in a process
    /// group of its own, which SIGALRM's default action would leave running.
    public static func exit(afterSeconds seconds: UInt32) {
        signal(SIGALRM) { _ in
            if Subprocess.Running.group > 0 { kill(-Subprocess.Running.group, SIGKILL) }
            _exit(1)
        }
        alarm(seconds)
    }

    /// This process's environment with `changes` made, for execve (strdup'ed: free each).
    /// A change to nil removes the variable.
    static func mergedEnvironment(_ changes: [String: String?]) -> [UnsafeMutablePointer<CChar>?] {
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
            if changes[name] == nil { entries.append(text) }
            index += 1
        }
        entries += changes.sorted { $0.key < $1.key }.compactMap { name, value in value.map { "\(name)=\($0)" } }
        return entries.map { strdup($0) } + [nil]
    }

    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// A pipe whose ends are not inherited by this or any other child (pipe2 with
    /// O_CLOEXEC is not visible to Swift without _GNU_SOURCE).
    static func privatePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Why a child was stopped before it finished.
    enum Ending { case late, overflowed }

    /// Writes `input` to the child and reads both its pipes to EOF, all at once, so that a
    /// child writing while it reads (gpg decrypting an entry larger than a pipe holds), or
    /// filling one pipe, never blocks on us; closes the input's descriptor. Stops when the
    /// deadline (monotonic seconds) comes first, or when either output passes `limit`.
    static func collect(_ out: Int32, _ err: Int32, input: (fd: Int32, bytes: [UInt8]) = (-1, []), limit: Int,
                        deadline: Double? = nil) -> ([UInt8], [UInt8], Ending?) {
        var buffers: [[UInt8]] = [[], []]
        var fds = [pollfd(fd: out, events: Int16(POLLIN), revents: 0), pollfd(fd: err, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: input.fd, events: Int16(POLLOUT), revents: 0)]
        var written = 0
        if input.fd >= 0 { _ = fcntl(input.fd, F_SETFL, fcntl(input.fd, F_GETFL) | O_NONBLOCK) }
        defer { if fds[2].fd >= 0 { close(fds[2].fd) } }
        func closeInput() {
            close(fds[2].fd)
            fds[2].fd = -1
        }
        if input.fd >= 0 && input.bytes.isEmpty { closeInput() }
        var chunk = [UInt8](repeating: 0, count: 16384)
        // Until the input is written too: a child may close its stdout before it reads
        // (`exec cat >FILE`), and must still get all of it.
        while fds[0].fd >= 0 || fds[1].fd >= 0 || fds[2].fd >= 0 {
            if fds[2].fd >= 0 && fds[2].revents != 0 {
                let count = input.bytes.withUnsafeBytes { write(fds[2].fd, $0.baseAddress! + written, $0.count - written) }
                if count > 0 { written += count }
                // Done, or the child will read no more (EPIPE: it closed its input).
                if written == input.bytes.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    closeInput()
                    // Its output may have ended already: then nothing is left to wait for,
                    // and a poll of no descriptor would wait for ever.
                    continue
                }
            }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - monotonicSeconds()
                if left <= 0 { return (buffers[0], buffers[1], .late) }
                wait = Int32(min(left * 1000 + 1, 60_000))
            }
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready == 0 { continue }
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in 0..<2 where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = SystemIO.readSome(fds[index].fd, into: &chunk)
                if count <= 0 {
                    fds[index].fd = -1
                } else {
                    buffers[index] += chunk[0..<count]
                    if buffers[index].count > limit { return (buffers[0], buffers[1], .overflowed) }
                }
            }
        }
        return (buffers[0], buffers[1], nil)
    }

    /// The program a variable of the person's names (GIT_ASKPASS, SSH_ASKPASS,
    /// GCM_GPG_PATH): a bare name is looked up as every program is (`which`; `nil` when
    /// none); an absolute path runs as given, as git runs it; a relative one is refused: it
    /// names a file of the current directory, the repository git runs a helper in, as a
    /// relative PATH entry would.
    public static func named(by variable: String, _ value: String) throws(HelperError) -> String? {
        guard value.contains("/") else { return which(value) }
        guard value.hasPrefix("/") else {
            throw HelperError(.failure, "\(variable)=\(Trace.quoted(value)) is a relative path, which names a program of the current directory (the repository git runs a helper in), so it is not run",
                              fix: "give \(variable) an absolute path, or a name to find in PATH")
        }
        return value
    }

    /// The full path of `program` in `searchDirectories`: the first executable regular
    /// file of that name (as git's own lookup) that only the user and root could have put
    /// there (PrivateFiles.checkProgram, a link's target too); `nil` when none.
    public static func which(_ program: String) -> String? { which(program, in: searchDirectories) }

    static func which(_ program: String, in directories: [String]) -> String? {
        directories.map { $0 + "/" + program }.first { path in
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else { return false }
            do throws(HelperError) { try PrivateFiles.checkProgram(path) } catch { return false }
            return true
        }
    }

    /// Where every program the helpers run is looked up: PATH's directories, in order, but
    /// those `skippedPathEntries` names: an empty entry (a trailing `:`, a common slip) and
    /// a relative one (`.`, `bin`), which shells, git and execvp take from the current
    /// directory, the repository git runs a helper in (a cloned repository carrying an
    /// executable `gpg2` or `git` would run it); and a directory someone else could put a
    /// program in (theirs, writable by others, /tmp or below it). None left: the usual
    /// directories (bash's own default would add `.`).
    public static var searchDirectories: [String] {
        let kept = pathEntries.filter { whySkipped($0) == nil }
        return kept.isEmpty ? ["/usr/local/bin", "/usr/bin", "/bin"] : kept
    }

    /// `searchDirectories` as a PATH, the one every child gets.
    public static var searchPath: String { searchDirectories.joined(separator: ":") }

    static var pathEntries: [String] {
        (SystemIO.environment("PATH") ?? "").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    }

    /// Why a PATH entry is not searched; `nil` for one that is.
    static func whySkipped(_ entry: String) -> String? {
        guard entry.hasPrefix("/") else {
            return entry.isEmpty ? "is empty, which shells, git and pass read as the current directory"
                : "is relative, which shells, git and pass look up from the current directory"
        }
        do throws(HelperError) { try PrivateFiles.checkDirectoryChain(entry, below: "its programs", trustingSticky: false) } catch {
            return "is a directory someone else could put a program in: " + error.message
        }
        return nil
    }

    /// PATH's entries that `searchDirectories` skips, with their place (from 1), the number
    /// of entries, and why, for doctor to point out.
    public static var skippedPathEntries: (entries: [(position: Int, entry: String, why: String)], count: Int) {
        let all = pathEntries
        let skipped = all.enumerated().compactMap { index, entry in whySkipped(entry).map { (index + 1, entry, $0) } }
        return (skipped, all.count)
    }

    /// The path of the running executable, symlinks resolved.
    public static var currentExecutable: String? { realPath("/proc/self/exe") }

    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
