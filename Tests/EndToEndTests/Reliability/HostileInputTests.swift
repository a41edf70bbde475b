import Foundation
import Testing

/// Issue 6, part 3: every executable fed hostile stdin (the adversarial cases the issue
/// names, then seeded random ones): it never crashes or hangs, exits 0, 1 or 2, says at
/// most one line on stderr without the password, and a store then holds nothing new or
/// exactly the credential the input carries, never a partial or injected one.
/// HOSTILE_SEED=N replays a run; `make stress` runs more and larger cases.
@Suite struct HostileInputTests {
    static let randomCases = ReliabilityReport.size(ci: 30, stress: 400)
    static let randomHeaderCases = ReliabilityReport.size(ci: 150, stress: 3000)
    static let longLine = ReliabilityReport.size(ci: 1 << 20, stress: 16 << 20)
    static let attributes = ReliabilityReport.size(ci: 10_000, stress: 100_000)
    /// Several random hazards may each add this many lines; the input stays far below 8 MiB.
    static let randomAttributes = 5_000

    static let keeper = wire("protocol=https", "host=keeper.example", "username=kim", "password=keeper-secret")

    /// The adversarial cases, then `count` random ones, each on a host of its own.
    static func inputs(randomCount count: Int, seed: UInt64) -> [HostileInput] {
        var random = SplitMix64(seed: seed)
        return HostileInput.adversarial(host: { "a\($0).example" }, longLine: longLine, attributes: attributes,
                                        beyondInputBound: ReliabilityReport.stress, using: &random)
            + (0..<count).map {
                HostileInput.random(host: "r\($0).example", longLine: longLine, attributes: randomAttributes, using: &random)
            }
    }

    @Test(arguments: StoringHelper.allCases)
    func storingHelper(target: StoringHelper) throws {
        let world = try HostileWorld(target), helper = world.helper
        try helper.storeAll(Self.keeper)
        print("hostile input: \(target.rawValue): HOSTILE_SEED=\(HostileSeed.run) replays this run")
        let seed = HostileSeed.run ^ UInt64(StoringHelper.allCases.firstIndex(of: target)!)
        let inputs = Self.inputs(randomCount: Self.randomCases, seed: seed)
        let start = Date()
        var failures = 0
        for input in inputs {
            let problems = try Self.check(input, on: helper)
            if !problems.isEmpty {
                failures += 1
                Issue.record("\(target.rawValue), HOSTILE_SEED=\(HostileSeed.run), \(input.name): \(problems) for \(Self.shown(input.bytes))")
            }
        }
        // Every hostile erase removed at most its own credential: the keeper is there as stored.
        #expect(try Self.rows(helper.list()) == [Self.row(host: "keeper.example")])
        #expect(try helper.password(for: wire("protocol=https", "host=keeper.example")) == "keeper-secret")
        ReliabilityReport.record(part: "hostile input: \(Self.shortName(target))", cases: inputs.count * 3, failures: failures,
                                 seconds: Date().timeIntervalSince(start))
    }

    @Test func basicAuthHeader() throws {
        let sandbox = try Sandbox()
        print("hostile input: basic-auth-header: HOSTILE_SEED=\(HostileSeed.run) replays this run")
        let inputs = Self.inputs(randomCount: Self.randomHeaderCases, seed: HostileSeed.run ^ 0xBA51C)
        let start = Date()
        var failures = 0
        for input in inputs {
            let result = try sandbox.run(BuiltProducts.basicAuthHeader, [], input: input.bytes)
            var problems = Self.generalProblems("basic-auth-header", result, input)
            if let intended = input.intended, let token = Self.basicToken(intended) {
                problems += Self.expect(result, exit: 0, stdout: Array("Authorization: Basic \(token)\n".utf8), "header")
            } else {
                // Rejected input, or a credential Basic cannot carry (':' in the user, control characters).
                problems += Self.expect(result, exit: 2, stdout: [], "header")
            }
            if !problems.isEmpty {
                failures += 1
                Issue.record("basic-auth-header, HOSTILE_SEED=\(HostileSeed.run), \(input.name): \(problems) for \(Self.shown(input.bytes))")
            }
        }
        ReliabilityReport.record(part: "hostile input: basic-auth-header", cases: inputs.count, failures: failures,
                                 seconds: Date().timeIntervalSince(start))
    }

    /// The name in the summary table, which has room for 44 characters.
    static func shortName(_ helper: StoringHelper) -> String {
        helper == .keyringOverSSH ? "git-credential-keyring, no bus" : helper.rawValue
    }

    // MARK: Checks

