import Foundation
import Testing

/// While credential-curl (curl) and git run, the command line and the environment of every
/// process on the machine, sampled over and over, never hold the password, its Base64, or
/// the Base64 of `user:password` (the header's token). The server answers slowly, so that
/// the clients are sampled while they wait for it.
@Suite struct SecretsInProcessesTests {
    static func secrets(username: String, password: String) -> [String: String] {
        ["password": password,
         "base64(password)": Data(password.utf8).base64EncodedString(),
         "base64(user:password)": Data("\(username):\(password)".utf8).base64EncodedString()]
    }

    func expectNothingFound(_ report: ProcessSampler.Report, whileRunning programs: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(report.findings.isEmpty, "\(report)", sourceLocation: sourceLocation)
        for program in programs {
            #expect(report.programs.contains(program), "never saw \(program) running: \(report)", sourceLocation: sourceLocation)
        }
    }

    /// The sampler itself: a secret in a command line and in an environment is found.
    @Test func theSamplerFindsASecretInArgvAndInTheEnvironment() throws {
        let sandbox = try Sandbox(), secret = awkwardPassword()
        let (result, report) = try ProcessSampler.watching(secrets: ["the secret": secret]) {
            try sandbox.run("/bin/sh", ["-c", "sleep 0.3; true", "sh", "argument " + secret], environment: ["LEAK": secret])
        }
        #expect(result.exitCode == 0, "\(result)")
        #expect(Set(report.findings.map { $0.file.split(separator: "/").last! }) == ["cmdline", "environ"], "\(report)")
    }

    @Test func credentialCurl() throws {
        let machine = try ClientMachine(.sqlite), password = awkwardPassword()
        let server = try machine.startServer(username: "alice", password: password, responseDelay: 0.5)
        let askpass = try Askpass(sandbox: machine.sandbox, username: "alice", password: password)
        let (results, report) = try ProcessSampler.watching(secrets: Self.secrets(username: "alice", password: password)) {
            // Asked (then approved), then from the store, then with stdin posted.
            [try machine.credentialCurl(["--silent", "--fail", server.url("/echo")], askpass: askpass),
             try machine.credentialCurl(["--silent", "--fail", server.url("/echo")]),
             try machine.credentialCurl(["--silent", "--fail", "-d", "@-", server.url("/echo")], input: Array("body".utf8))]
        }
        for result in results { #expect(result.exitCode == 0, "\(result)\n\(server.log)") }
        expectNothingFound(report, whileRunning: ["curl"])
    }

    @Test(arguments: StoringHelper.allCases)
    func gitCloneAndPush(helper: StoringHelper) throws {
        let machine = try ClientMachine(helper), password = awkwardPassword()
        let server = try machine.startServer(username: "alice", password: password, responseDelay: 0.3)
        try server.makeRepository("project")
        let askpass = try Askpass(sandbox: machine.sandbox, username: "alice", password: password)
        let clone = machine.sandbox.root + "/clone"
        let (results, report) = try ProcessSampler.watching(secrets: Self.secrets(username: "alice", password: password)) {
            [try machine.git(["clone", "--quiet", server.repositoryURL("project"), clone], askpass: askpass),
             try machine.git(["-C", clone, "commit", "--quiet", "--allow-empty", "--message=sampled"]),
             try machine.git(["-C", clone, "push", "--quiet", "origin", "main"])]
        }
        for result in results { #expect(result.exitCode == 0, "\(result)\n\(server.log)") }
        expectNothingFound(report, whileRunning: ["git"])
    }
}
