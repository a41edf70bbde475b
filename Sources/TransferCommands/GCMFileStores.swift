import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// Git Credential Manager's two file stores, laid out as its PlaintextCredentialStore
/// writes them (GpgPassCredentialStore is the same, encrypted): one file per credential,
/// at `ROOT/NAMESPACE/SCHEME/HOST[:PORT]/PATH.../ACCOUNT.credential` (`.gpg`), holding
/// "Password is the first line" then `service=URL` and `account=NAME` lines (read as its
/// ReadDictionary reads them: up to a blank line, split at the first `=`, keys without
/// regard to case, the last of a key winning; "Service is required", "Account is
/// optional"). The file's contents say what it is, not its place, as in GCM's Enumerate,
/// which checks the service in the file. Only files and directories that no one else could
/// have made are read: a symbolic link, a FIFO, another user's file or a directory others
/// can write is left out, with a line that says why.
struct GCMFileStore {
    enum Kind { case plaintext, gpg }
    let kind: Kind
    let root: String
    let namespace: String

    var name: String { kind == .plaintext ? "GCM's plaintext store \(root)" : "GCM's gpg store \(root)" }
    var suffix: String { kind == .plaintext ? ".credential" : ".gpg" }

    /// The most a store is walked: deeper than any URL path GCM writes, more files than
    /// anyone's credentials.
    static let maximumDepth = 32
    static let maximumFiles = 20_000
    /// A plaintext credential file larger than this is no file GCM wrote.
    static let fileLimit = 64 << 10

    /// One file found: read, or why not.
    struct Found {
        var relative: String
        var file: SourceFile?
        var bytes: [UInt8] = []
        var problem: String?
    }

    /// The files under ROOT/NAMESPACE whose names end in the suffix, sorted by path, and
    /// what was not read there with why; `[]` when there is no such directory. Throws when
    /// a directory above ROOT (or ROOT) could have been put there by someone else.
    func files() throws -> [Found] {
        let top = root + "/" + namespace
        var info = stat()
        guard lstat(top, &info) == 0 else { return [] }
        try PrivateFiles.checkDirectoryChain(root, below: top)
        // Below ROOT, everything is reached from ROOT's descriptor (CheckedDirectory): no
        // name is looked up again between its check and its read.
        guard let real = Subprocess.realPath(root), let tree = CheckedDirectory.opened(real, shownAs: root, rootIsTrusted: false) else { return [] }
        var found: [Found] = []
        walk(tree, relative: namespace, info: info, depth: 0, into: &found)
        return found
    }

    /// The directory `relative` below the tree, whose lstat is `info`, and what is in it.
    func walk(_ tree: CheckedDirectory, relative: String, info: stat, depth: Int, into found: inout [Found]) {
        let path = tree.path + "/" + relative
        if info.st_mode & S_IFMT == S_IFLNK {
            found.append(Found(relative: relative + "/", problem: "a symbolic link (to \(SourceFile.resolved(path))), which GCM never makes; not followed"))
            return
        }
        if let problem = Self.untrusted(info, kind: "directory") {
            found.append(Found(relative: relative + "/", problem: problem + "; nothing in it was read"))
            return
        }
        guard depth < Self.maximumDepth else {
            found.append(Found(relative: relative + "/", problem: "deeper than any path GCM writes; nothing in it was read"))
            return
        }
        let directory: CheckedDirectory
        switch tree.find(relative) {
        case .directory(let opened): directory = opened
        case .missing: return
        case .file(let fd, _):
            close(fd)
            return
        case .refused(_, let reason):
            found.append(Found(relative: relative + "/", problem: reason + "; nothing in it was read"))
            return
        }
        for (name, entry) in directory.entries().sorted(by: { $0.name < $1.name }) {
            guard found.count < Self.maximumFiles else { return }
            let shown = relative + "/" + name
            switch entry.st_mode & S_IFMT {
            case S_IFDIR: walk(tree, relative: shown, info: entry, depth: depth + 1, into: &found)
            case S_IFLNK:
                // A link to a directory too: GCM never makes one, so someone else put it there.
                found.append(Found(relative: shown, problem: "a symbolic link (to \(SourceFile.resolved(tree.path + "/" + shown))), which GCM never makes; not followed"))
            case S_IFREG where name.hasSuffix(suffix):
                found.append(read(tree, shown))
            default:
                if name.hasSuffix(suffix) {
                    found.append(Found(relative: shown, problem: "not a regular file (\(SourceFile(path: tree.path + "/" + shown, info: entry).kind)); not opened"))
                }
            }
        }
    }

    /// Reads one file, opened from the tree: never through a link, never blocking on a FIFO.
    func read(_ tree: CheckedDirectory, _ relative: String) -> Found {
        let path = tree.path + "/" + relative
        let limit = kind == .gpg ? GPG.limit : Self.fileLimit
        do {
            switch tree.find(relative) {
            case .file(let fd, _):
                defer { close(fd) }
                let (file, bytes) = try SourceFile.read(path, opened: fd, defaultFile: true, limit: limit)
                return Found(relative: relative, file: file, bytes: bytes)
            case .refused(_, let reason):
                // What the rule refuses (another user's, writable by others) says so as before.
                var info = stat()
                if lstat(path, &info) == 0, let problem = Self.untrusted(info, kind: "file") { return Found(relative: relative, problem: problem) }
                return Found(relative: relative, problem: reason)
            case .missing, .directory: return Found(relative: relative, problem: "gone, or no longer a file, since it was listed")
            }
        } catch let error as HelperError {
            let reason = error == SourceFile.tooLarge(path, limit: limit)
                ? "larger than any file GCM writes (over \(limit >> 10) KiB); not read" : error.message
            return Found(relative: relative, problem: reason)
        } catch {
            return Found(relative: relative, problem: "cannot read it")
        }
    }

    /// Why a file or directory may not be trusted: another user's, or writable by others
    /// (who could then have put credentials in it); `nil` when it is only ours.
    static func untrusted(_ info: stat, kind: String) -> String? {
        guard let reason = PrivateFiles.whyOthersCouldWrite(info, rootIsTrusted: false) else { return nil }
        return "the \(kind) \(reason), so it is not trusted" + (info.st_uid == geteuid() ? " (chmod go-w it, then import again)" : "")
    }

    /// A file's text as GCM reads it: the password, the service and the account; or why
    /// GCM itself would not read it.
    static func parse(_ text: [UInt8]) -> Result<(password: [UInt8], service: [UInt8], account: [UInt8]?), GCMService.Skip> {
        guard let newline = text.firstIndex(of: 0x0A), newline > 0 else {
            return .failure(GCMService.Skip("no password line, so GCM does not read it either"))
        }
        var attributes: [String: [UInt8]] = [:]
        var index = newline + 1
        while index < text.count {
            // .NET's ReadLine ends a line at LF, CR or CR LF.
            let end = text[index...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? text.count
            let line = text[index..<end]
            index = end < text.count && text[end] == 0x0D && end + 1 < text.count && text[end + 1] == 0x0A ? end + 2 : end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { break }
            guard let equals = line.firstIndex(of: 0x3D), equals > line.startIndex else { continue }
            attributes[String(decoding: line[..<equals], as: UTF8.self).lowercased()] = Array(line[(equals + 1)...])
        }
        guard let service = attributes["service"] else {
            return .failure(GCMService.Skip("no service= line, so GCM does not read it either"))
        }
        return .success((Array(text[..<newline]), service, attributes["account"]))
    }
}
