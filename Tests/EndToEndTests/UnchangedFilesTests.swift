import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// git runs a helper twice for every authenticated fetch or push: get, then store of what
/// get answered. Neither should touch the disk or the keyring beyond reading: a get
/// creates and deletes no file, and a store of the newest item unchanged writes nothing.
@Suite struct UnchangedFilesTests {
    static let login = wire("protocol=https", "host=example.com", "username=alice", "password=pw-alice")
    static let other = wire("protocol=https", "host=example.com", "username=bob", "password=pw-bob")
    static let lookup = wire("protocol=https", "host=example.com")

    static let strace = Sandbox.which("strace")

    /// Each file the store has, with what tells a write or a new file: inode, size and
    /// modification time (ns). Of the -shm only the inode: it is SQLite's shared-memory
    /// lock table, which every reader writes to (its read mark), and holds no data.
    static func snapshot(_ directory: String) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for file in files(in: directory) {
            var info = stat()
            guard lstat(file, &info) == 0 else { continue }
            result[file] = file.hasSuffix("-shm") ? [Int(info.st_ino)]
                : [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        }
        return result
    }

    /// The file system calls of a get (strace): none creates, removes or renames anything.
    @Test(.enabled(if: strace != nil, "needs strace"))
    func aGetCreatesAndDeletesNoFile() throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper
        try helper.storeAll(Self.login)
        let before = Self.snapshot(sandbox.databaseDirectory)
        let trace = sandbox.root + "/get.strace"
        for _ in 0..<2 {  // the second get too: nothing left by the first one to clean up
            let get = try sandbox.run(Self.strace!, ["-f", "-qq", "-o", trace, "-e", "trace=%file,%desc",
                                                     BuiltProducts.sqliteHelper, "get"], input: Self.lookup)
            #expect(get.exitCode == 0 && get.attributes["password"] == "pw-alice", "\(get)")
            let calls = String(decoding: contents(of: trace) ?? [], as: UTF8.self).split(separator: "\n")
            try #require(calls.contains { $0.contains("credentials.db") }, "strace saw no access to the store: \(calls)")
            // SQLite opens its -wal and -shm with O_CREAT even when they exist: a file is
            // created only if it was not there before.
            let churn = calls.filter { call in
                guard call.contains(sandbox.databaseDirectory), !call.contains("= -1 E") else { return false }
                let created = call.contains("O_CREAT") && !before.keys.contains { call.contains("\"" + $0 + "\"") }
                return created || call.contains("unlink") || call.contains("rename") || call.contains("mkdir")
            }
            #expect(churn.isEmpty, "a get created or removed files: \(churn)")
        }
        // Nothing new and nothing grown; the database itself not rewritten.
        let after = Self.snapshot(sandbox.databaseDirectory)
        #expect(Set(after.keys) == Set(before.keys), "before \(before.keys), after \(after.keys)")
        #expect(after[sandbox.database] == before[sandbox.database], "the database changed on get")
    }

    /// What a get leaves beside the database stays private and holds no old record: the
    /// kept WAL is emptied when the last connection closes.
    @Test func theKeptWALIsEmptyAndPrivateBetweenRuns() throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper
        try helper.storeAll(Self.login)
        try helper.storeAll(Self.other)
        expectSuccess(try helper.erase(wire("protocol=https", "host=example.com", "username=bob")))
        _ = try helper.get(Self.lookup)
        let wal = sandbox.database + "-wal"
        #expect(fileExists(wal) && fileExists(sandbox.database + "-shm"), "\(files(in: sandbox.databaseDirectory))")
        #expect((contents(of: wal) ?? [0]).isEmpty, "the WAL holds \(contents(of: wal)?.count ?? -1) bytes between runs")
        for file in files(in: sandbox.databaseDirectory) {
            #expect(permissions(of: file) == 0o600, "\(file): \(String(permissions(of: file) ?? 0, radix: 8))")
        }
    }

    /// git stores what get answered after each use: nothing is written, not even a
    /// transaction (the database and its WAL keep their size and modification time).
    @Test func aStoreOfTheNewestItemUnchangedWritesNothing() throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper
        try helper.storeAll(Self.other)
        try helper.storeAll(Self.login)
        let before = Self.snapshot(sandbox.databaseDirectory)
        usleep(20_000)  // a write now would show in the modification times
        expectSuccess(try helper.store(Self.login))
        #expect(Self.snapshot(sandbox.databaseDirectory) == before, "a store of what did not change wrote to the store")
        #expect(try helper.password(for: Self.lookup) == "pw-alice")

        // A change in any stored field is written.
        let changed = wire("protocol=https", "host=example.com", "username=alice", "password=pw-alice",
                           "password_expiry_utc=4102444800")
        expectSuccess(try helper.store(changed))
        #expect(Self.snapshot(sandbox.databaseDirectory)[sandbox.database] != before[sandbox.database], "the change was not written")
        #expect(try helper.get(Self.lookup).attributes["password_expiry_utc"] == "4102444800")
    }

    /// The same through git-credential-keyring without a session bus (its SQLite file): git's
    /// store after every fetch wrote the file durably again (5 fsyncs, 12-25 ms) where the
    /// SQLite helper wrote nothing. Found by a new user timing a forwarded fetch.
    @Test(arguments: [false, true])
    func aStoreThroughTheKeyringWithoutABusOfTheNewestItemUnchangedWritesNothing(passphrase: Bool) throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox
        let keyring = KeyringHelper(sandbox: sandbox)
        if passphrase {
            let file = sandbox.root + "/passphrase"
            try ChildProcess.writeFile(file, Array("a long enough passphrase\n".utf8), mode: 0o600)
            #expect(try world.helper.with(passphraseFile: file).initPassphrase().exitCode == 0)
            let unlocked = try sandbox.run(BuiltProducts.sqliteHelper, ["--passphrase-fd", "3", "unlock"], inputFiles: [3: file])
            #expect(unlocked.exitCode == 0, "\(unlocked)")
        }
        expectSuccess(try keyring.store(Self.other))
        expectSuccess(try keyring.store(Self.login))
        let which = try keyring.which()
        #expect(which.contains("sqlite"), "not the SQLite store: \(which)")
        let before = Self.snapshot(sandbox.databaseDirectory)
        try #require(before[sandbox.database] != nil, "no SQLite store at \(sandbox.database): \(before)")
        usleep(20_000)
        expectSuccess(try keyring.store(Self.login))
        #expect(Self.snapshot(sandbox.databaseDirectory) == before, "a store of what did not change wrote to the SQLite file")
        #expect(try keyring.get(Self.lookup).attributes["password"] == "pw-alice")
        expectSuccess(try keyring.store(wire("protocol=https", "host=example.com", "username=alice", "password=pw-changed")))
        #expect(Self.snapshot(sandbox.databaseDirectory)[sandbox.database] != before[sandbox.database], "the change was not written")
        #expect(try keyring.get(Self.lookup).attributes["password"] == "pw-changed")
    }

    /// The same for pass: a store of the newest entry unchanged writes no file and makes
    /// no commit (a commit per fetch would be a team's history of noise).
    @Test func aStoreThroughPassOfTheNewestEntryUnchangedWritesNothing() throws {
        let store = try PasswordStore()
        let helper = store.helper
        expectSuccess(try helper.store(Self.login))
        let commits = { try store.pass(["git", "rev-list", "--count", "HEAD"]).stdoutText }
        // Every entry's file below git/, with its inode, size and time.
        let entries = { () -> [String: [Int]] in
            let root = store.storeDirectory + "/git"
            let names = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            return Dictionary(uniqueKeysWithValues: names.map { name in
                var info = stat()
                lstat(root + "/" + name, &info)
                return (name, [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec])
            })
        }
        let before = (entries(), try commits())
        try #require(!before.0.isEmpty, "no entry stored")
        usleep(20_000)
        expectSuccess(try helper.store(Self.login))
        let after = (entries(), try commits())
        #expect(after.0 == before.0 && after.1 == before.1, "a store of what did not change wrote to the store")
        expectSuccess(try helper.store(wire("protocol=https", "host=example.com", "username=alice", "password=pw-changed")))
        let changed = try commits()
        #expect(changed != before.1, "the change was not committed")
        #expect(try helper.get(Self.lookup).attributes["password"] == "pw-changed")
    }

    /// Two users of one host: a store of the older one, unchanged, makes it the newest
    /// again (git stores the credential it just used, and the next get answers it).
    @Test func aStoreOfAnOlderUserUnchangedMakesItTheNewest() throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper
        try helper.storeAll(Self.login)
        try helper.storeAll(Self.other)
        #expect(try helper.get(Self.lookup).attributes["username"] == "bob")
        expectSuccess(try helper.store(Self.login))
        #expect(try helper.get(Self.lookup).attributes["username"] == "alice")
        let list = try helper.list()
        #expect(list.exitCode == 0 && list.stdoutText.components(separatedBy: "example.com").count == 3, "\(list)")
        // Now the newest: stored again, nothing is written.
        let before = Self.snapshot(sandbox.databaseDirectory)
        usleep(20_000)
        expectSuccess(try helper.store(Self.login))
        #expect(Self.snapshot(sandbox.databaseDirectory) == before)
    }
}

