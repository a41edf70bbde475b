import Foundation
import Testing

/// Part 2 of the reliability suite: store processes killed with SIGKILL at random points
/// of their run, one after another on one store, some of them replacing what an earlier
/// store wrote, and some the very first store of a new database. Afterwards every store
/// that exited 0 is read back exactly, one that was killed left its key with the new
/// password or the one before (never something else, never a damaged record), and the
/// database passes `PRAGMA integrity_check`.
@Suite struct ReliabilityCrashTests {
    @Test func storesKilledAtRandomPointsLoseNothingCommitted() throws {
        let kills = ReliabilityReport.size(ci: 200, stress: 2000)
        let sandbox = try Sandbox(), names = UniqueNames(), seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let tally = ReliabilityTally(part: "2. crashes: stores killed with SIGKILL")

        // The store exists before the loop, so that most kills land in a store's work on
        // it; how long a store takes on this machine sets the range of the kill points.
        let helper = sandbox.sqlite()
        let keys = (0..<20).map { Workload.Key(host: names("crash-\($0)"), username: Workload.usernameMarker) }
        let started = Date()
        for key in keys.prefix(5) { try helper.storeAll(Self.credential(key, password: "\(Workload.passwordMarker)-first")) }
        let storeTime = Date().timeIntervalSince(started) / 5

        // What each key may hold: the password of its last store that exited 0, or of any
        // killed store after it.
        var possible: [Workload.Key: [String?]] = Dictionary(uniqueKeysWithValues: keys.map { ($0, [nil]) })
        for key in keys.prefix(5) { possible[key] = ["\(Workload.passwordMarker)-first"] }
        var script = ["set -u", Self.killer]
        var attempts: [(key: Workload.Key, password: String)] = []
        for attempt in 0..<kills {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            let password = "\(Workload.passwordMarker)-\(attempt)-\(random.next() % 1_000_000)"
            let delay = Double(random.next() % 1000) / 1000 * storeTime * 1.2
            attempts.append((key, password))
            script.append("kill_store \(attempt) '\(key.host)' '\(key.username)' '\(password)' \(String(format: "%.4f", delay))")
        }
        let run = try sandbox.run("/bin/sh", [try sandbox.file("crash-loop.sh", script.joined(separator: "\n")),
                                              BuiltProducts.sqliteHelper], timeout: 3600)
        #expect(run.exitCode == 0 && run.stderr.isEmpty, "\(run)")
        var killed = 0
        for line in run.stdoutLines {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let attempt = Int(fields[0]), let status = Int(fields[1]) else { continue }
            let (key, password) = attempts[attempt]
            // Each kill is a case: the store exits 0, or dies of the SIGKILL, nothing else.
            tally.check(status == 0 || status == 128 + 9, "store \(attempt) exited \(status), neither 0 nor killed")
            if status == 0 { possible[key] = [password] }
            if status == 128 + 9 {
                possible[key, default: []].append(password)
                killed += 1
            }
        }
        tally.check(run.stdoutLines.count == kills, "\(run.stdoutLines.count) of \(kills) stores reported")
        print("reliability: crashes: \(killed) of \(kills) stores killed before they exited (seed \(seed))")

        let reads = try Workload.run([keys.map { .get($0, allowed: possible[$0]!) }], in: sandbox,
                                     helper: BuiltProducts.sqliteHelper)
        tally.add(cases: reads.operations, failures: reads.failures)
        #expect(reads.failures == 0 && reads.problems.isEmpty, "seed \(seed): \(reads.problems)")
        let store = StoreFiles(sandbox: sandbox, database: sandbox.database)
        let rows = try store.rowCount(), integrity = try store.integrityCheck()
        tally.check(integrity == ["ok"], "integrity_check: \(integrity)")
        // One row per key at most: a killed replace leaves the old row or the new, not both.
        tally.check(rows.map { $0 <= keys.count } == true, "\(rows ?? -1) rows for \(keys.count) keys")
        tally.record()
    }

    /// The first store of a new database killed at random points: the key file and the
    /// database are made whole or not at all, so that the next store works and is read back.
    @Test func firstStoresKilledAtRandomPointsLeaveAUsableStore() throws {
        let kills = ReliabilityReport.size(ci: 30, stress: 300)
        let sandbox = try Sandbox(), names = UniqueNames(), seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let tally = ReliabilityTally(part: "2. crashes: first stores killed with SIGKILL")
        let key = Workload.Key(host: names("fresh"), username: Workload.usernameMarker)
        let started = Date()
        try sandbox.sqlite(["--db", sandbox.root + "/timing/db", "--key-file", sandbox.root + "/timing/key"])
            .storeAll(Self.credential(key, password: "\(Workload.passwordMarker)-timing"))
        let storeTime = Date().timeIntervalSince(started)

        for attempt in 0..<kills {
            let store = sandbox.sqlite(["--db", sandbox.root + "/fresh-\(attempt)/db/credentials.db",
                                        "--key-file", sandbox.root + "/fresh-\(attempt)/key/key"])
            let killedPassword = "\(Workload.passwordMarker)-killed-\(attempt)"
            let delay = Double(random.next() % 1000) / 1000 * storeTime * 1.2
            let script = try sandbox.file("crash-\(attempt).sh", Self.killer + """

                kill_store 0 '\(key.host)' '\(key.username)' '\(killedPassword)' \(String(format: "%.4f", delay))
                """)
            let killed = try sandbox.run("/bin/sh", [script, BuiltProducts.sqliteHelper] + store.options)
            tally.check(killed.exitCode == 0 && ["0 0", "0 137"].contains(killed.stdoutText.trimmingCharacters(in: .newlines)),
                        "attempt \(attempt): \(killed)")
            let password = "\(Workload.passwordMarker)-after-\(attempt)"
            let after = try store.store(Self.credential(key, password: password))
            tally.check(after.exitCode == 0 && after.stderr.isEmpty, "the store after a killed first store: \(after)")
            let read = try store.get(wire("protocol=https", "host=\(key.host)", "username=\(key.username)"))
            tally.check(read.exitCode == 0 && read.stderr.isEmpty && read.attributes["password"] == password,
                        "seed \(seed), attempt \(attempt): the get after it: exit \(read.exitCode ?? -1), \(read.stderr)")
        }
        tally.record()
    }

    static func credential(_ key: Workload.Key, password: String) -> [UInt8] {
        wire("protocol=https", "host=\(key.host)", "username=\(key.username)", "password=\(password)")
    }

    /// `kill_store ATTEMPT HOST USERNAME PASSWORD DELAY` with HELPER [OPTION...] as the
    /// script's arguments: starts a store, kills it with SIGKILL after DELAY seconds
    /// unless it is done, and prints `ATTEMPT STATUS`. Scripts are files: a password
    /// goes through builtins and a file on stdin, never a command line.
    static let killer = #"""
        helper=$1; shift; options="$*"  # paths without spaces
        input=$(mktemp "$HOME/store-input.XXXXXX")
        trap 'rm -f "$input"' EXIT
        kill_store() {
            printf 'protocol=https\nhost=%s\nusername=%s\npassword=%s\n\n' "$2" "$3" "$4" >"$input"
            "$helper" $options store <"$input" >/dev/null &
            pid=$!
            sleep "$5"
            kill -KILL $pid 2>/dev/null
            { wait $pid; } 2>/dev/null  # no "Killed" from the shell
            echo "$1 $?"
        }
        """#
}
