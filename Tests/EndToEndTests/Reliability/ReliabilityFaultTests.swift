import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Part 4 of the reliability suite: faults of the machine and of the store's files. Each
/// gives one clear line on stderr (with a fix) and loses nothing already stored.
/// A locked gnome-keyring: SecretServiceLockedTests, which records its figures here too.
@Suite struct ReliabilityFaultTests {
    static let part = "4. faults"
    static let credential = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=example.com")
    static let another = wire("protocol=https", "host=new.example", "username=bob", "password=bob-secret")

    static func credential(_ index: Int) -> [UInt8] {
        wire("protocol=https", "host=h\(index).example", "username=u\(index)", "password=p\(index)-secret")
    }

    static func lookup(_ index: Int) -> [UInt8] { wire("protocol=https", "host=h\(index).example", "username=u\(index)") }

    // MARK: Damaged store and key file

    /// Something wrong with an existing store, what the one line must name, and how its
    /// owner puts it right (after which everything stored is there), if they can.
    struct Damage: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let phrases: [String]
        let apply: @Sendable (Sandbox) throws -> Void
        var repair: (@Sendable (Sandbox, _ key: [UInt8]) throws -> Void)? = nil

        static func keyMode(_ mode: Int, _ name: String) -> Damage {
            Damage(testDescription: "key file \(name)", phrases: ["mode \(String(mode, radix: 8))", "chmod 600"]) {
                try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: $0.keyFile)
            } repair: { sandbox, _ in
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: sandbox.keyFile)
            }
        }

        static let all = [
            Damage(testDescription: "database replaced by random bytes", phrases: ["not a git-credential-sqlite store"]) { sandbox in
                try sandbox.file("data/git-credential-sqlite/credentials.db", (0..<8192).map { _ in UInt8.random(in: 0...255) })
            },
            Damage(testDescription: "truncated database", phrases: ["damaged"]) { sandbox in
                let bytes = contents(of: sandbox.database) ?? []
                try sandbox.file("data/git-credential-sqlite/credentials.db", Array(bytes.prefix(bytes.count / 2)))
            },
            Damage(testDescription: "missing key file", phrases: ["missing"]) { sandbox in
                try FileManager.default.removeItem(atPath: sandbox.keyFile)
            } repair: { sandbox, key in
                try sandbox.file("config/git-credential-sqlite/key", key)
            },
            Damage(testDescription: "key file of another store", phrases: ["does not belong"]) { sandbox in
                let other = sandbox.sqlite(["--db", sandbox.root + "/other/other.db", "--key-file", sandbox.root + "/other-key/key"])
                _ = try other.store(ReliabilityFaultTests.credential)
                try sandbox.file("config/git-credential-sqlite/key", contents(of: sandbox.root + "/other-key/key") ?? [])
            },
            keyMode(0o640, "readable by group"),
            keyMode(0o604, "readable by others"),
            keyMode(0o622, "writable by group and others"),
        ]
    }

    @Test(arguments: Damage.all)
    func aDamagedStoreFailsWithOneLineAndIsLeftAlone(damage: Damage) throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper
        let tally = ReliabilityTally(part: Self.part)
        for index in 0..<12 { try helper.storeAll(Self.credential(index)) }  // a few pages' worth of rows
        try helper.storeAll(Self.credential)
        let key = try #require(contents(of: sandbox.keyFile))
        try damage.apply(sandbox)
        let databaseBefore = try #require(contents(of: sandbox.database))
        let keyBefore = contents(of: sandbox.keyFile)

        for (action, input) in [("get", Self.lookup), ("store", Self.another), ("erase", Self.lookup)] {
            let result = try helper(action, input: input)
            tally.count(expectOneLineFailure(result, mentioning: damage.phrases + ["Fix:"]) && result.stdout.isEmpty)
            #expect(result.stdout.isEmpty, "\(action): \(result)")
        }
        tally.check(contents(of: sandbox.database) == databaseBefore, "the database was modified")
        tally.check(contents(of: sandbox.keyFile) == keyBefore, "the key file was created or modified")
        if let repair = damage.repair {
            try repair(sandbox, key)
            try expectEverythingStored(helper, tally: tally)
        }
        tally.record()
    }

    /// The `count` numbered credentials and alice's, each read back; those below `erased` gone.
    func expectEverythingStored(_ helper: any CredentialHelper, count: Int = 12, erased: Int = 0, tally: ReliabilityTally,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        for index in 0..<count {
            let password = try helper.password(for: Self.lookup(index)), expected = index < erased ? nil : "p\(index)-secret"
            tally.check(password == expected, "credential \(index): \(password == nil ? "nothing" : "a password"), expected \(expected ?? "nothing")",
                        sourceLocation: sourceLocation)
        }
        tally.check(try helper.password(for: Self.lookup) == "alice-secret", "alice's credential lost", sourceLocation: sourceLocation)
    }

    // MARK: The file system

    /// Whether this machine can give a test a tmpfs of its own (PrivateMount).
    static let canMount: Bool = {
        guard let unshare = Sandbox.which("unshare"), let sandbox = try? Sandbox() else { return false }
        let arguments = (geteuid() == 0 ? ["-m"] : ["-r", "-m"]) + ["--propagation", "private", "/bin/sh", "-c",
                                                                     "mount -t tmpfs tmpfs \"$HOME\""]
        return (try? sandbox.run(unshare, arguments))?.exitCode == 0
    }()

    @Test(.enabled(if: canMount, "needs a mount namespace: root, or unshare -rm (user namespaces)"))
    func aFullDiskFailsStoresWithOneLineAndLosesNothing() throws {
        let sandbox = try Sandbox(), mount = try PrivateMount(sandbox: sandbox, kilobytes: 256)
        let helper = mount.sqliteHelper(), tally = ReliabilityTally(part: Self.part)
        for index in 0..<12 { try helper.storeAll(Self.credential(index)) }
        try helper.storeAll(Self.credential)
        try mount.fill()

        // Stores until one fails: SQLite may still find room in pages it already has.
        var stored = 12, failure: ProcessResult?, erase = ProcessResult()
        while failure == nil && stored < 100 {
            let result = try helper.store(Self.credential(stored))
            if result.exitCode == 0 { stored += 1 } else { failure = result }
        }
        let full = try #require(failure, "100 stores on a full disk all succeeded")
        tally.count(expectOneLineFailure(full, exitCode: 1, mentioning: ["disk is full", "Fix:"]))
        // SQLite needs room for its -shm index even to read, unless another process has
        // the store open: a get, and an erase, work or say the same.
        for (action, input) in [("get", Self.lookup(1)), ("erase", Self.lookup(0))] {
            let result = try helper(action, input: input)
            if result.exitCode == 0 {
                tally.check(result.stderr.isEmpty, "\(action) on a full disk: \(result.stderr)")
            } else {
                tally.count(expectOneLineFailure(result, exitCode: 1, mentioning: ["disk is full", "Fix:"]))
            }
            if action == "erase" { erase = result }
        }

        try mount.unfill()
        try expectEverythingStored(helper, count: stored, erased: erase.exitCode == 0 ? 1 : 0, tally: tally)
        let store = StoreFiles(sandbox: sandbox, database: helper.database, mount: mount)
        tally.check(try store.integrityCheck() == ["ok"], "integrity_check failed")
        tally.check(try helper.store(Self.credential(stored)).exitCode == 0, "a store with room again failed")
        tally.record()
    }

    @Test(.enabled(if: canMount, "needs a mount namespace: root, or unshare -rm (user namespaces)"))
    func aReadOnlyFileSystemFailsWithOneLineAndLosesNothing() throws {
        let sandbox = try Sandbox(), mount = try PrivateMount(sandbox: sandbox, kilobytes: 1024)
        let helper = mount.sqliteHelper(), tally = ReliabilityTally(part: Self.part)
        for index in 0..<12 { try helper.storeAll(Self.credential(index)) }
        try helper.storeAll(Self.credential)
        try mount.remount(readOnly: true)
        // Reads work: the -wal and -shm kept beside the store let SQLite read without
        // creating them. Writes fail with one line.
        for (action, input) in [("get", Self.lookup), ("list", [])] {
            let result = try helper(action, input: input)
            tally.check(result.exitCode == 0 && result.stderr.isEmpty && !result.stdout.isEmpty, "\(action) on a read-only disk: \(result)")
        }
        for (action, input) in [("store", Self.another), ("erase", Self.lookup)] {
            let result = try helper(action, input: input)
            tally.count(expectOneLineFailure(result, exitCode: 1, mentioning: ["read-only", "Fix:"]))
            #expect(result.stdout.isEmpty, "\(action): \(result)")
        }
        try mount.remount(readOnly: false)
        try expectEverythingStored(helper, tally: tally)
        tally.check(try helper.password(for: wire("protocol=https", "host=new.example")) == nil, "a store on a read-only disk stored")
        tally.record()
    }

    /// A database file its owner made read-only (chmod 400). Root may write it anyway.
    @Test(.enabled(if: geteuid() != 0, "root writes read-only files"))
    func aReadOnlyDatabaseFailsStoresWithOneLineAndLosesNothing() throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper, tally = ReliabilityTally(part: Self.part)
        for index in 0..<12 { try helper.storeAll(Self.credential(index)) }
        try helper.storeAll(Self.credential)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: sandbox.database)
        for (action, input) in [("store", Self.another), ("erase", Self.lookup)] {
            let result = try helper(action, input: input)
            tally.count(expectOneLineFailure(result, exitCode: 1, mentioning: ["read-only", "Fix:"]))
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: sandbox.database)
        try expectEverythingStored(helper, tally: tally)
        tally.record()
    }

    // MARK: The Secret Service

    /// The bus daemon killed while the helper waits for the keyring's answer (the keyring
    /// is stopped, so the call is surely under way): the helper ends at once with one line,
    /// or silently for a get, and a new session finds every item as it was.
    @Test(arguments: ["get", "store", "erase"])
    func theBusDaemonKilledInTheMiddleOfACall(action: String) throws {
        let sandbox = try Sandbox(), tally = ReliabilityTally(part: Self.part)
        let request = action == "store" ? Self.another : Self.credential
        do {
            let session = try PrivateSessionBus(sandbox: sandbox, services: .none)
            try session.startKeyring()
            let helper = SecretServiceHelper(sandbox: sandbox, bus: session.bus, timeout: 20)
            try helper.storeAll(Self.credential)
            session.freezeKeyring()
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: ProcessResult?
            nonisolated(unsafe) let waiting = helper  // used by that thread alone until done
            Thread {
                result = try? waiting(action, input: request)
                done.signal()
            }.start()
            usleep(500_000)  // the helper has connected and sent its call by now, or will find no bus
            session.killBus()
            done.wait()
            let ended = try #require(result)
            if action == "get" {
                tally.check(ended.exitCode == 0 && ended.stdout.isEmpty && ended.stderrLines.count <= 1, "get: \(ended)")
            } else {
                tally.count(expectOneLineFailure(ended, exitCode: 1, mentioning: ["Fix:"]))
            }
        }
        // The first session's daemons are gone: a new bus and keyring on the same files.
        let session = try PrivateSessionBus(sandbox: sandbox, services: .none)
        try session.startKeyring()
        let helper = SecretServiceHelper(sandbox: sandbox, bus: session.bus)
        tally.check(try helper.password(for: Self.lookup) == "alice-secret", "alice's credential lost")
        tally.check(try helper.password(for: wire("protocol=https", "host=new.example")) == nil,
                    "a store that failed left its credential")
        tally.record()
    }
}
