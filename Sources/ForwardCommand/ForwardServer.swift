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
        while Self.stopping == 0 && end.map({ ForwardConnection.now < $0 }) ?? true && !(watched?.ended ?? false) {
            while waitpid(-1, nil, WNOHANG) > 0 { children -= 1 }
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
        let why = Self.stopping != 0 ? "" : watched?.ended == true ? " (process \(watched!.pid) ended)" : " (its --for time is up)"
        SystemIO.writeAll(2, "git-credential-forward: stopped serving \(policy.name)" + why + "\n")
        exit(0)
    }
}

/// One connection, in its child: the request read strictly, the policy applied, the
/// person asked if they want to be, their helpers asked, one line logged.
struct ForwardRequestHandler {
    let policy: ForwardPolicy
    let log: ForwardLog
    /// The lock a confirmation holds while it shows (ForwardServer.run).
    let confirmations: Int32
    let memory: ServeMemory

    func handle(_ opened: ForwardConnection) {
        var connection = opened
        let deadline = ForwardConnection.now + ForwardServer.requestSeconds
        guard let first = connection.line(until: deadline, limit: ForwardWire.lineLimit) else {
            // Closed before a byte came: the remote's helper seeing whether a session's
            // socket is still alive (RemoteSessions.claim), nothing asked.
            if connection.ended && connection.received == 0 { return }
            return refuse(connection, .badRequest, nil, nil, connection.received > ForwardWire.lineLimit ? "a first line over \(ForwardWire.lineLimit) bytes"
                : connection.ended ? "closed without a whole request" : "no whole request within \(Int(ForwardServer.requestSeconds)) seconds")
        }
        guard let action = ForwardWire.action(of: first) else {
            return refuse(connection, .badRequest, nil, nil, "not a request of \(ForwardWire.version)")
        }
        if action == .ping {
            connection.write(ForwardWire.pong(policy.name), until: deadline)
            return
        }
        guard let block = connection.block(until: deadline, limit: ForwardWire.requestLimit) else {
            return refuse(connection, .badRequest, action, nil, "no whole request (ended by an empty line) within \(Int(ForwardServer.requestSeconds)) seconds, or one over \(ForwardWire.requestLimit) bytes")
        }
        let request: Credential
        do { request = try WireFormat.parse(block) } catch {
            return refuse(connection, .badRequest, action, nil, "not git's credential format: \(error.message)")
        }
        let decision = policy.decide(action, request)
        // git's store after a fetch or push that worked, of what serve answered minutes ago:
        // git's own approve of that answer (the person's helpers keep what one of them made,
        // an OAuth token), allowed or not, asking nothing; no helper is asked whether it
        // holds it (that ran a second sign-in, and told a remote whether a guessed password
        // was right).
        if action == .store, decision == .answer || decision.reason == .actionNotAllowed, case (true, let at, let expiry) = memory.answered(request) {
            return approve(connection, request, answeredAt: at, expiry: expiry)
        }
        // Anything else refused is refused at once, the same way each time, with nothing run;
        // so is anything while the person's no lasts.
        if case .refuse(let reason, let why) = decision { return refuse(connection, reason, action, request, why) }
        if policy.confirm, let declined = declinedLately() { return refuse(connection, .declined, action, request, declined) }
        if AccountsByPath.matter(for: request) {
            return refuse(connection, .pathNeeded, action, request, "not answered: your git picks the account for this host by the repository's path, and the request names none"
                          + " (another account's password would be used there, and erased here when refused); on \(policy.name): \(AccountsByPath.remoteFix)")
        }
        connection.write(ForwardWire.wait(Int(PersonsHelpers.seconds) + Int(ForwardConfirmation.seconds) + 5), until: deadline)
        // A get asks the helpers first: the person is asked only about a credential they have.
        var found: (answer: Credential, why: String)?
        if action == .get {
            let (answer, why) = PersonsHelpers.fill(request)
            guard let answer else { return refuse(connection, .nothing, action, request, why) }
            found = (answer, why)
        }
        if policy.confirm, let (reason, why) = confirm(action, request, user: found?.answer.username, on: connection) { return refuse(connection, reason, action, request, why) }
        if let found {
            memory.remember(found.answer, for: request)
            log.write(policy.name, action.rawValue, request, found.why)
            connection.write(ForwardWire.answer(found.answer, for: request), until: ForwardConnection.now + ForwardServer.requestSeconds)
        } else {
            log.write(policy.name, action.rawValue, request, PersonsHelpers.tell(action, request))
            connection.write(ForwardWire.none(.nothing), until: ForwardConnection.now + ForwardServer.requestSeconds)
        }
    }

