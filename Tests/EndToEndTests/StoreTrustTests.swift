import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// git-credential-sqlite trusts no file or directory it did not make: the database, its
/// -wal/-shm/-journal, the key file, their directories and the directories above them
/// must be ours and writable by no one else (issue 10, item 3). Someone who can write
/// them can roll the store back to a revoked password or move the key away.
@Suite struct StoreTrustTests {
    static let credential = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=example.com")
    static let nobody = Sandbox.anotherUser

    /// A file system state the helper must refuse, the phrases its one line must hold,
    /// and whether there is a store already (created first, by us).
    struct Hostile: Sendable, CustomTestStringConvertible {
        let testDescription: String
        var withStore = false
        /// Whether get and erase must fail too (the database's own files are hostile);
        /// otherwise they may find no store and do nothing, but store must fail.
        var readsRefused = true
        let phrases: @Sendable (Sandbox) -> [String]
        let prepare: @Sendable (Sandbox) throws -> Void
    }

    // MARK: Another user's files (root only: a second uid through setpriv)

    static let otherUsers = [
        Hostile(testDescription: "empty database 0666 of another user", phrases: { [$0.database, "belongs to uid 65534", "Fix: move it aside"] }) {
            try makeDirectory($0.databaseDirectory)
            try asOtherUser($0, ": > made && chmod 666 made", move: $0.database)
        },
        Hostile(testDescription: "database directory 0777 of another user", phrases: { [$0.databaseDirectory, "belongs to uid 65534"] }) {
            try asOtherUser($0, "mkdir made && chmod 777 made", move: $0.databaseDirectory)
        },
        Hostile(testDescription: "key directory 0777 of another user", readsRefused: false,
                phrases: { [$0.keyDirectory, "belongs to uid 65534", "move this one aside"] }) {
            try asOtherUser($0, "mkdir made && chmod 777 made", move: $0.keyDirectory)
        },
        Hostile(testDescription: "directory above the database of another user", phrases: { [$0.dataHome, "belongs to uid 65534"] }) {
            try FileManager.default.removeItem(atPath: $0.dataHome)
            try asOtherUser($0, "mkdir made && chmod 755 made", move: $0.dataHome)
        },
        Hostile(testDescription: "directory above the database: a symlink of another user to ours",
                phrases: { [$0.dataHome, "symbolic link of uid 65534"] }) {
            try FileManager.default.moveItem(atPath: $0.dataHome, toPath: $0.root + "/real-data")
            try asOtherUser($0, "ln -s \"$1\" made", arguments: [$0.root + "/real-data"], move: $0.dataHome)
        },
        Hostile(testDescription: "-wal of another user beside the store", withStore: true,
                phrases: { [$0.database + "-wal", "belongs to uid 65534"] }) {
            try asOtherUser($0, ": > made && chmod 666 made", move: $0.database + "-wal")
        },
    ]

    @Test(.enabled(if: geteuid() == 0, "needs root to act as a second user (setpriv)"), arguments: otherUsers)
    func anotherUsersFileIsRefused(hostile: Hostile) throws {
        try expectRefused(hostile)
    }

    // MARK: Our own files, writable by others or symlinked

    static let ownFiles = [
        Hostile(testDescription: "database directory whose parent is writable by others", phrases: { [$0.dataHome, "writable by group or others", "Fix: chmod go-w \($0.dataHome)"] }) {
            try setMode(0o777, $0.dataHome)
        },
        Hostile(testDescription: "database writable by group", withStore: true, phrases: { [$0.database, "mode 0620", "Fix: chmod go-w \($0.database)"] }) {
            try setMode(0o620, $0.database)
        },
        Hostile(testDescription: "key directory writable by others", withStore: true, phrases: { [$0.keyDirectory, "Fix: chmod go-w"] }) {
            try setMode(0o777, $0.keyDirectory)
        },
        Hostile(testDescription: "symlinked database", phrases: { [$0.database, "symbolic link"] }) {
            try makeDirectory($0.databaseDirectory)
            let target = try $0.file("elsewhere/real.db", [UInt8]())
            try FileManager.default.createSymbolicLink(atPath: $0.database, withDestinationPath: target)
        },
        // A FIFO would block the helper (and git) in open(), waiting for a writer.
        Hostile(testDescription: "FIFO as the key file", withStore: true, phrases: { [$0.keyFile, "not a regular file"] }) {
            try FileManager.default.removeItem(atPath: $0.keyFile)
            #expect(mkfifo($0.keyFile, 0o600) == 0)
        },
        Hostile(testDescription: "FIFO as the database", phrases: { [$0.database, "not a regular file"] }) {
            try makeDirectory($0.databaseDirectory)
            #expect(mkfifo($0.database, 0o600) == 0)
        },
        Hostile(testDescription: "symlinked database directory", phrases: { [$0.databaseDirectory, "symbolic link"] }) {
            try makeDirectory($0.root + "/elsewhere")
            try FileManager.default.createSymbolicLink(atPath: $0.databaseDirectory, withDestinationPath: $0.root + "/elsewhere")
        },
    ]

    @Test(arguments: ownFiles)
    func aFileOthersCanChangeIsRefused(hostile: Hostile) throws {
        try expectRefused(hostile)
    }

