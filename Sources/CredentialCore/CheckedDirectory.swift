#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A directory that was checked, and what lies below it reached from it and from nothing
/// else: each component opened relative to the one above (openat), never through a
/// symbolic link (O_NOFOLLOW, the last component included), and checked by the one rule
/// (`PrivateFiles.whyOthersCouldWrite`) on the descriptor itself, so that what is checked
/// is what is read. For trees others can write into: a password store synced from a team's
/// remote, where whoever pushes can put a link where an entry was (to the user's
/// ~/.bashrc, which a store would then overwrite), a directory of theirs, or a FIFO.
public final class CheckedDirectory {
    /// The directory's path, for messages.
    public let path: String
    let fd: Int32
    /// Whether root's files count as the user's (a system-wide tree; never for writing).
    let rootIsTrusted: Bool

    init(path: String, fd: Int32, rootIsTrusted: Bool) {
        self.path = path
        self.fd = fd
        self.rootIsTrusted = rootIsTrusted
    }

    deinit { close(fd) }

    /// `path`, a directory that `PrivateFiles.checkOwned` accepts (the caller may have
    /// followed a link to it first: a password store is often one, into a synced folder).
    /// `nil` when it does not exist.
    public static func open(_ path: String, rootIsTrusted: Bool) throws(HelperError) -> CheckedDirectory? {
        guard try PrivateFiles.checkOwned(path, as: .directory) else { return nil }
        guard let opened = opened(path, shownAs: path, rootIsTrusted: rootIsTrusted) else {
            if errno == ENOENT { return nil }
            throw HelperError(.failure, "cannot open \(path): \(SystemIO.errorText())", fix: "check its permissions")
        }
        return opened
    }

    /// `path`, a directory whose own chain the caller checked (PrivateFiles.checkDirectoryChain),
    /// as the start of a tree whose every part below is checked; `shownAs` names it in messages.
    /// `nil` when it cannot be opened as a directory.
    public static func opened(_ path: String, shownAs shown: String, rootIsTrusted: Bool) -> CheckedDirectory? {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        return fd >= 0 ? CheckedDirectory(path: shown, fd: fd, rootIsTrusted: rootIsTrusted) : nil
    }

    /// What is at a relative path.
    public enum Found {
        case directory(CheckedDirectory)
        case file(Int32, stat)
        case missing
        /// Why it is not taken: `path` "is a symbolic link", "belongs to uid N, not to you".
        case refused(path: String, reason: String)
    }

    /// `relative` ("a/b/c"), opened one component at a time. A file is opened read-only and
    /// non-blocking (a FIFO put there must not wait for a writer); the caller closes it.
    public func find(_ relative: String) -> Found {
        var current = self
        let parts = relative.split(separator: "/").map(String.init)
        for (index, part) in parts.enumerated() {
            let shown = path + "/" + parts[...index].joined(separator: "/")
            var info = stat()
            guard fstatat(current.fd, part, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                return errno == ENOENT ? .missing : .refused(path: shown, reason: "cannot be examined: \(SystemIO.errorText())")
            }
            if info.st_mode & S_IFMT == S_IFLNK { return .refused(path: shown, reason: "is a symbolic link") }
            let last = index == parts.count - 1
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFDIR || (last && kind == S_IFREG) else { return .refused(path: shown, reason: "is not a regular file or directory") }
            let fd = openat(current.fd, part, (kind == S_IFDIR ? O_DIRECTORY : O_NONBLOCK) | O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                if errno == ENOENT { return .missing }
                return .refused(path: shown, reason: errno == ELOOP ? "is a symbolic link" : "cannot be opened: \(SystemIO.errorText())")
            }
            // Checked on what was opened: a rename between the look and the open changes nothing.
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == kind else {
                close(fd)
                return .refused(path: shown, reason: "changed while it was opened")
            }
            if let reason = PrivateFiles.whyOthersCouldWrite(info, rootIsTrusted: rootIsTrusted) {
                close(fd)
                return .refused(path: shown, reason: reason)
            }
            if kind == S_IFREG { return .file(fd, info) }
            current = CheckedDirectory(path: shown, fd: fd, rootIsTrusted: rootIsTrusted)
        }
        return .directory(current)
    }

    /// The bytes of the regular file at `relative`, at most `limit` of them.
    public enum Read {
        case bytes([UInt8])
        case missing
        /// Why it is not read, as one phrase that names it.
        case refused(String)
    }

    public func read(_ relative: String, limit: Int) -> Read {
        switch find(relative) {
        case .missing: return .missing
        case .refused(let path, let reason): return .refused(path + " " + reason)
        case .directory(let directory): return .refused("\(directory.path) is a directory")
        case .file(let fd, let info):
            defer { close(fd) }
            if info.st_size > limit { return .refused("\(path)/\(relative) is larger than \(limit >> 10) KiB") }
            guard let bytes = SystemIO.readAll(fd, limit: limit) else {
                return .refused("cannot read \(path)/\(relative): \(SystemIO.errorText())")
            }
            return .bytes(bytes)
        }
    }

    /// The names in this directory (not `.` and `..`), with what lstat says of each.
    public func entries() -> [(name: String, info: stat)] {
        let copy = dup(fd)
        guard copy >= 0, let handle = fdopendir(copy) else { return [] }
        defer { closedir(handle) }
        var found: [(String, stat)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            var info = stat()
            guard name != ".", name != "..", fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            found.append((name, info))
        }
        return found
    }

    /// Removes the name `relative` (a link itself, never what it points to), reached as
    /// `find` reaches it; false when there was nothing there.
    public func remove(_ relative: String) throws(HelperError) -> Bool {
        let parent = PrivateFiles.directory(of: relative), last = String(relative.split(separator: "/").last ?? "")
        let directory: CheckedDirectory
        if parent == "." {
            directory = self
        } else {
            switch find(parent) {
            case .directory(let found): directory = found
            case .missing: return false
            case .file(let fd, _):
                close(fd)
                return false
            case .refused(let path, let reason):
                throw HelperError(.failure, "cannot remove \(path)/\(last): \(path) \(reason)", fix: "remove it by hand: " + ShellWord.command(["rm", path + "/" + last]))
            }
        }
        guard unlinkat(directory.fd, last, 0) == 0 else {
            if errno == ENOENT { return false }
            throw HelperError(.failure, "cannot remove \(directory.path)/\(last): \(SystemIO.errorText())", fix: "check the permissions of \(directory.path)")
        }
        return true
    }

    /// Before a program that is not ours writes `relative` (pass's `gpg -o`, which follows
    /// a link at the last component): every directory on the way the user's own, and what
    /// is there now, if anything, a regular file of the user's. Throws one line that names
    /// what is refused. A directory that does not exist yet is the writer's to make.
    public func checkWritable(_ relative: String) throws(HelperError) {
        let strict = CheckedDirectory(path: path, fd: dup(fd), rootIsTrusted: false)
        switch strict.find(relative) {
        case .missing: return
        case .file(let fd, _): close(fd)
        case .directory(let directory):
            throw HelperError(.failure, "\(directory.path) is a directory, where a file is to be written", fix: "move it aside")
        case .refused(let path, let reason):
            throw HelperError(.failure, "\(path) \(reason), and nothing is written through a link or into what others could have made",
                              fix: "if you did not put it there, see who did (git log in the store), then remove it: "
                                + ShellWord.command(["rm", path]))
        }
    }
}
