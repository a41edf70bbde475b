import Foundation
import Testing

/// scripts/credential-curl with real curl and real git against the local Basic-auth server,
/// git-credential-sqlite configured as the helper (~/.gitconfig of the sandbox).
@Suite struct CredentialCurlTests {
    let machine: ClientMachine
    let password = awkwardPassword()
    let server: BasicAuthServer

    init() throws {
        machine = try ClientMachine(.sqlite)
        server = try machine.startServer(username: "alice", password: password)
    }

    var credentialBytes: [UInt8] { Array("alice:\(password)".utf8) }

    @Test func promptsSendsExactlyTheCredentialAndStoresItAfter200() throws {
        let askpass = try Askpass(sandbox: machine.sandbox, username: "alice", password: password)
        let first = try machine.credentialCurl(["--silent", "--show-error", "--fail", server.url("/echo")], askpass: askpass)
        #expect(first.exitCode == 0 && first.stderr.isEmpty, "\(first)\n\(server.log)")
        #expect(server.receivedCredential == credentialBytes, "the server received other bytes")
        #expect(askpass.prompts.map { $0.prefix(8) } == ["Username", "Password"], "\(askpass.prompts)")
        #expect(try machine.storedPassword(for: server) == password, "not approved (stored) after a 200")

        let fromStore = try machine.credentialCurl(["--silent", "--show-error", "--fail", server.url("/echo")])
        #expect(fromStore.exitCode == 0 && fromStore.stderr.isEmpty, "\(fromStore)\n\(server.log)")
        #expect(askpass.prompts.count == 2, "asked again: \(askpass.prompts)")
    }

    /// stdout is curl's alone: the body, nothing added.
    @Test func aStoredCredentialIsSentAndStdoutIsCurlsOwn() throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["--silent", "--data-binary", "exact body £", server.url("/echo")])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)\n\(server.log)")
        #expect(server.receivedCredential == credentialBytes)
        #expect(result.stdoutText == "exact body £")
    }

    /// Options of the caller's that the wrapper must live with: it must still see the
    /// status to approve or reject. HEADERS stands for a file in the sandbox.
    static let callerOptions: [[String]] = [[], ["--dump-header", "HEADERS"], ["-D", "-"], ["--include"]]

    func withFiles(_ options: [String]) -> [String] {
        options.map { $0 == "HEADERS" ? machine.sandbox.root + "/caller-headers" : $0 }
    }

    /// A 401 ends with curl's own status (0 without --fail, 22 with it) and the stored
    /// credential erased.
    @Test(arguments: [false, true], callerOptions)
    func aWrongStoredPasswordIsRejected(fail: Bool, callerOptions: [String]) throws {
        try machine.store(username: "alice", password: "stale password", for: server)
        let options = ["--silent"] + (fail ? ["--fail"] : []) + withFiles(callerOptions)
        let result = try machine.credentialCurl(options + [server.url("/echo")])
        #expect(result.exitCode == (fail ? 22 : 0), "\(result)")
        #expect(server.receivedCredential == Array("alice:stale password".utf8))
        #expect(try machine.storedPassword(for: server) == nil, "the rejected credential is still stored")
    }

    @Test(arguments: callerOptions)
    func aWorkingCredentialIsApprovedWhateverTheCallersOptions(callerOptions: [String]) throws {
        let askpass = try Askpass(sandbox: machine.sandbox, username: "alice", password: password)
        let result = try machine.credentialCurl(["--silent", "--fail"] + withFiles(callerOptions) + [server.url("/echo")],
                                                askpass: askpass)
        #expect(result.exitCode == 0, "\(result)")
        #expect(try machine.storedPassword(for: server) == password, "not approved (stored) after a 200")
        if callerOptions.contains("HEADERS") {
            #expect(String(decoding: contents(of: withFiles(["HEADERS"])[0]) ?? [], as: UTF8.self).hasPrefix("HTTP/1.1 200"),
                    "the caller's header file was not written")
        }
    }

    /// The caller's stdin reaches curl: `-d @-`, `--data-binary @-`, `-T -`.
    @Test(arguments: [["-d", "@-"], ["--data-binary", "@-"], ["-T", "-"]])
    func stdinIsTheCallers(options: [String]) throws {
        try machine.store(username: "alice", password: password, for: server)
        let body = "posted from stdin: £ 😀 " + UUID().uuidString
        let result = try machine.credentialCurl(["--silent", "--show-error", "--fail"] + options + [server.url("/echo")],
                                                input: Array(body.utf8))
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)\n\(server.log)")
        #expect(result.stdoutText == body)
    }

    /// A redirect (followed with -L) to another host, or another port of the same host,
    /// gets no Authorization header.
    @Test(arguments: ["/redirect-other-host", "/redirect-other-port"])
    func redirectsElsewhereDoNotCarryTheHeader(path: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["--silent", "--show-error", "--fail", "--location", server.url(path)])
        #expect(result.exitCode == 0 && result.stdoutText == "landed\n", "\(result)\n\(server.log)")
        let elsewhere = server.requestsElsewhere
        #expect(elsewhere.hasPrefix("GET /landed"), "the redirect was not followed: \(elsewhere.debugDescription)")
        #expect(!elsewhere.lowercased().contains("authorization"), "the header went elsewhere: \(elsewhere)")
        #expect(!elsewhere.contains(Data(credentialBytes).base64EncodedString()))
    }

    /// A 401 from a host the credential was never sent to says nothing about it: the
    /// credential stays stored.
    @Test(arguments: ["/redirect-other-host/denied", "/redirect-other-port/denied"])
    func aRedirectToA401ElsewhereKeepsTheCredential(path: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["--silent", "--location", server.url(path)])
        #expect(result.exitCode == 0 && result.stdoutText == "denied\n", "\(result)\n\(server.log)")
        #expect(!server.requestsElsewhere.lowercased().contains("authorization"))
        #expect(try machine.storedPassword(for: server) == password,
                "a 401 from another host erased the credential of \(server.host)")
    }

    @Test func nothingStoredAndNoWayToAskFailsWithoutSendingAnything() throws {
        let result = try machine.credentialCurl(["--silent", server.url("/echo")])
        #expect(result.exitCode != 0 && result.stdout.isEmpty, "\(result)")
        #expect(server.receivedCredential == nil)
    }

    /// The URL must come last; --location-trusted would send the header to any host.
    @Test(arguments: [["URL", "--silent"], ["URL", "-o", "/dev/null"], ["--location-trusted", "URL"]])
    func refusedArguments(arguments: [String]) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(arguments.map { $0 == "URL" ? server.url("/echo") : $0 })
        expectOneLineFailure(result, exitCode: 2)
        #expect(result.stdout.isEmpty)
        #expect(server.receivedCredential == nil)
    }
}
