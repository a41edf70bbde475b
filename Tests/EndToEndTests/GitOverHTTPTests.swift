import Foundation
import Testing

/// Real git cloning and pushing over smart HTTP (git http-backend behind the Basic-auth
/// server), with each of our helpers as `credential.helper` in ~/.gitconfig.
@Suite struct GitOverHTTPTests {
    /// One machine and a server holding repository `project`, accepting alice with an awkward password.
    struct Setup {
        let machine: ClientMachine
        let server: BasicAuthServer
        let password = awkwardPassword()

        init(_ helper: StoringHelper) throws {
            machine = try ClientMachine(helper)
            server = try machine.startServer(username: "alice", password: password)
            try server.makeRepository("project")
        }

        /// A new clone of `project` in the sandbox; returns its directory.
        func clone(_ name: String, askpass: Askpass? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let directory = machine.sandbox.root + "/" + name
            let result = try machine.git(["clone", "--quiet", server.repositoryURL("project"), directory], askpass: askpass)
            #expect(result.exitCode == 0, "clone: \(result)\n\(server.log)", sourceLocation: sourceLocation)
            return directory
        }

        /// Commits (empty) in `clone` and pushes main to origin.
        func commitAndPush(_ subject: String, in clone: String) throws -> ProcessResult {
            let commit = try machine.git(["-C", clone, "commit", "--quiet", "--allow-empty", "--message=\(subject)"])
            #expect(commit.exitCode == 0, "commit: \(commit)")
            return try machine.git(["-C", clone, "push", "--quiet", "origin", "main"])
        }
    }

    @Test(arguments: StoringHelper.allCases)
    func theFirstClonePromptsAndStoresThenCloneAndPushWorkFromTheStore(helper: StoringHelper) throws {
        let setup = try Setup(helper), machine = setup.machine, server = setup.server
        let askpass = try Askpass(sandbox: machine.sandbox, username: "alice", password: setup.password)

        _ = try setup.clone("first", askpass: askpass)
        #expect(askpass.prompts.map { $0.prefix(8) } == ["Username", "Password"], "\(askpass.prompts)")
        #expect(try machine.storedPassword(for: server) == setup.password, "the credential was not stored")

        // No askpass now, and GIT_TERMINAL_PROMPT=0: only the store can answer.
        let second = try setup.clone("second")
        let push = try setup.commitAndPush("pushed with the stored credential", in: second)
        #expect(push.exitCode == 0, "push: \(push)\n\(server.log)")
        #expect(try server.commitSubjects("project") == ["pushed with the stored credential", "initial"])
        #expect(askpass.prompts.count == 2, "asked again: \(askpass.prompts)")
    }

    @Test(arguments: StoringHelper.allCases)
    func afterThePasswordChangesTheStaleCredentialIsErased(helper: StoringHelper) throws {
        let setup = try Setup(helper), machine = setup.machine, server = setup.server
        try machine.store(username: "alice", password: setup.password, for: server)
        let clone = try setup.clone("clone")

        try server.accept(username: "alice", password: "the new password")
        let push = try setup.commitAndPush("pushed with a stale credential", in: clone)
        #expect(push.exitCode != 0 && push.stderrText.contains("Authentication failed"), "push: \(push)")
        #expect(try server.commitSubjects("project") == ["initial"])
        #expect(try machine.storedPassword(for: server) == nil, "the stale credential is still stored")

        let fetch = try machine.git(["-C", clone, "fetch", "--quiet"])
        #expect(fetch.exitCode != 0, "fetch without a credential: \(fetch)")
    }
}
