import CProcess
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// `serve`: the person's end. Each connection is checked (SO_PEERCRED: the person's own
/// process, their ssh client) and then handled in a child process of its own, so that a
/// remote that sends slowly, sends garbage or opens many connections holds up only its own
/// children, each bounded in bytes and time, and at most `maxChildren` at once.
struct ForwardServer {
    let policy: ForwardPolicy
    var log: ForwardLog
    let socket: String
    /// `--for`: serve stops by itself this long after it starts.
    var lasting: TimeSpan?
    /// `--while PID`: serve stops by itself when that process ends (the ssh session whose
    /// LocalCommand started it).
    var watched: Watched?

    struct Watched {
        let pid: Int32
        /// Readable once the process has ended.
        let fd: Int32

        init(_ pid: Int32) throws(HelperError) {
            let fd = cprocess_pidfd(pid)
            guard pid > 0, fd >= 0 else {
                throw HelperError(.usage, "--while \(pid): \(errno == ESRCH || pid <= 0 ? "no such process" : "cannot watch it: \(SystemIO.errorText())")",
                                  fix: "name a running process, as ssh's LocalCommand can: --while $PPID")
            }
            (self.pid, self.fd) = (pid, fd)
        }

        var ended: Bool {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&ready, 1, 0) > 0
        }
    }

    static let maxChildren = 32
    /// A request comes whole within this (git writes it at once).
    static let requestSeconds = 5.0
    /// No child outlives this, whatever it waits for.
    static let childSeconds = UInt32(ForwardWire.longestWait)

    nonisolated(unsafe) static var stopping: sig_atomic_t = 0

    /// Binds the socket; throws when it cannot, or when another serve answers there already.
    func listen() throws(HelperError) -> Int32 {
        let directory = PrivateFiles.directory(of: socket)
        guard socket.hasPrefix("/") else {
            throw HelperError(.usage, "--socket \(Trace.quoted(socket)) is not an absolute path", fix: "give the socket's full path")
        }
        // What exists of the way first, then what is made: nothing made where it is refused.
        try PrivateFiles.checkDirectoryChain(directory, below: socket)
        if !PrivateFiles.exists(directory) { try PrivateFiles.makeDirectories(directory) }
        try PrivateFiles.checkDirectoryChain(directory, below: socket)
        try checkAlone(in: directory)
        switch ForwardSockets.connect(socket) {
        case .connected(let other):
            other.close()
            throw HelperError(.failure, "something already answers on \(socket): another serve for \(policy.name)?",
                              fix: "stop it first (Ctrl-C in its terminal, or pkill -u \"$(id -u)\" -f 'git-credential-forward serve \(policy.name)( |$)'), or give this one another --socket")
        case .untrusted(let error): throw error
        case .dead:
            // The socket of a serve that ended without removing it (killed): ours, replaced.
            unlink(socket)
        case .nobody: break
        }
        let fd = csocket_listen(socket, 64)
        guard fd >= 0 else {
            throw HelperError(.failure, "cannot listen on \(socket): \(SystemIO.errorText())", fix: "check the permissions of \(directory), or give another --socket")
        }
        return fd
    }

    /// The socket's directory holds nothing but this forward's socket (and its lock, one a
    /// killed serve left): a container is given the directory (its mount), and what else
    /// is there it would reach too: another forward's socket, to ask for hosts its own
    /// forward does not allow, or to move aside and bind its own in its place.
    func checkAlone(in directory: String) throws(HelperError) {
        // The user's own, and no one else may add to it, sticky or not (/tmp/x of mode 1777
        // was taken: another user could put a link at the socket's name, or files beside it).
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            throw HelperError(.failure, "\(directory), where \(policy.name)'s socket would be, is not a directory of yours that only you can write (mode \(String(info.st_mode & 0o7777, radix: 8)), uid \(info.st_uid))",
                              fix: "give the socket a directory of your own: the default, or --socket DIR/socket with DIR made by mkdir -m 700")
        }
        let own = String(socket.split(separator: "/").last ?? "")
        let others = (CheckedDirectory.opened(directory, shownAs: directory, rootIsTrusted: false)?.entries() ?? [])
            .map(\.name).filter { $0 != own && $0 != own + ".lock" }.sorted()
        guard !others.isEmpty else { return }
        let shown = others.prefix(3).map { Trace.quoted(Array($0.utf8)) }.joined(separator: ", ") + (others.count > 3 ? " and \(others.count - 3) more" : "")
        throw HelperError(.failure, "\(directory) holds more than \(policy.name)'s socket (\(shown)): whatever is given the directory, as a container its mount, would reach those too",
                          fix: "give each forward a directory of its own: the default (\((try? ForwardSockets.serve(name: policy.name, option: nil)) ?? "no --socket")), or --socket DIR/socket in a new directory")
    }

    func run() throws(HelperError) -> Never {
        let listener = try listen()
        let memory = ServeMemory()
        var log = self.log
        log.memory = memory
        let end = lasting.map { ForwardConnection.now + Double($0.seconds) }
        var bound = stat()
        lstat(socket, &bound)
        // One confirmation on the desktop at a time: a lock each child takes before it asks
        // (lockf: a process's own lock, released when it ends however it ends), on a file
        // unlinked at once (in serve's own directory: one a killed serve left is taken again).
        let confirmations = open(socket + ".lock", O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        unlink(socket + ".lock")
        for signal in [SIGTERM, SIGINT, SIGHUP] { Glibc.signal(signal) { _ in ForwardServer.stopping = 1 } }
        let hosts = policy.hosts.isEmpty ? "no host yet (--host HOST allows one)" : policy.hosts.map(\.text).joined(separator: ", ")
        let confirmed = policy.confirm ? ", each confirmed" : ""
        let stops: String = (lasting.map { "stops in \($0.description) or at Ctrl-C" } ?? "Ctrl-C stops") + (watched.map { ", and when process \($0.pid) ends" } ?? "")
        SystemIO.writeAll(2, "git-credential-forward: serving \(policy.name) on \(socket): \(policy.actions.joined(separator: ", ")) for \(hosts)\(confirmed); \(stops)\n")
        if policy.confirm, case .failure(let refused) = ForwardConfirmation.asker() {
            SystemIO.writeAll(2, HelperError(.failure, "--confirm: no one can be asked here, so every request is refused: \(refused.why)",
                                             fix: refused.fix).line(program: "git-credential-forward") + "\n")
        }
        var children = 0
        var toldAt = ForwardConnection.now
        while Self.stopping == 0 && end.map({ ForwardConnection.now < $0 }) ?? true && !(watched?.ended ?? false) {
            while waitpid(-1, nil, WNOHANG) > 0 { children -= 1 }
            // A flood's count, once a minute (else with the next line written, or at the end).
            if ForwardConnection.now - toldAt >= 60 {
                log.sayUntold(policy.name, memory.takeUntold())
                toldAt = ForwardConnection.now
            }
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 1000) > 0 else { continue }
            let fd = csocket_accept(listener)
            guard fd >= 0 else { continue }
            let peer = csocket_peer_uid(fd)
            guard peer == Int(geteuid()) else {
                close(fd)
                log.write(policy.name, "connection", nil, "refused: from uid \(peer), not yours", refusal: true)
                continue
            }
            // Children that ended while this waited in poll counted out first: else the
            // first request after a burst ends is turned away as busy by no one.
            while waitpid(-1, nil, WNOHANG) > 0 { children -= 1 }
            guard children < Self.maxChildren else {
                ForwardConnection(fd: fd).write(ForwardWire.none(.busy), until: ForwardConnection.now + 0.1)
                close(fd)
                continue
            }
            let pid = fork()
            if pid == 0 {
                close(listener)
                for signal in [SIGTERM, SIGINT, SIGHUP] { Glibc.signal(signal, SIG_DFL) }
                alarm(Self.childSeconds)
                ForwardRequestHandler(policy: policy, log: log, confirmations: confirmations, memory: memory).handle(ForwardConnection(fd: fd))
                _exit(0)
            }
            if pid > 0 { children += 1 }
            close(fd)
        }
        // Ours still (not replaced by another serve since): removed, so that the remote's
        // helper finds no one at once rather than a dead socket.
        var now = stat()
        if lstat(socket, &now) == 0 && now.st_ino == bound.st_ino && now.st_dev == bound.st_dev { unlink(socket) }
        log.sayUntold(policy.name, memory.takeUntold())
        let why = Self.stopping != 0 ? "" : watched?.ended == true ? " (process \(watched!.pid) ended)" : " (its --for time is up)"
        SystemIO.writeAll(2, "git-credential-forward: stopped serving \(policy.name)" + why + "\n")
        exit(0)
    }
}
