import Foundation
import Testing

/// What only git-credential-secretservice does, run directly on the test keyring of
/// scripts/with-test-keyring. The protocol itself, for every helper: ProtocolTests; its
/// items as other libsecret clients see them: SecretServiceCompatibilityTests.
@Suite struct SecretServiceHelperTests {
    /// It has no options: one a person copies from git-credential-sqlite's configuration
    /// is refused, not ignored.
    @Test(arguments: [["--frobnicate", "store"], ["store", "--no-such-option"], ["--db", "/tmp/x.db", "store"]])
    func optionsAreRefusedWithOneLine(arguments: [String]) throws {
        let keyring = try SharedKeyring(), host = keyring.names("example.com")
        let alice = wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret")
        let result = try keyring.helper.invoke(arguments, input: alice)
        expectOneLineFailure(result, exitCode: 2)
        #expect(result.stdout.isEmpty)
        #expect(try keyring.count(["server": host]) == 0)
    }
}

/// Other processes change the keyring between a helper's search and what it does next:
/// git runs a helper per fetch or push, a person runs several at once. An item that
/// another process deleted in between is gone, not an error: libsecret failed the whole
/// search ("No such secret item at path"), and a Delete of it failed ("Object does not
/// exist"); a third of the erases below failed so.
@Suite struct SecretServiceRacingProcessesTests {
    @Test(arguments: SecretServiceProvider.allCases)
    func erasesAndGetsRacingErasesOfOneItemAllSucceed(provider: SecretServiceProvider) throws {
        let keyring = try SharedKeyring(provider), host = keyring.names("race.example.com")
        let request = wire("protocol=https", "host=\(host)")
        let results = ResultsBox()
        nonisolated(unsafe) let helper = keyring.helper  // runs processes; shares nothing it changes
        for _ in 0..<12 {
            expectSuccess(try keyring.helper.store(wire("protocol=https", "host=\(host)", "username=u", "password=racing-pw")))
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                results.append(index % 2 == 0 ? try? helper.erase(request) : try? helper.get(request))
            }
        }
        for result in results.all {
            guard let result else { Issue.record("a helper did not run"); continue }
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
            #expect(result.stdout.isEmpty || result.stdoutText.contains("password=racing-pw\n"), "\(result)")
        }
        #expect(results.all.count == 48)
        #expect(try keyring.count(["server": host]) == 0)
    }
}

final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [ProcessResult?] = []
    func append(_ result: ProcessResult?) { lock.withLock { results.append(result) } }
    var all: [ProcessResult?] { lock.withLock { results } }
}
