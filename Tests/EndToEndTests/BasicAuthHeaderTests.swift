import Foundation
import Testing

/// basic-auth-header: a credential in git's protocol on stdin, one `Authorization: Basic`
/// line (or a curl config line) on stdout; RFC 7617's encoding, UTF-8.
@Suite struct BasicAuthHeaderTests {
    struct KnownAnswer: Sendable, CustomTestStringConvertible {
        let username: String
        let password: String
        let token: String
        var testDescription: String { "\(username):\(password)".debugDescription }
    }

    /// RFC 7617's own examples (section 2, and 2.1 with charset="UTF-8"), then passwords
    /// with each awkward character; the tokens were computed independently (Python's base64).
    static let knownAnswers = [
        KnownAnswer(username: "Aladdin", password: "open sesame", token: "QWxhZGRpbjpvcGVuIHNlc2FtZQ=="),
        KnownAnswer(username: "test", password: "123£", token: "dGVzdDoxMjPCow=="),
        KnownAnswer(username: "alice", password: "pound £", token: "YWxpY2U6cG91bmQgwqM="),
        KnownAnswer(username: "alice", password: "emoji 😀", token: "YWxpY2U6ZW1vamkg8J+YgA=="),
        KnownAnswer(username: "alice", password: #"quote " quote"#, token: "YWxpY2U6cXVvdGUgIiBxdW90ZQ=="),
        KnownAnswer(username: "alice", password: #"back\slash"#, token: "YWxpY2U6YmFja1xzbGFzaA=="),
        KnownAnswer(username: "alice", password: "at@sign", token: "YWxpY2U6YXRAc2lnbg=="),
        KnownAnswer(username: "alice", password: "colon:in:password", token: "YWxpY2U6Y29sb246aW46cGFzc3dvcmQ="),
        KnownAnswer(username: "alice", password: "", token: "YWxpY2U6"),  // empty is not missing
        KnownAnswer(username: "user@corp", password: #"p: @ / % # ? " \ £ 😀"#,
                    token: "dXNlckBjb3JwOnA6IEAgLyAlICMgPyAiIFwgwqMg8J+YgA=="),
    ]

    let sandbox: Sandbox
    init() throws { sandbox = try Sandbox() }

    func header(_ input: [UInt8], _ arguments: [String] = []) throws -> ProcessResult {
        try sandbox.run(BuiltProducts.basicAuthHeader, arguments, input: input)
    }

    @Test(arguments: knownAnswers)
    func knownAnswer(_ answer: KnownAnswer) throws {
        let input = wire("username=\(answer.username)", "password=\(answer.password)")
        let plain = try header(input)
        expectSuccess(plain)
        #expect(plain.stdoutText == "Authorization: Basic \(answer.token)\n")
        let config = try header(input, ["--curl-config"])
        expectSuccess(config)
        #expect(config.stdoutText == "header = \"Authorization: Basic \(answer.token)\"\n")
    }

    /// What `git credential fill` prints (newer git: capabilities first), a helper's get
    /// answer that ends at EOF without a blank line, and unknown keys.
    @Test(arguments: [
        wire("protocol=https", "host=example.com", "username=Aladdin", "password=open sesame"),
        wire("capability[]=authtype", "protocol=https", "host=example.com:8443", "path=a/b.git",
             "username=Aladdin", "password=open sesame", "password_expiry_utc=4102444800", "wwwauth[]=Basic realm=\"x\""),
        Array("username=Aladdin\npassword=open sesame\n".utf8),
        Array("password=open sesame\nusername=Aladdin".utf8),
    ])
    func inputShapes(_ input: [UInt8]) throws {
        let result = try header(input)
        expectSuccess(result)
        #expect(result.stdoutText == "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\n")
    }

    /// The config line as curl reads it (`curl -K FILE`): the server gets exactly the credential.
    @Test func curlReadsTheConfigLineBackToTheSameCredential() throws {
        let password = awkwardPassword()
        let server = try BasicAuthServer(sandbox: sandbox, username: "alice", password: password)
        let config = try header(wire("username=alice", "password=\(password)"), ["--curl-config"])
        expectSuccess(config)
        let configFile = try sandbox.file("curl-config", config.stdout.bytes)
        let curl = try sandbox.run(Sandbox.which("curl") ?? "/usr/bin/curl",
                                   ["--silent", "--show-error", "--fail", "-K", configFile, server.url("/echo")])
        #expect(curl.exitCode == 0, "\(curl)\n\(server.log)")
        #expect(server.receivedCredential == Array("alice:\(password)".utf8))
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let input: [UInt8]

        /// The credential alice with `password` spliced in as raw bytes.
        init(_ description: String, username: String = "alice", password: [UInt8]) {
            testDescription = description
            input = Array("username=\(username)\npassword=".utf8) + password + Array("\n\n".utf8)
        }

        init(_ description: String, _ input: [UInt8]) {
            testDescription = description
            self.input = input
        }

        static let secret = Array("refused-secret".utf8)
        static let all = [
            Refusal("colon in the username", username: "al:ice", password: secret),
            Refusal("CR", password: secret + [0x0D] + secret),
            Refusal("CR before LF", password: secret + [0x0D]),
            Refusal("LF (a line without =)", password: secret + [0x0A] + secret),
            Refusal("NUL", password: secret + [0x00] + secret),
            Refusal("SOH", password: secret + [0x01]),
            Refusal("TAB", password: secret + [0x09]),
            Refusal("ESC", password: secret + [0x1B] + Array("[2J".utf8)),
            Refusal("DEL", password: secret + [0x7F]),
            Refusal("C1 control U+0085", password: secret + [0xC2, 0x85]),
            Refusal("control character in the username", username: "al\u{01}ice", password: secret),
            Refusal("invalid UTF-8", password: secret + [0xFF]),
            Refusal("no username", wire("password=refused-secret")),
            Refusal("no password", wire("username=alice")),
            Refusal("empty input", []),
        ]
    }

    @Test(arguments: Refusal.all)
    func refusedWithExit2AndOneLine(_ refusal: Refusal) throws {
        for arguments in [[], ["--curl-config"]] {
            let result = try header(refusal.input, arguments)
            expectOneLineFailure(result, exitCode: 2)
            #expect(result.stdout.isEmpty, "\(arguments): \(result)")
            #expect(!result.stderr.bytes.containsBytes(Refusal.secret), "the error quotes the secret: \(result)")
        }
    }

    // MARK: No hidden mode

    /// The mode credential-curl's script traced through is gone (credential-curl traces
    /// itself: CredentialCurlMoreTests): the flag is an unknown option, refused in one
    /// line, and nothing is traced or printed.
    @Test func theCredentialCurlTraceModeIsGone() throws {
        let trace = sandbox.root + "/trace"
        let result = try sandbox.run(BuiltProducts.basicAuthHeader, ["--credential-curl-trace"], input: Array("url \0http://x/\0".utf8),
                                     environment: ["GIT_CREDENTIAL_TRACE": trace])
        #expect(result.exitCode == 2 && result.stdout.isEmpty && result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrText.hasPrefix("basic-auth-header: ") && result.stderrText.contains("--credential-curl-trace"), "\(result)")
        #expect(!Output(bytes: contents(of: trace) ?? []).lines.contains { $0.contains(" credential-curl: ") }, "traced as credential-curl")
    }
}

