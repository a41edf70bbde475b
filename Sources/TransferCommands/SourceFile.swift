import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// A file an import read, as it was when read: what `--remove-source` may wipe is that
/// file and nothing else (not another file put in its place, not the target of a link,
/// not a file with other names or of another user).
struct SourceFile {
    /// The most an import reads of one file, checked before reading a regular file: a
    /// hostile file costs no more than this (an export of 16 MiB holds some 50,000
    /// credentials).
    static let limit = 16 << 20

    let path: String
    let info: stat

    var isRegular: Bool { info.st_mode & S_IFMT == S_IFREG }

    /// Reads the file named `path`. `defaultFile`: it was not named by the user but found
    /// in a default place, so it must be a regular file (a FIFO there would hang the import).
    /// `followLinks` false: a symbolic link fails (found while walking a store, where one
    /// could lead anywhere).
    static func read(_ path: String, defaultFile: Bool, followLinks: Bool = true, limit: Int = limit) throws -> (SourceFile, [UInt8]) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (defaultFile ? O_NONBLOCK : 0) | (followLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            throw HelperError(.failure, "cannot read \(path): \(SystemIO.errorText())", fix: "check the path and its permissions")
        }
        defer { close(fd) }
        return try read(path, opened: fd, defaultFile: defaultFile, limit: limit)
    }

    /// Reads the file open on `fd` (opened as `path`, which messages name; the caller closes it).
    static func read(_ path: String, opened fd: Int32, defaultFile: Bool, limit: Int = limit) throws -> (SourceFile, [UInt8]) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw HelperError(.failure, "cannot read \(path): \(SystemIO.errorText())", fix: "check the path and its permissions")
        }
        let file = SourceFile(path: path, info: info)
        if info.st_mode & S_IFMT == S_IFDIR {
            throw HelperError(.usage, "cannot import \(path): it is a directory", fix: "name the files in it")
        }
        if defaultFile && !file.isRegular {
            throw HelperError(.failure, "cannot import \(path): it is not a regular file (\(file.kind))",
                              fix: "move it aside, or name the file to import")
        }
        if file.isRegular && Int(info.st_size) > limit {
            throw tooLarge(path, limit: limit)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = SystemIO.readSome(fd, into: &chunk)
            if count < 0 {
                throw HelperError(.failure, "cannot read \(path): \(SystemIO.errorText())", fix: "check the path and its permissions")
            }
            if count == 0 { return (file, bytes) }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw tooLarge(path, limit: limit) }
        }
    }

    static func tooLarge(_ path: String, limit: Int = limit) -> HelperError {
        HelperError(.usage, "\(path) is larger than import reads (\(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"))",
                    fix: "split it into smaller files, or check that it is the file you mean")
    }

    /// Why a file was kept: one line for the user.
    struct Kept: Error {
        let reason: String
        let fix: String?
    }

    /// Overwrites the file with zeros, syncs, then removes its name. Only the very file
    /// that was read: opened once without following links or blocking, checked through
    /// that descriptor, overwritten through it, and its name removed only while it still
    /// names that file. On a copy-on-write or journaling file system old blocks may
    /// survive; removing the name is what we can do.
    func wipe() throws(Kept) {
        guard isRegular else {
            throw Kept(reason: "it is not a regular file (\(kind)), so nothing of what was read is left in it to wipe",
                       fix: "if a plaintext file fed it, remove that file yourself")
        }
        // The name first, for a message that says what is there now; then the descriptor,
        // which is what counts.
        var named = stat()
        guard lstat(path, &named) == 0 else {
            throw Kept(reason: "it changed since it was read (\(SystemIO.errorText()))", fix: "check it, then import it again")
        }
        if isLink {
            var led = stat()
            guard stat(path, &led) == 0, Self.same(led, info) else {
                throw Kept(reason: "it was replaced since it was read (by a symbolic link)", fix: "check it, then import it again")
            }
            // What the user means is the target, but a link is how dotfile managers and
            // repositories keep it: wiping it there is theirs to decide, and its history
            // would keep it anyway.
            let target = Self.resolved(path)
            throw Kept(reason: "it is a symbolic link to \(target), which holds the credentials in clear",
                       fix: "remove the plaintext in \(target) yourself (and from its history, if it is in a repository), then the link")
        }
        try check(named)
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Kept(reason: "cannot open it to overwrite it: \(SystemIO.errorText())", fix: "remove it yourself: every credential in it is stored")
        }
        defer { close(fd) }
        var opened = stat()
        guard fstat(fd, &opened) == 0 else {
            throw Kept(reason: "cannot examine it: \(SystemIO.errorText())", fix: "remove it yourself: every credential in it is stored")
        }
        try check(opened)
        try overwrite(fd, size: Int(opened.st_size))
        var now = stat()
        guard lstat(path, &now) == 0, Self.same(now, opened) else {
            throw Kept(reason: "overwrote it with zeros, but its name was given to another file meanwhile, which is kept",
                       fix: "check \(path)")
        }
        guard unlink(path) == 0 else {
            throw Kept(reason: "overwrote it with zeros, but cannot remove it: \(SystemIO.errorText())", fix: "remove the emptied file yourself")
        }
        PrivateFiles.syncDirectory(of: path)
    }

    /// Whether its name is a symbolic link now.
    var isLink: Bool {
        var named = stat()
        return lstat(path, &named) == 0 && named.st_mode & S_IFMT == S_IFLNK
    }

    /// Whether two names lead to the same file.
    static func same(_ one: stat, _ other: stat) -> Bool { one.st_dev == other.st_dev && one.st_ino == other.st_ino }

    func isSameFile(as other: SourceFile) -> Bool { Self.same(info, other.info) }

    /// Whether `now` (the file's name or the opened file) is still the file that was read,
    /// and one we may wipe.
    func check(_ now: stat) throws(Kept) {
        guard Self.same(now, info), now.st_mode & S_IFMT == S_IFREG else {
            throw Kept(reason: "it was replaced since it was read (by \(SourceFile(path: path, info: now).kind))",
                       fix: "check it, then import it again")
        }
        guard now.st_size == info.st_size, now.st_mtim.tv_sec == info.st_mtim.tv_sec, now.st_mtim.tv_nsec == info.st_mtim.tv_nsec else {
            throw Kept(reason: "it changed since it was read", fix: "import it again")
        }
        guard now.st_uid == geteuid() else {
            throw Kept(reason: "it belongs to another user (uid \(now.st_uid))", fix: "ask its owner to remove it")
        }
        guard now.st_nlink == 1 else {
            throw Kept(reason: "it has \(now.st_nlink - 1) other name(s) (hard links), which would keep the credentials in clear",
                       fix: "find them with find / -xdev -samefile \(ShellWord.quoted(path)), and remove them all with it")
        }
        guard now.st_mode & S_IWUSR != 0 else {
            throw Kept(reason: "it is read-only (mode \(String(now.st_mode & 0o7777, radix: 8)))",
                       fix: "chmod u+w \(ShellWord.quoted(path)), then import --remove-source again, or remove it yourself")
        }
    }

    func overwrite(_ fd: Int32, size: Int) throws(Kept) {
        let (written, error) = PrivateFiles.overwriteWithZeros(fd, size: size)
        if let error {
            throw Kept(reason: "cannot overwrite it\(written > 0 ? " (it is partly overwritten)" : ""): \(error)",
                       fix: "remove it yourself: every credential in it is stored")
        }
    }

    /// What the file is, for messages.
    var kind: String {
        switch info.st_mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a pipe or FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }

    /// Where a symbolic link finally leads, or what it says when that cannot be resolved.
    static func resolved(_ path: String) -> String {
        if let full = realpath(path, nil) {
            defer { free(full) }
            return String(cString: full)
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "somewhere unknown"
    }
}
