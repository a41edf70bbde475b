import Testing
@testable import CredentialCore

/// Expected tokens are constants checked against RFC 7617 and an independent encoder.
@Suite("BasicAuth.headerValue")
struct BasicAuthTests {
    static func header(_ username: Value, _ password: Value) throws(BasicAuthError) -> String {
        try BasicAuth.headerValue(username: username, password: password)
    }

    @Test func rfc7617Example() throws {
        #expect(try Self.header("Aladdin", "open sesame") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test func rfc7617UTF8Example() throws {
        #expect(try Self.header("test", "123£") == "Basic dGVzdDoxMjPCow==")
    }

    @Test(arguments: [
        ("p£ss", "dXNlcjpwwqNzcw=="),
        ("😀🔑", "dXNlcjrwn5iA8J+UkQ=="),
        (#"say "hi""#, "dXNlcjpzYXkgImhpIg=="),
        (#"back\slash"#, "dXNlcjpiYWNrXHNsYXNo"),
        ("a@b:c", "dXNlcjphQGI6Yw=="),
    ])
    func passwordsWithSpecialCharacters(password: String, token: String) throws {
        #expect(try Self.header("user", Value(password)) == "Basic " + token)
    }

    @Test func emptyParts() throws {
        #expect(try Self.header("bob", "") == "Basic Ym9iOg==")
        #expect(try Self.header("", "pw") == "Basic OnB3")
        #expect(try Self.header("", "") == "Basic Og==")
    }

    @Test func colonInTheUsernameIsRefused() {
        #expect(throws: BasicAuthError.self) { try Self.header("us:er", "pw") }
        #expect(throws: BasicAuthError.self) { try Self.header(":", "pw") }
    }

    @Test(arguments: [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F] as [UInt8])
    func asciiControlCharactersAreRefusedInEitherPart(control: UInt8) {
        let bad = Value(bytes("ab") + [control] + bytes("cd"))
        #expect(throws: BasicAuthError.self) { try Self.header(bad, "pw") }
        #expect(throws: BasicAuthError.self) { try Self.header("user", bad) }
    }

    @Test(arguments: ["\u{80}", "\u{85}", "\u{9F}"])
    func c1ControlCharactersAreRefused(control: String) {
        #expect(throws: BasicAuthError.self) { try Self.header("user", Value("pw" + control)) }
        #expect(throws: BasicAuthError.self) { try Self.header(Value(control + "user"), "pw") }
    }

    @Test(arguments: [[0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] as [[UInt8]])
    func invalidUTF8IsRefused(invalid: [UInt8]) {
        let bad = Value(bytes("pw") + invalid)
        #expect(throws: BasicAuthError.self) { try Self.header("user", bad) }
        #expect(throws: BasicAuthError.self) { try Self.header(bad, "pw") }
    }

    @Test func errorNamesThePartButNotItsContent() {
        let error = #expect(throws: BasicAuthError.self) { try Self.header("user", "s3cret\n") }
        #expect(error?.message.contains("password") == true)
        #expect(error?.message.contains("s3cret") == false)
        let userError = #expect(throws: BasicAuthError.self) { try Self.header("al:ice", "s3cret") }
        #expect(userError?.message.contains("username") == true)
        #expect(userError?.message.contains("s3cret") == false)
    }

    @Test func headerHasNoTrailingNewline() throws {
        let header = try Self.header("a", "b")
        #expect(!header.contains("\n") && !header.contains("\r"))
    }
}
