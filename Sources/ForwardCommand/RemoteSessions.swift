import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// The remote's sockets, one per ssh session. Every session's RemoteForward names the same
/// arrival path (ssh expands no per-session token there), and sshd neither removes a
/// socket when its session ends nor binds where a file is (unless its sshd_config says
/// StreamLocalBindUnlink yes). So the arrival socket is moved on at once into a private
/// directory, under the session's name (a hash of SSH_CONNECTION): the path is free again for the
/// next session, each session keeps its own socket, and one that ended is removed when
/// found dead. `claim` moves it at the start of each session (from ~/.ssh/rc); failing
/// that, the first get of the session does.
struct RemoteSessions {
    /// Where sshd binds each session's socket.
    let arrival: String
    /// Where sessions' sockets are moved; nil for a socket named by --socket or the
    /// variable (a container's), used where it is.
    let directory: String?

    /// This session's name: a hash of SSH_CONNECTION (client address and port, server
    /// address and port), which no other session has at once; short, since the whole path
    /// must fit a socket's address (107 bytes; an IPv6 SSH_CONNECTION alone is longer).
    static var sessionName: String {
        guard let connection = SystemIO.environment("SSH_CONNECTION"), !connection.isEmpty else { return "session" }
        var hash: UInt32 = 0x811c_9dc5  // FNV-1a: eight hex digits tell a user's sessions apart
        for byte in connection.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Moves the arrival socket into the directory, as this session's. Nothing when there
    /// is none; an untrusted one is left where it is, and said by `connect`. A dead one is
    /// not this session's: an earlier session left it, and it kept this session's forward
    /// from binding. It is removed, so that the next session binds, and true returned:
    /// the caller says so (`unbound`).
    @discardableResult
    func claim() throws(HelperError) -> Bool {
        guard let directory, ForwardSockets.examine(arrival) == .socket else { return false }
        if ForwardSockets.isDead(arrival) {
            let removed = unlink(arrival) == 0
            Trace.note("no one listens on \(Trace.quoted(arrival)) (an earlier session left it): " + (removed ? "removed it" : "cannot remove it: " + SystemIO.errorText()))
            return removed
        }
        if !PrivateFiles.exists(directory) {
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw HelperError(.failure, "cannot create \(directory): \(SystemIO.errorText())", fix: "check the permissions of \(PrivateFiles.directory(of: directory))")
            }
        }
        try PrivateFiles.checkOwned(directory, as: .directory)
        var name = directory + "/" + Self.sessionName + ".sock"
        if PrivateFiles.exists(name) { name = directory + "/" + Self.sessionName + "-" + String(UInt64(Subprocess.monotonicSeconds() * 1e9)) + ".sock" }
        // A path no socket address can hold (a long HOME) could not be connected to: the
        // socket stays where sshd bound it, and this session works as without claim.
        guard name.utf8.count <= ForwardSockets.longestPath else {
            Trace.note("left the socket at \(Trace.quoted(arrival)): \(Trace.quoted(name)) is longer than a socket's path may be")
            return false
        }
        if rename(arrival, name) != 0 {
            throw HelperError(.failure, "cannot move \(arrival) to \(name): \(SystemIO.errorText())", fix: "check the permissions of \(directory)")
        }
        Trace.note("moved this session's socket to \(Trace.quoted(name)), so that the next session can bind \(Trace.quoted(arrival))")
        // Once a session: the sockets of sessions that ended, which nothing tries while
        // their own session's answers, removed (a live one is only connected to and closed).
        for path in candidates() where path != name && ForwardSockets.isDead(path) { _ = unlink(path) }
        return false
    }

    /// What a session whose forward could not bind is told (when `claim` removed what was
    /// in its way), once: the socket is gone now, and the next connection binds.
    var unbound: HelperError {
        HelperError(.unavailable, "this ssh session's forward could not bind \(arrival): a socket an earlier session left was in the way (removed now)",
                    fix: "reconnect" + claimAdvice)
    }

    /// The rest of a Fix to reconnect: `claim` in ~/.ssh/rc, unless it is there already.
    var claimAdvice: String {
        let rc = SystemIO.environment("HOME").flatMap { SystemIO.readFile($0 + "/.ssh/rc", limit: 1 << 16) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard !rc.contains("git-credential-forward claim") else { return "" }
        return "; so that a session that never runs git leaves nothing in the next one's way, add "
            + ShellWord.quoted(Subprocess.currentExecutable ?? "git-credential-forward") + " claim to ~/.ssh/rc here"
    }

    /// The sockets to try, in order: this session's, then the others newest first (a
    /// second session's requests go through the first's while it lasts), the arrival
    /// socket if it could not be moved.
    func candidates() -> [String] {
        var found: [(path: String, time: Int)] = []
        if let directory, let opened = CheckedDirectory.opened(directory, shownAs: directory, rootIsTrusted: false) {
            for (name, info) in opened.entries() where name.hasSuffix(".sock") && info.st_mode & S_IFMT == S_IFSOCK {
                found.append((directory + "/" + name, Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)))
            }
        }
        let own = directory.map { $0 + "/" + Self.sessionName + ".sock" }
        let ordered = found.sorted { ($0.path == own ? 1 : 0, $0.time) > ($1.path == own ? 1 : 0, $1.time) }.map(\.path)
        // A named socket (a container's mount) is always tried: one it cannot even look at
        // (a directory of another uid's) is then said as such, not as no socket at all.
        return ordered + (PrivateFiles.exists(arrival) || directory == nil ? [arrival] : [])
    }

    enum Outcome {
        case connected(ForwardConnection, path: String)
        /// No one answers.
        case nobody(why: String)
        /// A dead socket was in the arrival path, so this session's own forward did not bind.
        case unbound(HelperError)
        case untrusted(HelperError)
    }

    /// A connection to the first socket that answers; dead ones (their session ended)
    /// removed on the way.
    func connect() -> Outcome {
        let removedArrival: Bool
        do throws(HelperError) { removedArrival = try claim() } catch { return .untrusted(error) }
        var why = "no socket at \(arrival)" + (directory.map { " or in \($0)" } ?? "")
        for path in candidates() {
            switch ForwardSockets.connect(path, named: directory == nil) {
            case .connected(let connection): return .connected(connection, path: path)
            case .untrusted(let error): return .untrusted(error)
            case .nobody(let reason): why = reason
            case .dead:
                // Its session ended: removed (sshd does not), so that nothing tries it again.
                let removed = unlink(path) == 0
                Trace.note("no one listens on \(Trace.quoted(path)) (its session ended): " + (removed ? "removed it" : "cannot remove it: " + SystemIO.errorText()))
                why = "no socket answers"
            }
        }
        // In an ssh session, said once: the socket in the way is gone now.
        if removedArrival && SystemIO.environment("SSH_CONNECTION") != nil { return .unbound(unbound) }
        return .nobody(why: why)
    }
}
