import Testing
@testable import CredentialCore

/// Parses a request written as a string literal.
func parse(_ text: String) throws(ProtocolError) -> Credential {
    try WireFormat.parse(Array(text.utf8))
}

/// `text` as bytes, for inputs that mix text and raw bytes.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// `count` copies of `a`.
func filler(_ count: Int) -> String { String(repeating: "a", count: count) }

/// Expects `input` to be rejected with a message that names `line` and never quotes `secret`.
func expectRejected(
    _ input: [UInt8], line: Int, notMentioning secret: String = "s3cret",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = #expect(throws: ProtocolError.self, sourceLocation: sourceLocation) {
        try WireFormat.parse(input)
    }
    guard let message = error?.message else { return }
    expectNames(line: line, in: message, sourceLocation: sourceLocation)
    #expect(!message.contains(secret), "message quotes the value: \(message)", sourceLocation: sourceLocation)
}

func expectRejected(
    _ input: String, line: Int, notMentioning secret: String = "s3cret",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectRejected(bytes(input), line: line, notMentioning: secret, sourceLocation: sourceLocation)
}

/// Expects `message` to name line `line` ("line 2 ..." or "line 2: ...", never "line 12").
func expectNames(line: Int, in message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
        message.hasPrefix("line \(line) ") || message.hasPrefix("line \(line):"),
        "message does not name line \(line): \(message)", sourceLocation: sourceLocation)
}

/// The field of `credential` that the single-valued wire key `key` sets.
func field(_ key: String, of credential: Credential) -> Value? {
    switch key {
    case "protocol": credential.protocol
    case "host": credential.host
    case "path": credential.path
    case "username": credential.username
    case "password": credential.password
    case "oauth_refresh_token": credential.oauthRefreshToken
    case "authtype": credential.authtype
    case "credential": credential.credential
    default: nil
    }
}

/// The single-valued keys whose value is kept as given.
let valueKeys = ["protocol", "host", "path", "username", "password", "oauth_refresh_token", "authtype", "credential"]

/// True when `bytes` contains none of LF, CR and NUL.
func isWritable(_ bytes: [UInt8]) -> Bool { !bytes.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 } }
