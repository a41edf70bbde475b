import CProcess
import CredentialCore
import HelperCommand

#if canImport(Glibc)
import Glibc
#endif

/// Where each end's socket is, and the trust rule for it: a socket is used only when it is
/// the user's own, in a directory only the user (or root) can write (PrivateFiles'
/// ancestors rule, as for every file of the suite that guards a secret). Someone who could
/// put their socket there would be handed every request, and every store's password.
enum ForwardSockets {
    /// The remote end's socket, where `ssh -R` (RemoteForward) puts it: `--socket`, else
    /// GIT_CREDENTIAL_FORWARD_SOCKET (a container's bind-mounted one), else the arrival
    /// socket in HOME (sshd creates no directory, and HOME is the user's), which each
    /// session's socket is moved on from (RemoteSessions). nil when HOME is not set either.
    static func remote(option: String?) -> RemoteSessions? {
        if let option, !option.isEmpty { return RemoteSessions(arrival: expandingTilde(option), directory: nil) }
        if let variable = SystemIO.environment(variableName), !variable.isEmpty { return RemoteSessions(arrival: variable, directory: nil) }
        guard let home = SystemIO.environment("HOME"), home.hasPrefix("/") else { return nil }
        let base = home.hasSuffix("/") ? String(home.dropLast()) : home
        return RemoteSessions(arrival: remoteDefault(home: base), directory: base + "/.git-credential-forward")
    }

    static let variableName = "GIT_CREDENTIAL_FORWARD_SOCKET"
    /// The longest path a Unix socket's address holds (sun_path, its NUL aside).
    static let longestPath = 107
    static func remoteDefault(home: String) -> String { (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.git-credential-forward.sock" }

    /// The serving end's directory of forwards: XDG_RUNTIME_DIR's (the session's own, emptied at logout),
    /// else one in ~/.cache.
    static func serveDirectory() throws(HelperError) -> String {
        if let runtime = SystemIO.environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") { return runtime + "/git-credential-forward" }
        guard let home = SystemIO.environment("HOME"), home.hasPrefix("/") else {
            throw HelperError(.usage, "neither XDG_RUNTIME_DIR nor HOME is set, so there is no place for the socket",
                              fix: "set HOME, or give the socket's path with --socket")
        }
        return home + "/.cache/git-credential-forward"
    }

    /// Each forward's socket in a directory of its own, which a container is given whole
    /// (ForwardServer.checkAlone).
    static func serve(name: String, option: String?) throws(HelperError) -> String {
        if let option, !option.isEmpty { return option }
        return try serveDirectory() + "/" + name + "/socket"
    }

    /// What is at a socket's path.
    enum Found: Equatable {
        case absent
        case socket
        /// Not to be used: why, and the fix.
        case untrusted(HelperError)
    }

    /// The trust rule: the user's own socket (not a link, not another user's, not another
    /// kind of file), below directories no one else can write.
    /// `named`: a path the person named (--socket, the variable: a container's), theirs to
    /// name again; else one of ours in HOME, where what is in the way is moved aside.
    static func examine(_ path: String, named: Bool = false) -> Found {
        let aside = named ? "name the forwarded socket by --socket or \(variableName), or unset it"
            : "move it aside (mv \(ShellWord.quoted(path)) \(ShellWord.quoted(path + ".aside")))"
        guard path.hasPrefix("/") else {
            return .untrusted(HelperError(.usage, "the socket \(Trace.quoted(path)) is not an absolute path: git runs helpers in the repository, where it would name a file of the repository's",
                                          fix: "name it by its full path"))
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return .absent }
            let problem = SystemIO.errorText()
            // A directory of another uid's that this one cannot look into: a container run as
            // another user than the one whose forward it mounted.
            var above = stat()
            if code == EACCES, lstat(PrivateFiles.directory(of: path), &above) == 0, above.st_uid != geteuid() {
                return .untrusted(HelperError(.failure, "cannot look for \(path): its directory belongs to uid \(above.st_uid), not to you (uid \(geteuid()))",
                                              fix: "run git as uid \(above.st_uid) (a container: docker run --user \(above.st_uid))" + (named ? ", or " + aside : "")))
            }
            return .untrusted(HelperError(.failure, "cannot examine \(path): \(problem)", fix: "check the permissions of \(PrivateFiles.directory(of: path))"))
        }
        let type = info.st_mode & S_IFMT
        if type != S_IFSOCK {
            let what = type == S_IFLNK ? "a symbolic link" : PrivateFiles.kind(of: info.st_mode)
            return .untrusted(HelperError(.failure, "\(path) is \(what), not a socket, so it is not used", fix: aside))
        }
        if info.st_uid != geteuid() {
            // A named one is a container's mounted socket, most often: its processes run as another uid.
            return .untrusted(HelperError(.failure, "\(path) belongs to uid \(info.st_uid), not to you (uid \(geteuid())), so it is not used: whoever made it would be handed your requests",
                                          fix: named ? "run git as uid \(info.st_uid) (a container: docker run --user \(info.st_uid)), or " + aside : aside))
        }
        do { try PrivateFiles.checkDirectoryChain(PrivateFiles.directory(of: path), below: path) } catch { return .untrusted(error) }
        return .socket
    }

    /// A connection to the socket at `path`, examined first.
    enum Connection {
        case connected(ForwardConnection)
        /// No file, or another error that means no one answers: a silent miss.
        case nobody(String)
        /// The user's socket with no one listening: a session ended without removing it.
        case dead
        case untrusted(HelperError)
    }

    /// Whether the user's socket at `path` is dead (no one listens: its session ended).
    /// The kernel's list of listeners says so without a connection: sshd passes each one
    /// on to the person's ssh, which says "connect ... failed" in that session's terminal
    /// when serve is stopped (claim's look at every session's socket, at each login). Only
    /// a socket it does not list is connected to (no one at the other end to be told).
    static func isDead(_ path: String) -> Bool {
        var info = stat()
        if lstat(path, &info) == 0, csocket_listening(UInt64(info.st_dev), UInt64(info.st_ino)) == 1 { return false }
        switch connect(path) {
        case .dead: return true
        case .connected(let connection):
            connection.close()
            return false
        case .nobody, .untrusted: return false
        }
    }

    static func connect(_ path: String, named: Bool = false) -> Connection {
        switch examine(path, named: named) {
        case .absent: return .nobody("no socket at \(path)")
        case .untrusted(let error): return .untrusted(error)
        case .socket: break
        }
        let fd = csocket_connect(path)
        if fd >= 0 { return .connected(ForwardConnection(fd: fd)) }
        if errno == ECONNREFUSED { return .dead }
        return .nobody("cannot connect to \(path): \(SystemIO.errorText())")
    }
}
