import CredentialCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The stores that use a key file, listed beside it (`KEY.stores`, 0600, under the same
/// trust rule as the key): a conversion wipes the old key file only when no store listed
/// there still opens with it. git's configuration can never tell (an includeIf'd file, a
/// shell-function helper, a repository's own config, another session's environment);
/// each store records itself when it writes (store, import, init), never on get.
///
/// The first line says whether the list is complete: it is when it was started with the
/// key file. A key file of an earlier release, which kept no list, gets a partial one the
/// first time a store writes through it: a store of that release never written since is
/// missing from it, so such a key file is kept on conversion, and the user told why.
/// The last line marks the end: a list cut short by a crash counts as partial.
enum KeyFileUsers {
    static let completeHeader = "git-credential-sqlite stores using this key file, complete"
    static let partialHeader = "git-credential-sqlite stores using this key file, partial"
    static let end = "end"

    struct List: Equatable {
        var complete: Bool
        var databases: [String]
    }

    static func path(of keyFile: String) -> String { keyFile + ".stores" }

    /// Adds `database` to the list of `keyFile`, starting the list if there is none
    /// (complete only when the key file was just made with this store). Under the list's
    /// lock, the key file must still hold `key`: a conversion wipes it under that lock,
    /// so a store that read the key just before is told, not left sealed with a wiped key.
    static func record(_ database: String, keyFile: String, key: [UInt8], keyFileIsNew: Bool) throws {
        let name = canonical(database)
        try update(keyFile, create: true) { list in
            guard (try? KeyFile.read(keyFile)) == key else {
                throw HelperError(.failure, "the key file \(keyFile) was wiped or replaced meanwhile (a conversion of a store sharing it), so nothing was written to \(database)",
                                  fix: "run the command again")
            }
            if list == nil { list = List(complete: keyFileIsNew, databases: []) }
            if list!.databases.contains(name) { return .unchanged }
            list!.databases.append(name)
            return .changed
        }
    }

    enum Outcome { case unchanged, changed, removed }

    /// Runs `change` on the list under its lock (flock), `nil` when there is none, and
    /// writes back what it changed, or removes the file (with the key file it describes,
    /// which `change` wiped). Stores record themselves under the same lock, so the
    /// decision to wipe and the wipe see every store that read the key before.
    /// The file gets the rule of every file of the store: a regular file of ours that no
    /// one else can read or write, never followed through a link, never waited on (a
    /// FIFO in its place is refused).
    static func update(_ keyFile: String, create: Bool, _ change: (inout List?) throws -> Outcome) throws {
        let file = path(of: keyFile)
        try StoreFiles.checkKeyFile(file)
        let fd = open(file, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | (create ? O_CREAT : 0), 0o600)
        guard fd >= 0 else {
            if errno == ENOENT && !create {
                var none: List? = nil
                _ = try change(&none)
                return
            }
            // A key directory this user cannot write (a read-only mount, a provisioned
            // key): no list can be kept, and no conversion can wipe the key file either.
            if create && (errno == EROFS || errno == EACCES) && !PrivateFiles.exists(file) {
                Trace.note("cannot start \(Trace.quoted(file)) (\(SystemIO.errorText())): the key file cannot be removed from there either")
                return
            }
            if errno == EROFS {
                throw HelperError(.failure, "cannot write to \(file), the list of stores using the key file: its file system is read-only",
                                  fix: "remount the file system read-write")
            }
            throw HelperError(.failure, "cannot open \(file), the list of stores using the key file: \(SystemIO.errorText())",
                              fix: "check the owner and permissions of \(PrivateFiles.directory(of: file)) (ls -ld)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, PrivateFiles.whyNotPrivate(info) == nil else {
            throw HelperError(.failure, "\(file), the list of stores using the key file, is not a regular file of yours that only you can read and write, so it cannot be trusted",
                              fix: "move it aside (it is not what git-credential-sqlite made there)")
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw HelperError(.failure, "cannot lock \(file): \(SystemIO.errorText())", fix: "check the file system")
            }
        }
        guard let bytes = SystemIO.readAll(fd, limit: 1 << 20) else {
            throw HelperError(.failure, "cannot read \(file): \(SystemIO.errorText())",
                              fix: "move it aside if it grew too large; the key file it describes is then kept on conversion")
        }
        var list = bytes.isEmpty ? nil : parse(bytes)
        switch try change(&list) {
        case .unchanged: return
        case .removed:
            unlink(file)
            PrivateFiles.syncDirectory(of: file)
            return
        case .changed: break
        }
        guard let list else { return }
        let text = ([list.complete ? completeHeader : partialHeader] + list.databases.map(encoded) + [end]).joined(separator: "\n") + "\n"
        let written = ftruncate(fd, 0) == 0 && text.utf8.withContiguousStorageIfAvailable({ pwrite(fd, $0.baseAddress, $0.count, 0) == $0.count }) == true
            && fsync(fd) == 0
        guard written else {
            throw HelperError(.failure, "cannot write \(file): \(SystemIO.errorText())", fix: "free some disk space or check the file system")
        }
    }

    /// A list that does not read as one written whole (another header, no end line)
    /// counts as partial, with whatever names it holds.
    static func parse(_ bytes: [UInt8]) -> List {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let whole = lines.first == completeHeader && lines.last == end
        let names = lines.dropFirst().filter { $0.hasPrefix("/") }.map(decoded)
        return List(complete: whole, databases: Array(names))
    }

    /// A path as one line of the list: `%`, control characters and line breaks
    /// percent-encoded, so that a path holding a line break is one entry, not two others.
    static func encoded(_ path: String) -> String {
        String(decoding: Array(path.utf8).flatMap { byte -> [UInt8] in
            byte < 0x20 || byte == 0x7F || byte == 0x25 ? Array(("%" + Hex.encode([byte])).utf8) : [byte]
        }, as: UTF8.self)
    }

    static func decoded(_ line: String) -> String {
        var bytes: [UInt8] = [], input = Array(line.utf8)[...]
        while let byte = input.popFirst() {
            if byte == 0x25, input.count >= 2, let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The absolute path of `database` through the real path of its directory, so one
    /// store is listed once however it was named.
    static func canonical(_ database: String) -> String {
        let directory = PrivateFiles.directory(of: database)
        let name = database.split(separator: "/").last.map(String.init) ?? database
        guard let real = realpath(directory, nil) else { return database }
        defer { free(real) }
        let base = String(cString: real)
        return (base == "/" ? "" : base) + "/" + name
    }
}
