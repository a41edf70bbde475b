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
