import CredentialCore

/// The files of a store, checked with PrivateFiles' one rule before anything is read or
/// written: a database, journal or key pre-created by someone else, or a directory they
/// can write, would let them roll the store back to a revoked password or take the key.
public enum StoreFiles {
    /// What SQLite keeps beside the database, when it exists.
    static let companions = ["-wal", "-shm", "-journal"]

    /// The database, its companions, its directory and the directories above.
    static func checkDatabase(_ path: String) throws(HelperError) {
        try checkDirectories(of: path)
        try PrivateFiles.checkOwned(path, as: .file)
        for suffix in companions { try PrivateFiles.checkOwned(path + suffix, as: .file) }
    }

    /// The key file's directory and the directories above. The key file itself gets the
    /// same rule, stricter (not even readable by others), from PrivateFiles.readSecret on
    /// the descriptor it reads.
    static func checkKeyFile(_ path: String) throws(HelperError) {
        try checkDirectories(of: path)
    }

    /// Creates the missing directories above `path` (0700), then checks them with the
    /// same rule: mkdir accepts a directory that exists, so one made by someone else
    /// between the first check and mkdir is refused here, before anything is written in it.
    static func makeDirectories(for path: String) throws(HelperError) {
        try PrivateFiles.makeDirectories(PrivateFiles.directory(of: path))
        try checkDirectories(of: path)
    }

    /// Where a store would be made or opened, checked as opening it checks (configure's
    /// refusal is the store's own): the database and the key file's directories.
    public static func checkPlace(_ location: StoreLocation) throws(HelperError) {
        try checkDatabase(location.database)
        try checkKeyFile(location.keyFile)
    }

    static func checkDirectories(of path: String) throws(HelperError) {
        try PrivateFiles.checkAncestors(of: path)
        try PrivateFiles.checkOwned(PrivateFiles.directory(of: path), as: .directory)
    }
}
