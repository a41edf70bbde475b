import Testing
@testable import CredentialCore

/// The pieces of GIT_CREDENTIAL_TRACE that need no process: which values mean what (git's
/// GIT_TRACE rules), escaping, redaction, the shape of a line. End to end: TracingTests.
@Suite("Trace")
struct TraceTests {
    @Test(arguments: [
        (nil, Trace.Destination.off), ("", .off), ("0", .off), ("false", .off), ("FALSE", .off),
        ("1", .descriptor(2)), ("2", .descriptor(2)), ("true", .descriptor(2)), ("True", .descriptor(2)),
        ("3", .descriptor(3)), ("9", .descriptor(9)),
        ("/tmp/trace", .file("/tmp/trace")),
        ("trace.log", .invalid("trace.log")), ("./trace", .invalid("./trace")), ("10", .invalid("10")),
        ("yes", .invalid("yes")), ("~/trace", .invalid("~/trace")),
    ] as [(String?, Trace.Destination)])
    func destinations(value: String?, expected: Trace.Destination) {
        #expect(Trace.Destination(value) == expected)
    }

    @Test(arguments: [
        ("alice", "alice"), ("example.com:8443", "example.com:8443"), ("£ 😀", #""£ 😀""#), ("", #""""#),
        ("a b", #""a b""#), (#"back\slash"#, #""back\\slash""#), (#"say "hi""#, #""say \"hi\"""#),
        ("line\nbreak", #""line\nbreak""#), ("tab\t", #""tab\t""#), ("cr\r", #""cr\r""#),
        ("\u{1b}[2Jclear", #""\033[2Jclear""#), ("del\u{7f}", #""del\177""#), ("nul\0", #""nul\000""#),
        ("c1\u{85}", #""c1\302\205""#), ("sep\u{2028}", #""sep\342\200\250""#),
        ("rlo\u{202e}", #""rlo\342\200\256""#), ("isolate\u{2066}", #""isolate\342\201\246""#),
        // Format characters (Cf): invisible, or reordering what follows.
        ("zw\u{200b}sp", #""zw\342\200\213sp""#), ("lrm\u{200e}", #""lrm\342\200\216""#),
        ("soft\u{ad}", #""soft\302\255""#), ("wj\u{2060}", #""wj\342\201\240""#), ("bom\u{feff}", #""bom\357\273\277""#),
        ("alm\u{61c}", #""alm\330\234""#), ("tag\u{e0041}", #""tag\363\240\201\201""#),
        ("café", "café"), ("e\u{301}", "e\u{301}"),
        // Spaces other than ASCII's, letters that show nothing, private use: a path holding
        // `x.git<NBSP>user<NBSP>alice-work?` read as the user of serve's question.
        ("nb\u{a0}sp", #""nb\302\240sp""#), ("em\u{2003}", #""em\342\200\203""#), ("ideo\u{3000}", #""ideo\343\200\200""#),
        ("fill\u{3164}", #""fill\343\205\244""#), ("fill\u{115f}", #""fill\341\205\237""#), ("blank\u{2800}", #""blank\342\240\200""#),
        ("pua\u{e000}", #""pua\356\200\200""#),
    ])
    func quoting(text: String, expected: String) {
        #expect(Trace.quoted(text) == expected)
    }

    @Test func invalidUTF8IsEscapedByteByByte() {
        #expect(Trace.quoted([0x61, 0xFF, 0xC3, 0x0A]) == #""a\377\303\n""#)
    }

    /// A value can hold anything but LF, NUL and CR on the wire, and a path anything but
    /// NUL: whatever it holds, the line stays one line and holds no control character.
    @Test(arguments: ["x\n12:00:00.000000 git-credential-sqlite: get: answered password=leak",
                      "x\r12:00:00.000000 fake", "\u{1b}[1A\u{1b}[2Kfake", "x\u{2028}fake", "x\u{85}fake"])
    func noValueForgesALine(value: String) {
        let credential = Credential(protocol: "https", host: Value(value), username: Value(value))
        for message in ["request " + Trace.describe(credential), "opened " + Trace.quoted(value), "raw " + value] {
            let line = Trace.line(message, program: "git-credential-sqlite", context: "get", redacting: true)
            #expect(line.hasSuffix("\n") && line.utf8.filter { $0 == 0x0A }.count == 1, "\(line.debugDescription)")
            #expect(!line.dropLast().unicodeScalars.contains(where: Trace.isHazard), "\(line.debugDescription)")
        }
    }

    @Test func lineShape() throws {
        let line = Trace.line("request protocol=https", program: "git-credential-sqlite", context: "get", redacting: true)
        let match = try #require(line.wholeMatch(of: /(\d\d):(\d\d):(\d\d)\.(\d{6}) git-credential-sqlite: get: request protocol=https\n/))
        #expect(Int(match.1)! < 24 && Int(match.2)! < 60 && Int(match.3)! < 61)
        #expect(Trace.line("started", program: "basic-auth-header", context: nil, redacting: true).hasSuffix(" basic-auth-header: started\n"))
    }

    static let full = Credential(
        protocol: "https", host: "example.com", path: "repo.git", username: "alice", password: "hunter2",
        passwordExpiryUTC: 1_900_000_000, oauthRefreshToken: "refresh-xyz", authtype: "Bearer", credential: "token-abc")

    @Test func describeRedactsEverySecret() {
        var credential = Self.full
        credential.capabilities = ["authtype"]
        credential.state = ["state-secret"]
        credential.wwwauth = [#"Basic realm="x""#]
        credential.ephemeral = true
        #expect(Trace.describe(credential, redacting: true) == """
            capability[]=authtype protocol=https host=example.com path=repo.git username=alice password=<redacted> \
            password_expiry_utc=1900000000 oauth_refresh_token=<redacted> authtype=Bearer credential=<redacted> \
            ephemeral=true wwwauth[]="Basic realm=\\"x\\"" state[]=<redacted>
            """)
    }

    @Test func describeShowsSecretsEscapedWhenAsked() {
        var credential = Self.full
        credential.password = "two words\u{1b}"
        let text = Trace.describe(credential, redacting: false)
        #expect(text.contains(#"password="two words\033""#) && text.contains("oauth_refresh_token=refresh-xyz")
                && text.contains("credential=token-abc"), "\(text)")
        #expect(Trace.describe(Credential(), redacting: true) == "(nothing)")
    }

    @Test(arguments: [
        ("wrote Authorization: Basic YWxpY2U6aHVudGVyMg==", "wrote Authorization: Basic <redacted>"),
        (#"wrote "Authorization: Basic YWxpY2U6aHVudGVyMg==""#, #"wrote "Authorization: Basic <redacted>""#),
        ("authorization: bearer abc.def-ghi_jkl~mno+pq/r=, next", "authorization: bearer <redacted>, next"),
        ("BASIC YTo= and Negotiate YIIB; NTLM TlRMTVNTUAAB", "BASIC <redacted> and Negotiate <redacted>; NTLM <redacted>"),
        ("Bearer   spaced", "Bearer   <redacted>"),
        // Challenges carry no secret, and a scheme name inside a word is no scheme.
        (#"wwwauth[]="Basic realm=\"git\"""#, #"wwwauth[]="Basic realm=\"git\"""#),
        ("Bearer realm=x, error=invalid", "Bearer realm=x, error=invalid"),
        ("notBasic abc", "notBasic abc"), ("Basic", "Basic"), ("Basic ", "Basic "),
    ])
    func authorizationBlobsAreRedacted(line: String, expected: String) {
        #expect(Trace.redactingAuthorization(line) == expected)
    }

    @Test func secretsAreRedactedInTheLineUnlessAsked() {
        let message = "wrote " + Trace.quoted("Authorization: Basic YWxpY2U6aHVudGVyMg==")
        #expect(!Trace.line(message, program: "p", context: nil, redacting: true).contains("YWxpY2U6aHVudGVyMg=="))
        #expect(Trace.line(message, program: "p", context: nil, redacting: false).contains("YWxpY2U6aHVudGVyMg=="))
        #expect(Trace.secret("hunter2", redacting: true) == "<redacted>")
        #expect(Trace.secret("hunter2", redacting: false) == "hunter2")
    }

    @Test(arguments: [
        ("called with erase https://alice:hunter2@example.com/repo.git", "called with erase https://alice:<redacted>@example.com/repo.git"),
        ("--url=https://alice:hunter2@example.com", "--url=https://alice:<redacted>@example.com"),
        ("https://:token@example.com https://bob:pw2@b.example/x",
         "https://:<redacted>@example.com https://bob:<redacted>@b.example/x"),
        // An @, a colon, a slash or a space in the password: hidden whole.
        ("https://alice:p@ss:w@example.com/", "https://alice:<redacted>@example.com/"),
        ("https://alice:pa/ss@example.com x", "https://alice:<redacted>@example.com x"),
        (#""https://alice:p w@example.com/""#, #""https://alice:<redacted>@example.com/""#),
        (#""https://alice:q\"u\\o@example.com/""#, #""https://alice:<redacted>@example.com/""#),
        // ... which hides a port followed by a path holding an @, as the price of that.
        ("https://example.com:8443/x@y", "https://example.com:<redacted>@y"),
        // Nothing to hide.
        ("https://alice@example.com/", "https://alice@example.com/"), ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("https://example.com:8443/x y@z", "https://example.com:8443/x y@z"),
        ("https://alice:@example.com", "https://alice:@example.com"), ("protocol=https host=a@b", "protocol=https host=a@b"),
        ("://", "://"), ("x://:@", "x://:@"),
    ])
    func urlPasswordsAreRedacted(line: String, expected: String) {
        #expect(Trace.redactingURLPasswords(line) == expected)
    }

    /// A hostile value full of `://` costs time in proportion to its length.
    @Test func urlRedactionIsLinear() {
        let hostile = String(repeating: "x://a:", count: 200_000) + "@"
        let started = ContinuousClock.now
        let redactedLine = Trace.redactingURLPasswords(hostile)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(redactedLine == "x://a:<redacted>@")
    }

    @Test func urlPasswordsAreRedactedInTheLineUnlessAsked() {
        let message = "called with " + Trace.quoted("https://alice:hunter2@example.com")
        #expect(!Trace.line(message, program: "p", context: nil, redacting: true).contains("hunter2"))
        #expect(Trace.line(message, program: "p", context: nil, redacting: false).contains("hunter2"))
        #expect(!HelperError(.usage, "https://alice:hunter2@example.com is wrong").line(program: "p").contains("hunter2"))
    }

    /// An error can quote a hostile value or another program's output: its line escapes
    /// what the trace escapes.
    @Test func errorLinesEscapeAsTheTraceDoes() {
        let line = HelperError(.failure, "git said: evil\u{1b}[2J\u{202e}moc\u{200b}x\tend").line(program: "p")
        #expect(line == #"p: git said: evil\033[2J\342\200\256moc\342\200\213x\tend"#)
    }

    @Test(arguments: ["0", "false", "No", "OFF"]) func falseValues(value: String) { #expect(Trace.isFalse(value)) }
    @Test(arguments: ["1", "true", "yes", "", "redact"]) func otherValues(value: String) { #expect(!Trace.isFalse(value)) }
}
