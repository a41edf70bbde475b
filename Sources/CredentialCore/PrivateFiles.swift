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

    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Reads a small secret file, refusing one that is not a regular file owned by us
    /// with mode 0600 or stricter: a key readable by others is a key already leaked.
    public static func readSecret(_ path: String, limit: Int = 4096) throws(HelperError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            throw HelperError(.failure, "cannot read \(path): \(SystemIO.errorText(code))",
                              fix: code == ENOENT ? nil : "check the file's owner and permissions")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw HelperError(.failure, "\(path) is not a regular file", fix: "move it aside")
        }
        guard info.st_uid == geteuid() else {
            throw HelperError(.failure, "\(path) belongs to another user", fix: "chown it to yourself or use another file")
        }
        guard info.st_mode & 0o077 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw HelperError(.failure, "\(path) is readable or writable by group or others (mode \(mode)), so it cannot be trusted to keep a secret",
                              fix: "chmod 600 \(path), and consider the secret exposed")
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
        try makeDirectories(directory(of: path))
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw HelperError(.failure, "cannot create \(temporary): \(SystemIO.errorText())",
                              fix: "check that \(directory(of: path)) is writable")
        }
        defer { unlink(temporary) }
        let written = SystemIO.writeAll(fd, contents) && fsync(fd) == 0
        let writeError = errno
        close(fd)
        guard written else {
            throw HelperError(.failure, "cannot write \(temporary): \(SystemIO.errorText(writeError))",
                              fix: "free some disk space or check the file system")
        }
        if link(temporary, path) != 0 {
            if errno == EEXIST { return false }
            throw HelperError(.failure, "cannot create \(path): \(SystemIO.errorText())", fix: nil)
        }
        syncDirectory(of: path)
        return true
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