/// The same for the Secret Service: a store of the newest item unchanged leaves the item
/// as it is (no CreateItem, no Delete: its object path and modification time stay).
@Suite struct SecretServiceUnchangedItemTests {
    @Test func aStoreOfTheNewestItemUnchangedKeepsTheItem() throws {
        let sandbox = try Sandbox(), bus = try SessionBus.testKeyring()
        let helper = SecretServiceHelper(sandbox: sandbox, bus: bus), tool = SecretTool(sandbox: sandbox, bus: bus)
        let host = "unchanged-\(UUID().uuidString.prefix(8)).example.com"
        let login = wire("protocol=https", "host=\(host)", "username=alice", "password=pw-alice")
        defer { _ = try? helper.erase(wire("protocol=https", "host=\(host)")) }
        expectSuccess(try helper.store(login))
        func item() throws -> [String] {
            // The object path and the created/modified lines of the one item of the host.
            try tool.run(["search", "--all", "server", host]).stdoutLines.filter {
                $0.hasPrefix("[/") || $0.hasPrefix("created") || $0.hasPrefix("modified")
            }
        }
        let before = try item()
        try #require(before.count == 3, "\(before)")
        sleep(1)  // the keyring's times are in seconds
        expectSuccess(try helper.store(login))
        #expect(try item() == before, "the item was rewritten")
        #expect(try helper.get(wire("protocol=https", "host=\(host)")).attributes["password"] == "pw-alice")

        expectSuccess(try helper.store(wire("protocol=https", "host=\(host)", "username=alice", "password=pw-new")))
        let after = try item()
        #expect(after.count == 3 && after != before, "a changed password did not replace the item: \(after)")
        #expect(try helper.get(wire("protocol=https", "host=\(host)")).attributes["password"] == "pw-new")
    }

    /// The same item in another collection (gnome-keyring's session one, kept in memory)
    /// does not make a store needless: the store goes to the default collection, so the
    /// credential outlives the session. (An attacker's finding: nothing was written.)
    @Test func theSameItemInAnotherCollectionIsNoReasonToStoreNothing() throws {
        let world = try KeyringWorld()
        let helper = world.secretService, tool = world.secretTool
        let stored = try tool.run(["store", "--label=Git: https://sess.example/", "--collection=/org/freedesktop/secrets/collection/session",
                                   "protocol", "https", "server", "sess.example", "user", "u", "xdg:schema", "org.git.Password"], input: Array("pw".utf8))
        try #require(stored.exitCode == 0, "\(stored)")
        expectSuccess(try helper.store(wire("protocol=https", "host=sess.example", "username=u", "password=pw")))
        let paths = try tool.run(["search", "--all", "server", "sess.example"]).stdoutLines.filter { $0.hasPrefix("[/") }
        #expect(paths.count == 1 && !paths[0].hasPrefix("[/org/freedesktop/secrets/collection/session/"), "\(paths)")
        #expect(try helper.get(wire("protocol=https", "host=sess.example")).attributes["password"] == "pw")
    }
}
