import Foundation
import Testing

/// git-credential-sqlite as git runs it: `git credential fill|approve|reject` with the
/// helper configured on the command line, every other helper reset.
@Suite struct GitCredentialTests {
    let sandbox: Sandbox
    let database: String

    init() throws {
        sandbox = try Sandbox()
        database = sandbox.root + "/git-store/credentials.db"
    }

    /// `git -c credential.helper= -c credential.helper="<helper> --db <database>" [-c extra] credential ACTION`.
    func credential(_ action: String, _ input: [UInt8], config: [String] = []) throws -> ProcessResult {
        let helper = "\(BuiltProducts.sqliteHelper) --db \(database)"
        let options = (["credential.helper=", "credential.helper=\(helper)"] + config).flatMap { ["-c", $0] }
        return try sandbox.git(options + ["credential", action], input: input)
    }

    func approve(_ lines: String..., config: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try credential("approve", wire(lines), config: config)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "approve: \(result)", sourceLocation: sourceLocation)
    }

    /// The password git fills in, or nil when git finds none (and, with prompts off, fails).
    func filledPassword(_ lines: String..., config: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let result = try credential("fill", wire(lines), config: config)
        guard let password = result.attributes["password"] else {
            #expect(result.exitCode != 0, "fill without a password succeeded: \(result)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "fill: \(result)", sourceLocation: sourceLocation)
        return password
    }

    @Test func gitIsAtLeast239() throws {
        let result = try sandbox.git(["--version"])
        #expect(result.exitCode == 0, "\(result)")
        let words = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        let version = words.last?.split(separator: ".").prefix(2).compactMap { Int($0) } ?? []
        #expect(version.count == 2 && !version.lexicographicallyPrecedes([2, 39]), "\(result)")
    }

    @Test func approveThenFill() throws {
        try approve("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
        let result = try credential("fill", wire("protocol=https", "host=git.example"))
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.attributes["username"] == "alice")
        #expect(result.attributes["password"] == "alice-secret")
        #expect(fileExists(database), "the helper did not use --db from the helper string")
    }

    @Test(arguments: [
        #"colon:at@slash/percent%25hash#query?quote"backslash\end"#,
        "pound £ and emoji 😀 and café",
        " leading and trailing spaces ",
        "=starts with equals==",
    ])
    func passwordsRoundTripExactly(password: String) throws {
        try approve("protocol=https", "host=git.example", "username=user@corp:ü", "password=\(password)")
        let result = try credential("fill", wire("protocol=https", "host=git.example"))
        #expect(result.attributes["username"] == "user@corp:ü", "\(result)")
        #expect(result.attributes["password"] == password, "\(result)")
    }

    @Test func severalUsersOnOneHost() throws {
        try approve("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
        try approve("protocol=https", "host=git.example", "username=bob", "password=bob-secret")
        #expect(try filledPassword("protocol=https", "host=git.example", "username=alice") == "alice-secret")
        #expect(try filledPassword("protocol=https", "host=git.example", "username=bob") == "bob-secret")
    }

    @Test func aHostWithAPort() throws {
        try approve("protocol=https", "host=git.example:8443", "username=alice", "password=port-secret")
        #expect(try filledPassword("protocol=https", "host=git.example:8443") == "port-secret")
        #expect(try filledPassword("protocol=https", "host=git.example") == nil)
    }

    @Test func useHttpPathKeepsRepositoriesApart() throws {
        let config = ["credential.useHttpPath=true"]
        try approve("protocol=https", "host=git.example", "path=team/one.git", "username=ci", "password=one-secret", config: config)
        try approve("protocol=https", "host=git.example", "path=team/two.git", "username=ci", "password=two-secret", config: config)
        #expect(try filledPassword("protocol=https", "host=git.example", "path=team/one.git", config: config) == "one-secret")
        #expect(try filledPassword("protocol=https", "host=git.example", "path=team/two.git", config: config) == "two-secret")
        #expect(try filledPassword("protocol=https", "host=git.example", "path=team/three.git", config: config) == nil)
    }

    @Test func rejectRemovesTheCredential() throws {
        try approve("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
        try approve("protocol=https", "host=other.example", "username=alice", "password=other-secret")
        let reject = try credential("reject", wire("protocol=https", "host=git.example", "username=alice", "password=alice-secret"))
        #expect(reject.exitCode == 0 && reject.stderr.isEmpty, "\(reject)")
        #expect(try filledPassword("protocol=https", "host=git.example") == nil)
        #expect(try filledPassword("protocol=https", "host=other.example") == "other-secret")
    }
}