    /// store, get and erase with the hostile input, and what the store holds in between.
    static func check(_ input: HostileInput, on helper: any CredentialHelper) throws -> [String] {
        var problems: [String] = []
        func run(_ action: String) throws -> ProcessResult {
            let result = try helper(action, input: input.bytes)
            problems += generalProblems(action, result, input)
            return result
        }
        let expected = input.intended
        problems += expect(try run("store"), exit: input.rejected ? 2 : 0, stdout: [], "store")
        problems += expect(try run("get"), exit: input.rejected ? 2 : 0, stdout: expected?.answer ?? [], "get")

        let listed = try helper.list()
        let holds = rows(listed), intended = [row(host: "keeper.example")] + (expected.map { [row(host: $0.host, path: $0.path)] } ?? [])
        if holds != intended.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            problems.append("the store holds \(holds), not \(intended)")
        }
        if listed.stdout.bytes.containsUTF8(input.secret) { problems.append("list shows the password") }

        problems += expect(try run("erase"), exit: input.rejected ? 2 : 0, stdout: [], "erase")
        return problems
    }

    /// What holds for every run: an exit status of 0, 1 or 2 (no signal, no hang), at most
    /// one line on stderr, and no password there.
    static func generalProblems(_ action: String, _ result: ProcessResult, _ input: HostileInput) -> [String] {
        var problems: [String] = []
        if result.timedOut {
            problems.append("\(action) hung")
        } else if let code = result.exitCode {
            if ![0, 1, 2].contains(code) { problems.append("\(action) exited \(code)") }
        } else {
            problems.append("\(action) was killed by signal \(result.signal ?? 0)")
        }
        if result.stderrLines.count > 1 || (!result.stderr.isEmpty && !result.stderrText.hasSuffix("\n")) {
            problems.append("\(action) wrote more than one line on stderr: \(result.stderr)")
        }
        if result.stderr.bytes.containsUTF8(input.secret) { problems.append("\(action) quotes the password on stderr") }
        return problems
    }

    /// The exit status and stdout a correct helper gives: nothing on stderr on success,
    /// one line (`PROG: ...`) on failure.
    static func expect(_ result: ProcessResult, exit code: Int32, stdout: [UInt8], _ action: String) -> [String] {
        var problems: [String] = []
        if result.exitCode != code { problems.append("\(action) exited \(result.exitCode.map(String.init) ?? "by a signal"), not \(code)") }
        if result.stdout.bytes != stdout { problems.append("\(action) printed \(result.stdout), not \(Output(bytes: stdout))") }
        if code == 0 && !result.stderr.isEmpty { problems.append("\(action) succeeded with \(result.stderr) on stderr") }
        if code != 0 && result.stderrLines.count != 1 { problems.append("\(action) did not fail with one line on stderr") }
        return problems
    }

    /// `list`'s rows as protocol, host and path (the columns without spaces), sorted.
    static func rows(_ listed: ProcessResult) -> [[String]] {
        listed.stdoutLines.dropFirst().map { Array($0.split(separator: " ").prefix(3).map(String.init)) }
            .sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func row(host: String, path: String? = nil) -> [String] { ["https", host, path ?? "-"] }

    /// The Basic token for a credential that Basic can carry (RFC 7617: UTF-8, no control
    /// characters, no ':' in the user), computed with Foundation, not with our Base64.
    static func basicToken(_ credential: IntendedCredential) -> String? {
        let parts = [credential.username, credential.password].map { String(bytes: $0, encoding: .utf8) }
        guard let username = parts[0], let password = parts[1], !username.contains(":"),
              !(username + password).unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return nil }
        return Data(credential.username + [0x3A] + credential.password).base64EncodedString()
    }

    /// The input for a failure message: short, escaped.
    static func shown(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription + (bytes.count > 300 ? " (\(bytes.count) bytes)" : "")
    }
}

/// A storing helper for the hostile inputs, with a store of its own: the SQLite store in a
/// sandbox, or a gnome-keyring on a private bus (its `list` shows only this test's items).
final class HostileWorld {
    let sandbox: Sandbox
    let helper: any CredentialHelper
    private let session: PrivateSessionBus?

    init(_ target: StoringHelper) throws {
        sandbox = try Sandbox()
        switch target {
        case .sqlite, .keyringOverSSH:
            session = nil
            helper = target == .sqlite ? sandbox.sqlite() : KeyringHelper(sandbox: sandbox, environment: try sandbox.noSessionBus())
        case .secretService, .keyring:
            let session = try PrivateSessionBus(sandbox: sandbox, services: .none)
            try session.startKeyring()
            self.session = session
            helper = target == .secretService
                ? SecretServiceHelper(sandbox: sandbox, bus: session.bus)
                : KeyringHelper(sandbox: sandbox, environment: session.bus.environment)
        }
    }
}
