import Foundation
import Testing

/// Part 1 of the reliability suite: many helper processes at once on one store, each a
/// shell loop of store, get and erase on keys of its own (half of them on one host that
/// all share). Every operation succeeds, every get answers what the worker last stored,
/// and afterwards the store holds exactly what a model of the operations says.
@Suite(.serialized) struct ReliabilityConcurrencyTests {
    @Test func sqliteHelperProcessesAtOnce() throws {
        let workers = ReliabilityReport.size(ci: 8, stress: 16), each = ReliabilityReport.size(ci: 500, stress: 2000)
        let sandbox = try Sandbox(), names = UniqueNames(), seed = UInt64.random(in: 0...UInt64.max)
        let workload = Workload(workers: workers, operations: each, seed: seed) { names($0) }
        let tally = ReliabilityTally(part: "1. concurrency: git-credential-sqlite")
        // In CI the store is in memory (/dev/shm) when there is one: on a disk, each write
        // waits ~30 ms for fsync and the writes queue up behind each other, which makes this
        // part take minutes. Locking and transactions are the same; `make stress` uses the disk.
        let memory = "/dev/shm/e2e-" + UUID().uuidString
        let inMemory = !ReliabilityReport.stress && mkdir(memory, 0o700) == 0
        defer { if inMemory { try? FileManager.default.removeItem(atPath: memory) } }
        let database = inMemory ? memory + "/credentials.db" : sandbox.database
        let options = inMemory ? ["--db", database, "--key-file", memory + "/key"] : []

        let secrets = ["password": Workload.passwordMarker, "username": Workload.usernameMarker, "host": names.tag]
        let (outcome, processes) = try ProcessSampler.watching(secrets: secrets) {
            try Workload.run(workload.operations, in: sandbox, helper: BuiltProducts.sqliteHelper, options: options)
        }
        expect(outcome, seed: seed, tally: tally)
        let final = try Workload.run([workload.finalChecks], in: sandbox, helper: BuiltProducts.sqliteHelper, options: options)
        expect(final, seed: seed, tally: tally)

        let store = StoreFiles(sandbox: sandbox, database: database)
        let rows = try store.rowCount(), integrity = try store.integrityCheck()
        tally.check(rows == workload.model.count, "\(rows ?? -1) rows, the model holds \(workload.model.count)")
        tally.check(integrity == ["ok"], "integrity_check: \(integrity)")
        tally.record()

        // Part 5 on what this part left: no secret in a command line, an environment, or
        // what any process said; no host, username or password in the store's files.
        let secrecy = ReliabilityTally(part: "5. secrets: argv, environment, output, files")
        secrecy.check(processes.findings.isEmpty && processes.programs.contains("git-credential-sqlite"), "\(processes)")
        secrecy.check(!(outcome.captured + final.captured).containsBytes(Array(Workload.passwordMarker.utf8)),
                      "a password in what the workers captured")
        let revealed = store.reveal(secrets)
        secrecy.check(revealed.isEmpty, "\(revealed)")
        secrecy.record()
    }

    @Test func secretServiceHelperProcessesAtOnce() throws {
        let workers = ReliabilityReport.size(ci: 4, stress: 8), each = ReliabilityReport.size(ci: 100, stress: 500)
        let keyring = try SharedKeyring(), seed = UInt64.random(in: 0...UInt64.max)
        let workload = Workload(workers: workers, operations: each, seed: seed) { keyring.names($0) }
        let tally = ReliabilityTally(part: "1. concurrency: git-credential-secretservice")

        let outcome = try Workload.run(workload.operations, in: keyring.sandbox, helper: BuiltProducts.secretServiceHelper,
                                       environment: keyring.bus.environment)
        expect(outcome, seed: seed, tally: tally)
        let final = try Workload.run([workload.finalChecks], in: keyring.sandbox, helper: BuiltProducts.secretServiceHelper,
                                     environment: keyring.bus.environment)
        expect(final, seed: seed, tally: tally)
        // No duplicates left behind by racing stores: one item per key of the model.
        let items = try keyring.names.hosts.reduce(0) { try $0 + keyring.count(["server": $1]) }
        tally.check(items == workload.model.count, "\(items) items, the model holds \(workload.model.count)")
        tally.check(!(outcome.captured + final.captured).containsBytes(Array(Workload.passwordMarker.utf8)),
                    "a password in what the workers captured")
        tally.record()
    }

    func expect(_ outcome: WorkloadOutcome, seed: UInt64, tally: ReliabilityTally,
                sourceLocation: SourceLocation = #_sourceLocation) {
        tally.add(cases: outcome.operations, failures: outcome.failures)
        #expect(outcome.failures == 0 && outcome.problems.isEmpty,
                "seed \(seed): \(outcome.failures) of \(outcome.operations) failed: \(outcome.problems.prefix(20))",
                sourceLocation: sourceLocation)
    }
}
