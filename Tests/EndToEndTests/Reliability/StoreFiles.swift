import Foundation

/// The files of a git-credential-sqlite store as the tests inspect them from outside:
/// with the sqlite3 program, and as raw bytes.
struct StoreFiles {
    let sandbox: Sandbox
    let database: String
    /// The mount namespace the store is in, if not ours.
    var mount: PrivateMount? = nil

    /// The database and whatever SQLite keeps beside it (-wal, -shm, -journal).
    var paths: [String] {
        let name = (database as NSString).lastPathComponent, directory = (database as NSString).deletingLastPathComponent
        return files(in: mount?.outside(directory) ?? directory).filter {
            ($0 as NSString).lastPathComponent.hasPrefix(name)
        }
    }

    /// `sqlite3 DATABASE SQL`, its output lines; throws unless it succeeds silently.
    func query(_ sql: String) throws -> [String] {
        let sqlite3 = Sandbox.which("sqlite3") ?? "/usr/bin/sqlite3", arguments = ["-batch", database, sql]
        let result = try mount?.run(sqlite3, arguments) ?? sandbox.run(sqlite3, arguments)
        guard result.exitCode == 0, result.stderr.isEmpty else { throw SpawnError(description: "sqlite3 \(sql): \(result)") }
        return result.stdoutLines
    }

    /// What `PRAGMA integrity_check` says: ["ok"] for a sound file.
    func integrityCheck() throws -> [String] { try query("PRAGMA integrity_check") }

    func rowCount() throws -> Int? { try query("SELECT count(*) FROM credential").first.flatMap { Int($0) } }

    /// "FILE holds NAME" for each text of `needles` (name: text) whose UTF-8 bytes are in
    /// one of the store's files.
    func reveal(_ needles: [String: String]) -> [String] {
        paths.flatMap { path in
            let bytes = contents(of: path) ?? []
            return needles.sorted { $0.key < $1.key }.filter { bytes.containsBytes(Array($0.value.utf8)) }
                .map { "\(path) holds \($0.key)" }
        }
    }

    /// The same for raw byte strings (sealed records, tags).
    func reveal(bytes needles: [String: [UInt8]]) -> [String] {
        paths.flatMap { path in
            let bytes = contents(of: path) ?? []
            return needles.sorted { $0.key < $1.key }.filter { bytes.containsBytes($0.value) }.map { "\(path) holds \($0.key)" }
        }
    }
}
