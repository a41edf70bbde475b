import CredentialCore
import CredentialCrypto

#if canImport(Glibc)
import Glibc
#endif

/// The default key: 32 random bytes in a small text file of its own, 0600, in a 0700
/// directory apart from the database. Format: a version line, then base64.
enum KeyFile {
    static let format = FileFormat("key file", reads: [1])
    static let headerPrefix = "git-credential-sqlite key v"
    static let header = headerPrefix + String(format.current)

    static func read(_ path: String) throws(HelperError) -> [UInt8] {
        try StoreFiles.checkKeyFile(path)
        let bytes: [UInt8]
        do { bytes = try PrivateFiles.readSecret(path) } catch {
            if !PrivateFiles.exists(path) {
                throw HelperError(.failure, "the key file \(path) is missing, and the store cannot be decrypted without it",
                                  fix: "restore it from a backup, point --key-file or \(StoreLocation.keyFileVariable) at it, or move the database aside to start a new store")
            }
            throw error
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        // The version first: a key file of a later release may hold anything after it.
        if let first = lines.first, let (version, end) = FileFormat.number(after: Array(headerPrefix.utf8), in: Array(first.utf8)),
           end == first.utf8.count {
            try format.check(version, in: path)
        }
        guard lines.count == 2, lines[0] == header, let key = Base64.decode(String(lines[1])), key.count == 32 else {
            throw HelperError(.failure, "\(path) is not a git-credential-sqlite key file",
                              fix: "restore the right key file from a backup")
        }
        return key
    }

    /// The existing key, or a new random one written atomically (`created`). Only used
    /// when no database exists yet, so a missing key is never replaced under existing data.
    static func readOrCreate(_ path: String) throws(HelperError) -> (key: [UInt8], created: Bool) {
        try StoreFiles.checkKeyFile(path)
        if PrivateFiles.exists(path) { return (try read(path), false) }
        try StoreFiles.makeDirectories(for: path)
        let key = randomBytes(32)
        if try PrivateFiles.createExclusively(path, contents: text(for: key)) { return (key, true) }
        return (try read(path), false)  // another process created it first: use theirs
    }

    /// Overwrites the key file with zeros, syncs, and unlinks it: a copy of the file kept
    /// by a hard link is zeroed too, and the bytes are not left in free blocks under a
    /// name (what the disk keeps of old blocks is beyond a program's reach).
    static func wipe(_ path: String) throws(HelperError) {
        try StoreFiles.checkKeyFile(path)
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw HelperError(.failure, "cannot wipe the old key file \(path): \(SystemIO.errorText())",
                              fix: "remove it by hand (" + ShellWord.command(["shred", "-u", path]) + "); it no longer opens the store")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, PrivateFiles.whyNotPrivate(info, anyMode: true) == nil else {
            close(fd)
            throw HelperError(.failure, "the old key file \(path) is not a regular file of yours, so it was left alone",
                              fix: "look at it (" + ShellWord.command(["ls", "-l", path]) + "); it no longer opens the store")
        }
        let overwrite = PrivateFiles.overwriteWithZeros(fd, size: Int(info.st_size))
        close(fd)
        if let failure = overwrite.error ?? (unlink(path) == 0 ? nil : SystemIO.errorText()) {
            throw HelperError(.failure, "cannot wipe the old key file \(path): \(failure)",
                              fix: "remove it by hand (" + ShellWord.command(["shred", "-u", path]) + "); it no longer opens the store")
        }
        PrivateFiles.syncDirectory(of: path)
    }

    static func text(for key: [UInt8]) -> [UInt8] { Array((header + "\n" + Base64.encode(key) + "\n").utf8) }
}