    /// git's approve of serve's own answer, passed to the person's helpers with the expiry
    /// serve answered (git 2.39 does not pass it back, a remote could change it), and a line.
    func approve(_ connection: ForwardConnection, _ store: Credential, answeredAt: Int64, expiry: UInt64) {
        connection.write(ForwardWire.wait(Int(PersonsHelpers.seconds) + 5), until: ForwardConnection.now + 1)
        // What serve answered and where, nothing else of the remote's: an expiry added
        // there would make the person's credential expire (a get then finds nothing).
        var approved = Credential(protocol: store.protocol, host: store.host, path: store.path, username: store.username)
        (approved.password, approved.authtype, approved.credential) = (store.password, store.authtype, store.credential)
        approved.capabilities = store.capabilities.filter { $0 == Capability.authtype }
        approved.passwordExpiryUTC = expiry > 0 ? expiry : nil
        let ago = max(0, Int64(time(nil)) - answeredAt)
        log.write(policy.name, "store", store, "git's approve of what serve answered \(ago) s ago: " + PersonsHelpers.tell(.store, approved))
        connection.write(ForwardWire.none(.nothing), until: ForwardConnection.now + ForwardServer.requestSeconds)
    }

    /// Why a request is refused without a question: the person said no less than
    /// `quietSeconds` ago. Asked before any helper runs.
    func declinedLately() -> String? {
        var declined: Double = 0
        guard confirmations >= 0, pread(confirmations, &declined, MemoryLayout<Double>.size, 0) == MemoryLayout<Double>.size,
              ForwardConnection.now - declined < ForwardConfirmation.quietSeconds else { return nil }
        return "refused: you said no less than \(Int(ForwardConfirmation.quietSeconds)) seconds ago"
    }

    /// The person's yes, or why not. One question at a time (the lock), and after a no,
    /// none for a while: a remote that asks again at once gets no for an answer. None for a
    /// remote that is gone (closed its end while the helpers ran).
    /// `user`: the user the helpers answer with (a get), named in the question.
    func confirm(_ action: ForwardWire.Action, _ request: Credential, user: Value?, on connection: ForwardConnection) -> (ForwardWire.Refusal, String)? {
        guard confirmations >= 0, lockf(confirmations, F_TLOCK, 0) == 0 else {
            return (.busy, "refused: another request is waiting for your confirmation")
        }
        if let declined = declinedLately() { return (.declined, declined) }
        guard !connection.closedByPeer else { return (.declined, "not asked: the remote closed the connection before the question") }
        switch ForwardConfirmation.ask(question(action, request, user: user ?? request.username)) {
        case .yes: return nil
        case .no:
            var now = ForwardConnection.now
            _ = pwrite(confirmations, &now, MemoryLayout<Double>.size, 0)
            return (.declined, "declined at the confirmation")
        case .nobody(let why): return (.declined, "refused: no one to confirm it: \(why)")
        }
    }

    /// The log's line first: whoever sees the answer finds it logged.
    func refuse(_ connection: ForwardConnection, _ reason: ForwardWire.Refusal, _ action: ForwardWire.Action?, _ request: Credential?, _ why: String) {
        log.write(policy.name, action?.rawValue ?? "connection", request, why, refusal: true)
        connection.write(ForwardWire.none(reason), until: ForwardConnection.now + 1)
    }

    /// What the person is asked: who asks, for what, for which place and user. The place
    /// (the remote's values) is cut, never the user (the one the helpers answer with, for a
    /// get): a long path must not push the real account out of the dialog, after text of
    /// the remote's that names another (an attack round's finding).
    func question(_ action: ForwardWire.Action, _ request: Credential, user: Value?) -> String {
        let what = switch action {
        case .store: "store a credential in your helpers for"
        case .erase: "erase your credential for"
        default: "use your credential for"
        }
        var place = request
        place.username = nil
        let shown = Trace.printable(ForwardLog.place(place))
        let cut = shown.count > 120 ? String(shown.prefix(120)) + "...(cut)" : shown
        return "Allow \(policy.name) to \(what) \(cut)" + (user.map { " user " + Trace.printable(ForwardLog.quoted($0)) } ?? "") + "?"
    }
}
