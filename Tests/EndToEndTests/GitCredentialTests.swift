import Foundation
import Testing

/// git-credential-sqlite as git runs it: `git credential fill|approve|reject` with the
/// helper configured on the command line, every other helper reset.
@Suite struct GitCredentialTests {
    let sandbox: Sandbox
    let database: String
    let git: GitCredential

    init() throws {
        sandbox = try Sandbox()
        database = sandbox.root + "/git-store/credentials.db"
        git = GitCredential(sandbox: sandbox, helper: "\(BuiltProducts.sqliteHelper) --db \(database)")
    }

    @Test func gitIsAtLeast239() throws {
        let result = try sandbox.git(["--version"])
        #expect(result.exitCode == 0, "\(result)")
        let words = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        let version = words.last?.split(separator: ".").prefix(2).compactMap { Int($0) } ?? []
        #expect(version.count == 2 && !version.lexicographicallyPrecedes([2, 39]), "\(result)")
    }

    @Test func approveThenFill() throws {
        try git.approve("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
        let filled = try git.filled(wire("protocol=https", "host=git.example"))
        #expect(filled?["username"] == "alice")
        #expect(filled?["password"] == "alice-secret")
        #expect(fileExists(database), "the helper did not use --db from the helper string")
    }

    @Test(arguments: GitCredential.awkwardPasswords)
    func passwordsRoundTripExactly(password: String) throws {
        try git.approve("protocol=https", "host=git.example", "username=\(GitCredential.awkwardUsername)", "password=\(password)")
        let filled = try git.filled(wire("protocol=https", "host=git.example"))
        #expect(filled?["username"] == GitCredential.awkwardUsername)
        #expect(filled?["password"] == password)
    }

    @Test func severalUsersOnOneHost() throws {
        try git.approve("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
        try git.approve("protocol=https", "host=git.example", "username=bob", "password=bob-secret")
        #expect(try git.filledPassword("protocol=https", "host=git.example", "username=alice") == "alice-secret")
        #expect(try git.filledPassword("protocol=https", "host=git.example", "username=bob") == "bob-secret")
    }

    @Test func aHostWithAPort() throws {
        try git.approve("protocol=https", "host=git.example:8443", "username=alice", "password=port-secret")
        #expect(try git.filledPassword("protocol=https", "host=git.example:8443") == "port-secret")
        #expect(try git.filledPassword("protocol=https", "host=git.example") == nil)
    }

    @Test func useHttpPathKeepsRepositoriesApart() throws {
        let config = ["credential.useHttpPath=true"]
        try git.approve("protocol=https", "host=git.example", "path=team/one.git", "username=ci", "password=one-secret", config: config)
        try git.approve("protocol=https", "host=git.example", "path=team/two.git", "username=ci", "password=two-secret", config: config)
        #expect(try git.filledPassword("protocol=https", "host=git.example", "path=team/one.git", config: config) == "one-secret")
        #expect(try git.filledPassword("protocol=https", "host=git.example", "path=team/two.git", config: config) == "two-secret")
        #expect(try git.filledPassword("protocol=https", "host=git.example", "path=team/three.git", config: config) == nil)
    }

    @Test func rejectRemovesTheCredential() throws {
        try git.approve("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
        try git.approve("protocol=https", "host=other.example", "username=alice", "password=other-secret")
        try git.reject("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
        #expect(try git.filledPassword("protocol=https", "host=git.example") == nil)
        #expect(try git.filledPassword("protocol=https", "host=other.example") == "other-secret")
    }
}
