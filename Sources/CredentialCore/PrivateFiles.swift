#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files that hold or protect secrets: owner-only, created atomically, never through a
/// symlink, never half-written.
public enum PrivateFiles {
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// `mkdir -p` with mode 0700 for what it creates; existing directories are left as they are.
    public static func makeDirectories(_ path: String) throws(HelperError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw HelperError(.failure, "cannot create directory \(built): \(SystemIO.errorText())",
                                  fix: "check the permissions of its parent directory")
            }
        }
    }

    public enum Kind: Sendable {
        case file, directory
        var name: String { self == .file ? "regular file" : "directory" }
    }

    /// The one rule for every file and directory that holds or guards a secret: ours
    /// (owner = euid), not writable by group or others, not a symlink, of the kind
    /// expected. Someone else who can write it, or replace it, can roll it back or take
    /// it away. Returns false when `path` does not exist (the caller decides whether
    /// that is fine); throws one line with the fix otherwise.
    @discardableResult
    public static func checkOwned(_ path: String, as kind: Kind) throws(HelperError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw HelperError(.failure, "cannot examine \(path): \(SystemIO.errorText())",
                              fix: "check the permissions of \(directory(of: path))")
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            throw HelperError(.failure, "\(path) is a symbolic link, and a file or directory that guards secrets must not be one",
                              fix: "replace the link by what it points to, or name the real path instead")
        }
        if type != (kind == .file ? S_IFREG : S_IFDIR) {
            throw HelperError(.failure, "\(path) is not a \(kind.name)", fix: "move it aside: it is not what the store made there")
        }
        if info.st_uid != geteuid() {
            throw HelperError(.failure, "\(path) belongs to uid \(info.st_uid), not to you (uid \(geteuid())), so it cannot be trusted",
                              fix: kind == .file ? "move it aside: it belongs to uid \(info.st_uid)"
                                  : "use a directory of your own (mkdir -m 700), or move this one aside: it belongs to uid \(info.st_uid)")
        }
        if info.st_mode & 0o022 != 0 {
            // A shared directory such as /tmp is meant to be writable by all: the fix is
            // never chmod, nor a directory of one's own inside it (emptied at boot, and then
            // anyone's to create): somewhere of one's own outside it.
            let shared = kind == .directory && info.st_mode & S_ISVTX != 0
            throw HelperError(.failure, "\(path) is writable by group or others (mode \(octal(info.st_mode))), so it cannot be trusted",
                              fix: shared ? "keep it out of \(path), which others share and which is emptied: in a directory of your own under your home directory (the default place, or --db and --key-file there)" : "chmod go-w \(ShellWord.quoted(path))")
        }
        return true
    }

    /// Why someone else could have written what `info` describes (a file or directory
    /// found where others' things can be too: a synced store, an import's source, PATH):
    /// another user's (root's too, unless `rootIsTrusted`), or writable by group or others
    /// (a link's own mode means nothing). `nil` when only we (or root) could have.
    public static func whyOthersCouldWrite(_ info: stat, rootIsTrusted: Bool) -> String? {
        if info.st_uid != geteuid() && !(rootIsTrusted && info.st_uid == 0) { return "belongs to uid \(info.st_uid), not to you" }
        if info.st_mode & S_IFMT != S_IFLNK && info.st_mode & 0o022 != 0 { return "is writable by group or others (mode \(String(info.st_mode & 0o7777, radix: 8)))" }
        return nil
    }

    /// The directories above `path`'s directory up to /, as ssh's StrictModes checks
    /// them: each owned by us or root and not writable by group or others, unless it is
    /// root's and sticky like /tmp (no one can then rename what is ours). Otherwise
    /// someone could rename our directory away and put theirs in its place. A symlink
    /// on the way is followed once (realpath) and the real path checked the same way.
    /// Directories that do not exist yet are ours to create (0700), so the walk stops.
    public static func checkAncestors(of path: String) throws(HelperError) {
        var absolute = directory(of: path)
        if !absolute.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else {
                throw HelperError(.failure, "cannot find the current directory: \(SystemIO.errorText())", fix: "cd to a directory that exists")
            }
            absolute = String(cString: cwd) + "/" + absolute
            free(cwd)
        }
        try checkDirectoryChain(directory(of: absolute), below: path)
    }

    /// Checks `directory` and each directory above it. `trustingSticky`: whether root's
    /// sticky directories (/tmp) pass: they do on the way to a file the store opens (no one
    /// can rename ours away), not on the way to a program git is told to run by its path
    /// (once ours is removed, /tmp emptied at boot, anyone can create the same path).
    public static func checkDirectoryChain(_ directory: String, below path: String, trustingSticky: Bool = true) throws(HelperError) {
        var prefix = ""
        for component in ["/"] + directory.split(separator: "/").map(String.init) {
            prefix = component == "/" ? "/" : (prefix == "/" ? "/" : prefix + "/") + component
            var info = stat()
            guard lstat(prefix, &info) == 0 else {
                if errno == ENOENT { return }
                throw HelperError(.failure, "cannot examine \(prefix), above \(path): \(SystemIO.errorText())",
                                  fix: "check its permissions")
            }
            if info.st_mode & S_IFMT == S_IFLNK {
                // Whoever owns the link can point it elsewhere (in /tmp, even though it is sticky).
                if info.st_uid != geteuid() && info.st_uid != 0 {
                    throw HelperError(.failure, "\(prefix), above \(path), is a symbolic link of uid \(info.st_uid), who could point it elsewhere",
                                      fix: "keep it under directories that only you and root own")
                }
                guard let real = realpath(prefix, nil) else {
                    if errno == ENOENT { return }
                    throw HelperError(.failure, "cannot follow \(prefix), above \(path): \(SystemIO.errorText())", fix: "check where it points")
                }
                let target = String(cString: real)
                free(real)
                try checkDirectoryChain(target, below: path, trustingSticky: trustingSticky)
                continue
            }
            let trusted = info.st_uid == geteuid() || info.st_uid == 0
            if !trusted {
                throw HelperError(.failure, "\(prefix), above \(path), belongs to uid \(info.st_uid), who could move it away and put theirs in its place",
                                  fix: "keep it under directories that only you and root own")
            }
            let sticky = info.st_mode & S_ISVTX != 0
            if info.st_mode & 0o022 != 0 && !(trustingSticky && sticky && info.st_uid == 0) {
                throw HelperError(.failure, "\(prefix), above \(path), " + (sticky
                                      ? "is writable by all (mode \(octal(info.st_mode))): sticky, so others cannot move what is in it, but can create \(path) anew once it is removed"
                                      : "is writable by group or others (mode \(octal(info.st_mode))), who could move it away"),
                                  fix: "chmod go-w \(ShellWord.quoted(prefix))")
            }
        }
    }

    /// The rule for a program another one is told to run by its path (git's
    /// credential.helper, which git hands every credential): the file, a link's target too,
    /// ours or root's and writable by no one else, and every directory on the way from /
    /// the same, root's sticky /tmp included. Throws one line saying who else could put
    /// their program there; the caller gives the fix.
    public static func checkProgram(_ path: String) throws(HelperError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw HelperError(.failure, "cannot examine \(path): \(SystemIO.errorText())", fix: nil)
        }
        if let why = whyOthersCouldWrite(info, rootIsTrusted: true) { throw HelperError(.failure, "\(path) \(why)", fix: nil) }
        var absolute = path
        if !absolute.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            absolute = String(cString: cwd) + "/" + path
            free(cwd)
        }
        try checkDirectoryChain(directory(of: absolute), below: path, trustingSticky: false)
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let real = realpath(path, nil) else {
                throw HelperError(.failure, "cannot follow \(path): \(SystemIO.errorText())", fix: nil)
            }
            let target = String(cString: real)
            free(real)
            try checkProgram(target)
        }
    }

    static func octal(_ mode: mode_t) -> String { "0" + String(mode & 0o7777, radix: 8) }

    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Why an opened file cannot hold a secret of ours: the one rule for a file we keep a
    /// secret in, or that says where one is (a key file, a key file's list of stores, the
    /// trace): a regular file (not a FIFO someone reads, a device, a directory), ours, and,
    /// unless `anyMode`, that no one else can read or write. Judged on what was opened
    /// (fstat), never on a path, which could name another file a moment later.
    public enum NotPrivate: Equatable {
        case notRegular(kind: String)
        case anotherUsers(uid: uid_t)
        case sharedMode(mode: String)
    }

    public static func whyNotPrivate(_ info: stat, anyMode: Bool = false) -> NotPrivate? {
        if info.st_mode & S_IFMT != S_IFREG { return .notRegular(kind: kind(of: info.st_mode)) }
        if info.st_uid != geteuid() { return .anotherUsers(uid: info.st_uid) }
        if !anyMode && info.st_mode & 0o077 != 0 { return .sharedMode(mode: String(info.st_mode & 0o777, radix: 8)) }
        return nil
    }

    /// What a file is, for messages: "a directory", "a FIFO", ... or "a regular file".
    public static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Reads a small secret file, refusing one that is not a regular file owned by us
    /// with mode 0600 or stricter: a key readable by others is a key already leaked.
    public static func readSecret(_ path: String, limit: Int = 4096) throws(HelperError) -> [UInt8] {
        // Non-blocking: a FIFO put in its place must be refused, not wait for a writer.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            throw HelperError(.failure, "cannot read \(path): \(SystemIO.errorText(code))",
                              fix: code == ENOENT ? nil : "check the file's owner and permissions")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw HelperError(.failure, "cannot read \(path): \(SystemIO.errorText())", fix: nil) }
        switch whyNotPrivate(info) {
        case .notRegular: throw HelperError(.failure, "\(path) is not a regular file", fix: "move it aside")
        case .anotherUsers: throw HelperError(.failure, "\(path) belongs to another user", fix: "chown it to yourself or use another file")
        case .sharedMode(let mode):
            throw HelperError(.failure, "\(path) is readable or writable by group or others (mode \(mode)), so it cannot be trusted to keep a secret",
                              fix: "chmod 600 \(ShellWord.quoted(path)), and consider the secret exposed")
        case nil: break
        }
        guard let bytes = SystemIO.readAll(fd, limit: limit) else {
            throw HelperError(.failure, "cannot read \(path): \(SystemIO.errorText())", fix: nil)
        }
        return bytes
    }

    /// Creates `path` with `contents` (mode 0600) only if it does not exist: written to a
    /// temporary file, synced, then linked into place, so a reader never sees it half
    /// written and two racing creators agree on one winner. Returns false if it existed.
    public static func createExclusively(_ path: String, contents: [UInt8]) throws(HelperError) -> Bool {
        let temporary = try writeTemporary(beside: path, contents: contents)
        defer { unlink(temporary) }
        if link(temporary, path) != 0 {
            if errno == EEXIST { return false }
            throw HelperError(.failure, "cannot create \(path): \(SystemIO.errorText())", fix: nil)
        }
        syncDirectory(of: path)
        return true
    }

    /// Replaces `path` by a file (mode 0600) holding `contents`: written to a temporary
    /// file, synced, then renamed over it, so a reader sees the old file or the new one,
    /// never half of either.
    public static func replace(_ path: String, contents: [UInt8]) throws(HelperError) {
        let temporary = try writeTemporary(beside: path, contents: contents)
        guard rename(temporary, path) == 0 else {
            let reason = SystemIO.errorText()
            unlink(temporary)
            throw HelperError(.failure, "cannot write \(path): \(reason)", fix: "check that \(directory(of: path)) is writable")
        }
        syncDirectory(of: path)
    }

    /// A new file (mode 0600) in `path`'s directory, made first, holding `contents`, synced.
    static func writeTemporary(beside path: String, contents: [UInt8]) throws(HelperError) -> String {
        try makeDirectories(directory(of: path))
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw HelperError(.failure, "cannot create \(temporary): \(SystemIO.errorText())",
                              fix: "check that \(directory(of: path)) is writable")
        }
        let written = SystemIO.writeAll(fd, contents) && fsync(fd) == 0
        let writeError = errno
        close(fd)
        guard written else {
            unlink(temporary)
            throw HelperError(.failure, "cannot write \(temporary): \(SystemIO.errorText(writeError))",
                              fix: "free some disk space or check the file system")
        }
        return temporary
    }

    /// Overwrites the first `size` bytes of the open file with zeros and syncs it, before
    /// its name is removed: what a plaintext file or an old key held is then gone from
    /// that file (a copy-on-write or journaling file system may keep old blocks; that is
    /// beyond a program's reach). Returns how far it got and, on failure, the error text.
    public static func overwriteWithZeros(_ fd: Int32, size: Int) -> (written: Int, error: String?) {
        let zeros = [UInt8](repeating: 0, count: 65536)
        var offset = 0
        while offset < size {
            let count = min(zeros.count, size - offset)
            let written = zeros.withUnsafeBytes { pwrite(fd, $0.baseAddress, count, off_t(offset)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return (offset, SystemIO.errorText()) }
            offset += written
        }
        return fsync(fd) == 0 ? (offset, nil) : (offset, "cannot sync it: " + SystemIO.errorText())
    }

    /// Makes a rename or link durable.
    public static func syncDirectory(of path: String) {
        let fd = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