    /// store, get and erase each fail with one line naming the file and the fix, doctor
    /// names it too, and nothing in the sandbox is created, read into a store or changed.
    func expectRefused(_ hostile: Hostile) throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper
        if hostile.withStore { try helper.storeAll(Self.credential) }
        try hostile.prepare(sandbox)
        let before = Self.tree(sandbox.root)
        for (action, input) in [("store", Self.credential), ("get", Self.lookup), ("erase", Self.lookup)] {
            let result = try helper(action, input: input)
            #expect(result.stdout.isEmpty, "\(action): \(result)")
            if action == "store" || hostile.readsRefused {
                expectOneLineFailure(result, exitCode: 1, mentioning: hostile.phrases(sandbox))
            } else {
                expectSuccess(result)
            }
        }
        // doctor applies the same rule and says the same.
        let doctor = try helper("doctor")
        #expect(doctor.exitCode == 1 && doctor.stdoutLines.contains { line in
            line.hasPrefix("FAIL") && hostile.phrases(sandbox).allSatisfy { line.contains($0) }
        }, "doctor: \(doctor)")
        let after = Self.tree(sandbox.root)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        #expect(changed.isEmpty, "created, changed or removed: \(changed)")
        if !hostile.withStore {
            #expect(!fileExists(sandbox.keyFile), "a key was created")
        }
    }

    // MARK: What must still work

    /// A store in a private directory of ours under /tmp or /dev/shm, both sticky and
    /// writable by all, but root's.
    @Test(arguments: ["/tmp", "/dev/shm"])
    func aPrivateDirectoryUnderAStickyRootDirectoryWorks(parent: String) throws {
        try #require(FileManager.default.fileExists(atPath: parent), "no \(parent) here")
        let sandbox = try Sandbox()
        let directory = parent + "/gcs-trust-" + UUID().uuidString
        try Self.makeDirectory(directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let helper = sandbox.sqlite(["--db", directory + "/store.db"])
        try helper.storeAll(Self.credential)
        #expect(try helper.password(for: Self.lookup) == "alice-secret")
        #expect(permissions(of: directory + "/store.db") == 0o600)
    }

    /// Directly in /tmp, anyone can pre-create its -wal or -journal: refused, with a fix
    /// that is not chmod of /tmp.
    @Test func aStoreDirectlyInASharedStickyDirectoryIsRefused() throws {
        let sandbox = try Sandbox()
        let database = "/tmp/gcs-trust-\(UUID().uuidString).db"
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(database + suffix) } }
        let result = try sandbox.sqlite(["--db", database]).store(Self.credential)
        expectOneLineFailure(result, exitCode: 1, mentioning: ["/tmp", "Fix: keep it out of /tmp, which others share and which is emptied: in a directory of your own under your home directory"])
        #expect(!fileExists(database) && !fileExists(sandbox.keyFile), "a store was created")
    }

    /// Another user whose home is under a root-owned directory (as /home): the helper,
    /// running as them, trusts root's directories above their own.
    @Test(.enabled(if: geteuid() == 0, "needs root to act as a second user (setpriv)"))
    func aUsersHomeUnderARootOwnedDirectoryWorks() throws {
        let sandbox = try Sandbox()
        let home = sandbox.root + "/nobody-home"
        try Self.makeDirectory(home)
        #expect(chown(home, Self.nobody, gid_t(Self.nobody)) == 0)
        try Self.setMode(0o755, sandbox.root)  // the "/home" of this test: root's, not writable by others
        let environment = ["HOME": home, "XDG_DATA_HOME": home + "/.local/share", "XDG_CONFIG_HOME": home + "/.config"]
        func asNobody(_ action: String, _ input: [UInt8]) throws -> ProcessResult {
            try sandbox.runAsAnotherUser(BuiltProducts.sqliteHelper, [action], input: input, environment: environment)
        }
        expectSuccess(try asNobody("store", Self.credential))
        let get = try asNobody("get", Self.lookup)
        expectSuccess(get)
        #expect(get.attributes["password"] == "alice-secret")
        var info = stat()
        #expect(lstat(home + "/.local/share/git-credential-sqlite/credentials.db", &info) == 0 && info.st_uid == Self.nobody)
    }

    // MARK: Support

    /// Runs `script` as uid 65534 in a staging directory it may write, then moves what it
    /// made there (`made`) to `destination`: a file or directory another user created.
    static func asOtherUser(_ sandbox: Sandbox, _ script: String, arguments: [String] = [], move destination: String) throws {
        let staging = sandbox.root + "/staging"
        try makeDirectory(staging, mode: 0o777)
        try setMode(0o711, sandbox.root)
        defer {
            try? FileManager.default.removeItem(atPath: staging)
            try? setMode(0o700, sandbox.root)
        }
        let result = try sandbox.runAsAnotherUser("/bin/sh", ["-c", "umask 0; cd \"$0\" && " + script, staging] + arguments)
        guard result.exitCode == 0 else { throw SpawnError(description: "as another user: \(script): \(result)") }
        guard rename(staging + "/made", destination) == 0 else {
            throw SpawnError(description: "cannot move to \(destination): \(String(cString: strerror(errno)))")
        }
    }

    static func makeDirectory(_ path: String, mode: Int = 0o700) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try setMode(mode, path)
    }

    static func setMode(_ mode: Int, _ path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// Every path under `root` with its owner, mode and contents (or link target).
    static func tree(_ root: String) -> [String: String] {
        var result: [String: String] = [:]
        func visit(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            var description = "uid \(info.st_uid) mode \(String(info.st_mode & 0o7777, radix: 8))"
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                for child in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { visit(path + "/" + child) }
            case S_IFLNK:
                description += " -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            default:
                // The -shm is SQLite's lock table, kept between runs: every reader writes
                // its read mark there. It holds no data; who owns it and its mode count.
                if path.hasSuffix("-shm") { break }
                description += " " + (contents(of: path).map { Data($0).base64EncodedString() } ?? "unreadable")
            }
            result[path] = description
        }
        visit(root)
        return result
    }
}
