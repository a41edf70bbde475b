import CredentialCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Part 5 of the reliability suite: secrets stay secret. Command lines, environments,
/// what processes say and the raw bytes of the store after many operations:
/// ReliabilityConcurrencyTests. Here: no core dumps, owner-only files whatever the
/// umask, and erased records gone from the files.
@Suite struct ReliabilitySecrecyTests {
    static let part = "5. secrets: core dumps, modes, erased records"

    /// A helper waiting for its request on stdin, started with core dumps allowed: it has
    /// made itself not dumpable, with no core file size, before it reads anything.
    @Test func aRunningHelperCannotDumpCore() throws {
        let sandbox = try Sandbox(), tally = ReliabilityTally(part: Self.part)
        // Root owns the /proc files of every undumpable process: as root, the helper runs
        // as nobody, so that they show whether it is dumpable.
        let asNobody = geteuid() == 0 ? Sandbox.asAnotherUser : []
        let helper = try BackgroundProcess("/bin/sh", ["-c", #"ulimit -S -c "$(ulimit -H -c)"; exec "$@""#, "sh"]
                                               + asNobody + [BuiltProducts.sqliteHelper, "get"],
                                           environment: sandbox.environment, directory: "/")
        defer { helper.stop() }
        let owner = geteuid() == 0 ? uid_t(65534) : geteuid()
        let (limit, dumpable) = Self.waitUntilHardened(helper.pid, owner: owner)
        tally.check(limit == "0", "core file size limit \(limit ?? "unknown")")
        tally.check(!dumpable, "the helper is dumpable: /proc/\(helper.pid) belongs to its user")
        tally.record()
    }

    /// The soft core file size limit of `pid`, and whether it is dumpable (its /proc
    /// directory belongs to `owner`, not to root), once it is hardened or after 10 s.
    static func waitUntilHardened(_ pid: pid_t, owner: uid_t) -> (limit: String?, dumpable: Bool) {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
            let line = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
            let limit = line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first.map(String.init)
            var info = stat()
            let dumpable = stat("/proc/\(pid)/status", &info) != 0 || info.st_uid == owner
            if (limit == "0" && !dumpable) || Date() >= deadline { return (limit, dumpable) }
            usleep(10_000)
        }
    }

    /// Under umask 000, as a careless login script leaves it, every file and directory the
    /// helper makes is still the owner's alone.
    @Test func filesAreOwnerOnlyWhateverTheUmask() throws {
        let sandbox = try Sandbox(), tally = ReliabilityTally(part: Self.part)
        for (index, action) in ["store", "store", "erase", "store"].enumerated() {
            let result = try sandbox.run("/bin/sh", ["-c", #"umask 000; exec "$0" "$1""#, BuiltProducts.sqliteHelper, action],
                                         input: ReliabilityFaultTests.credential(index % 2))
            tally.check(result.exitCode == 0 && result.stderr.isEmpty, "\(action): \(result)")
        }
        for directory in [sandbox.databaseDirectory, sandbox.keyDirectory] {
            tally.check(permissions(of: directory) == 0o700, "\(directory): mode \(String(permissions(of: directory) ?? 0, radix: 8))")
            for file in files(in: directory) {
                tally.check(permissions(of: file) == 0o600, "\(file): mode \(String(permissions(of: file) ?? 0, radix: 8))")
            }
        }
        tally.record()
    }

    /// An erased credential, and one replaced by a new store, leave none of their bytes
    /// (the sealed record, the host's tag) in the database, its WAL or its -shm.
    @Test func erasedAndReplacedRecordsAreGoneFromTheFiles() throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper, tally = ReliabilityTally(part: Self.part)
        let store = StoreFiles(sandbox: sandbox, database: sandbox.database)
        let erased = wire("protocol=https", "host=erased.example", "username=u", "password=erased-secret")
        let replaced = wire("protocol=https", "host=replaced.example", "username=u", "password=old-secret")
        let kept = (0..<8).map { wire("protocol=https", "host=kept\($0).example", "username=u", "password=kept-secret") }
        try helper.storeAll(erased)
        try helper.storeAll(replaced)
        try kept.forEach { try helper.storeAll($0) }
        let rows = try Self.rawRows(store)  // in the order stored

        expectSuccess(try helper.erase(wire("protocol=https", "host=erased.example")))
        try helper.storeAll(wire("protocol=https", "host=replaced.example", "username=u", "password=new-secret"))
        #expect(try helper.password(for: wire("protocol=https", "host=replaced.example")) == "new-secret")
        let gone = ["erased record": rows[0].sealed, "erased host's tag": rows[0].tag, "replaced record": rows[1].sealed]
        let left = store.reveal(bytes: gone)
        tally.check(left.isEmpty, "\(left)")
        tally.check(store.reveal(bytes: ["a kept record": rows[2].sealed]).count == 1, "the check cannot find a record that is there")

        // The check finds what SQLite leaves without secure_delete.
        _ = try store.query("PRAGMA secure_delete=OFF; DELETE FROM credential WHERE id = (SELECT max(id) FROM credential WHERE sealed = x'\(Hex.encode(rows[3].sealed))')")
        tally.check(!store.reveal(bytes: ["record deleted without secure_delete": rows[3].sealed]).isEmpty,
                    "a record deleted without secure_delete was not found: the check is blind")
        tally.record()
    }

    /// Every row's tag and sealed record, by ascending id.
    static func rawRows(_ store: StoreFiles) throws -> [(tag: [UInt8], sealed: [UInt8])] {
        try store.query("SELECT hex(tag), hex(sealed) FROM credential ORDER BY id").map { line in
            let fields = line.split(separator: "|").map { field in
                let digits = Array(field)
                return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
            }
            return (fields[0], fields[1])
        }
    }
}
