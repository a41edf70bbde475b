import Foundation
import Testing

/// Each helper as git runs it: `git credential fill|approve|reject` with the helper
/// configured on the command line, every other helper reset.
@Suite struct GitCredentialTests {
    @Test func gitIsAtLeast239() throws {
        let result = try Sandbox().git(["--version"])
        #expect(result.exitCode == 0, "\(result)")
        let words = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        let version = words.last?.split(separator: ".").prefix(2).compactMap { Int($0) } ?? []
        #expect(version.count == 2 && !version.lexicographicallyPrecedes([2, 39]), "\(result)")
    }

    @Test(arguments: Backend.allCases)
    func approveThenFill(backend: Backend) throws {
        let world = try BackendWorld(backend), host = world.names("git.example")
        try world.git.approve("protocol=https", "host=\(host)", "username=alice", "password=alice-secret")
        let filled = try world.git.filled(wire("protocol=https", "host=\(host)"))
        #expect(filled?["username"] == "alice")
        #expect(filled?["password"] == "alice-secret")
    }

    @Test func theSQLiteHelperUsesOptionsOfTheHelperString() throws {
        let world = try BackendWorld(.sqlite)
        try world.git.approve("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
        #expect(fileExists(try #require(world.database)), "the helper did not use --db from the helper string")
    }

    @Test(arguments: Backend.allCases, GitCredential.awkwardPasswords)
    func passwordsRoundTripExactly(backend: Backend, password: String) throws {
        let world = try BackendWorld(backend), host = world.names("git.example")
        try world.git.approve("protocol=https", "host=\(host)", "username=\(GitCredential.awkwardUsername)", "password=\(password)")
        let filled = try world.git.filled(wire("protocol=https", "host=\(host)"))
        #expect(filled?["username"] == GitCredential.awkwardUsername)
        #expect(filled?["password"] == password)
    }

    @Test(arguments: Backend.allCases)
    func severalUsersOnOneHost(backend: Backend) throws {
        let world = try BackendWorld(backend), host = world.names("git.example")
        try world.git.approve("protocol=https", "host=\(host)", "username=alice", "password=alice-secret")
        try world.git.approve("protocol=https", "host=\(host)", "username=bob", "password=bob-secret")
        #expect(try world.git.filledPassword("protocol=https", "host=\(host)", "username=alice") == "alice-secret")
        #expect(try world.git.filledPassword("protocol=https", "host=\(host)", "username=bob") == "bob-secret")
    }

    @Test(arguments: Backend.allCases)
    func aHostWithAPort(backend: Backend) throws {
        let world = try BackendWorld(backend), host = world.names("git.example")
        try world.git.approve("protocol=https", "host=\(host):8443", "username=alice", "password=port-secret")
        #expect(try world.git.filledPassword("protocol=https", "host=\(host):8443") == "port-secret")
        #expect(try world.git.filledPassword("protocol=https", "host=\(host)") == nil)
    }

    @Test(arguments: Backend.allCases)
    func useHttpPathKeepsRepositoriesApart(backend: Backend) throws {
        let world = try BackendWorld(backend), host = world.names("git.example"), config = ["credential.useHttpPath=true"]
        try world.git.approve("protocol=https", "host=\(host)", "path=team/one.git", "username=ci", "password=one-secret", config: config)
        try world.git.approve("protocol=https", "host=\(host)", "path=team/two.git", "username=ci", "password=two-secret", config: config)
        #expect(try world.git.filledPassword("protocol=https", "host=\(host)", "path=team/one.git", config: config) == "one-secret")
        #expect(try world.git.filledPassword("protocol=https", "host=\(host)", "path=team/two.git", config: config) == "two-secret")
        #expect(try world.git.filledPassword("protocol=https", "host=\(host)", "path=team/three.git", config: config) == nil)
    }

    @Test(arguments: Backend.allCases)
    func rejectRemovesTheCredential(backend: Backend) throws {
        let world = try BackendWorld(backend), host = world.names("git.example"), other = world.names("other.example")
        try world.git.approve("protocol=https", "host=\(host)", "username=alice", "password=alice-secret")
        try world.git.approve("protocol=https", "host=\(other)", "username=alice", "password=other-secret")
        try world.git.reject("protocol=https", "host=\(host)", "username=alice", "password=alice-secret")
        #expect(try world.git.filledPassword("protocol=https", "host=\(host)") == nil)
        #expect(try world.git.filledPassword("protocol=https", "host=\(other)") == "other-secret")
    }
}
