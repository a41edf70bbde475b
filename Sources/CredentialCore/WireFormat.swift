/// The credential protocol's wire format, exactly as credential-protocol.md says:
/// `key=value` lines, LF-terminated, ending at a blank line or EOF. The whole input is
/// rejected on a line over 65535 bytes, a NUL, a CR, or a line without `=`.
public enum WireFormat {
    /// A line, its LF included, is at most this long.
    public static let maxLineLength = 65535
    /// A bound on the whole input, so that an endless stream of valid lines cannot
    /// exhaust memory. Far above anything git sends (long `wwwauth[]` lists included).
    public static let maxInputLength = 8 << 20

    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let equals: UInt8 = 0x3D

    /// Bytes no value may hold. CR is here on purpose: a reader that splits lines on a
    /// lone CR (CVE-2024-52006) would see a second line where git sees one.
    static func isForbiddenInValue(_ byte: UInt8) -> Bool { byte == lf || byte == 0 || byte == cr }

    // MARK: Reading

    /// Parses a whole request. Bytes after the first blank line are not looked at.
    public static func parse(_ input: [UInt8]) throws(ProtocolError) -> Credential {
        var parser = Parser()
        var start = 0
        while start < input.count {
            let end = input[start...].firstIndex(of: lf)
            let line = input[start..<(end ?? input.count)]
            if try parser.take(line, terminated: end != nil) == .finished { break }
            start = (end ?? input.count) + 1
        }
        return parser.credential
    }

    /// Reads a request from a file descriptor (stdin): stops at the blank line without
    /// waiting for EOF, and stops early on a line that is already too long.
    public static func read(from fd: Int32) throws(ProtocolError) -> Credential {
        var parser = Parser()
        var pending: [UInt8] = []
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = SystemIO.readSome(fd, into: &chunk)
            if count < 0 { throw ProtocolError("cannot read the request from standard input") }
            if count == 0 { break }
            total += count
            if total > maxInputLength { throw ProtocolError("the request is longer than \(maxInputLength) bytes") }
            pending.append(contentsOf: chunk[0..<count])
            var start = 0
            while let end = pending[start...].firstIndex(of: lf) {
                if try parser.take(pending[start..<end], terminated: true) == .finished {
                    return parser.credential
                }
                start = end + 1
            }
            pending.removeFirst(start)
            // Without its LF yet, a line may still be exactly the limit as the last line.
            if pending.count > maxLineLength { throw ProtocolError.lineTooLong(parser.lineNumber + 1) }
        }
        if !pending.isEmpty { _ = try parser.take(pending[...], terminated: false) }
        return parser.credential
    }

    /// One record of several: the line it starts on, and the credential or why it is none.
    public struct Record {
        public let line: Int
        public let credential: Result<Credential, ProtocolError>
    }

    /// Records each ended by a blank line (or EOF), as export writes them: each parsed by
    /// the same parser as a request, alone, so that a bad record spoils only itself. Error
    /// messages count lines from the start of `input`.
    public static func records(_ input: [UInt8]) -> [Record] {
        var records: [Record] = []
        var current: (line: Int, parser: Parser, error: ProtocolError?)?
        func finish() {
            guard let record = current else { return }
            records.append(Record(line: record.line, credential: record.error.map { .failure($0) } ?? .success(record.parser.credential)))
            current = nil
        }
        var start = 0
        var number = 0
        while start < input.count {
            let end = input[start...].firstIndex(of: lf)
            let line = input[start..<(end ?? input.count)]
            number += 1
            start = (end ?? input.count) + 1
            if line.isEmpty { finish(); continue }
            if current == nil { current = (number, Parser(lineNumber: number - 1), nil) }
            guard current!.error == nil else { continue }
            do { _ = try current!.parser.take(line, terminated: end != nil) } catch { current!.error = error }
        }
        finish()
        return records
    }

    /// The keys git's credential protocol defines (`set` reads them): a line starting with
    /// one of them and `=` is this format, not a URL.
    public static let keys: Set<String> = [
        "protocol", "host", "path", "username", "password", "password_expiry_utc", "oauth_refresh_token",
        "authtype", "credential", "ephemeral", "capability[]", "state[]", "wwwauth[]", "url",
    ]

    enum Progress { case more, finished }

    struct Parser {
        var credential = Credential()
        var lineNumber = 0

        mutating func take(_ line: ArraySlice<UInt8>, terminated: Bool) throws(ProtocolError) -> Progress {
            lineNumber += 1
            if line.count + (terminated ? 1 : 0) > maxLineLength { throw .lineTooLong(lineNumber) }
            if line.isEmpty { return .finished }
            if line.contains(0) { throw ProtocolError("line \(lineNumber) contains a NUL byte") }
            if line.contains(cr) {
                throw ProtocolError("line \(lineNumber) contains a carriage return, which other readers may take for a line break")
            }
            guard let separator = line.firstIndex(of: equals) else {
                throw ProtocolError("line \(lineNumber) has no '='; every line must be key=value")
            }
            let key = line[line.startIndex..<separator]
            let value = Value(Array(line[(separator + 1)...]))
            try set(key: key, value: value)
            return .more
        }

        mutating func set(key: ArraySlice<UInt8>, value: Value) throws(ProtocolError) {
            switch String(decoding: key, as: UTF8.self) {
            case "protocol": credential.protocol = value
            case "host": credential.host = value
            case "path": credential.path = value
            case "username": credential.username = value
            case "password": credential.password = value
            case "password_expiry_utc": credential.passwordExpiryUTC = parseExpiry(value)
            case "oauth_refresh_token": credential.oauthRefreshToken = value
            case "authtype": credential.authtype = value
            case "credential": credential.credential = value
            case "ephemeral": credential.ephemeral = parseBool(value)
            case "capability[]": appendOrClear(&credential.capabilities, value)
            case "state[]": appendOrClear(&credential.state, value)
            case "wwwauth[]": appendOrClear(&credential.wwwauth, value)
            case "url":
                // Like git: a url resets every earlier field.
                do { credential = try CredentialURL.parse(value) } catch {
                    throw ProtocolError("line \(lineNumber): \(error.message)")
                }
            default: break  // unknown keys are ignored, so newer git keeps working
            }
        }
    }

    /// `key[]` keys are ordered lists; an empty `key[]=` clears the list.
    static func appendOrClear(_ list: inout [Value], _ value: Value) {
        if value.isEmpty { list.removeAll() } else { list.append(value) }
    }

    /// git's parse_timestamp: leading decimal digits; 0, none or overflow mean no expiry.
    static func parseExpiry(_ value: Value) -> UInt64? {
        var digits = value.bytes[...].drop(while: { $0 == 0x20 || (0x09...0x0D).contains($0) })  // C isspace
        if digits.first == 0x2B { digits = digits.dropFirst() }  // '+'
        var result: UInt64 = 0
        var sawDigit = false
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { break }
            sawDigit = true
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            if overflow1 || overflow2 { return nil }
            result = sum
        }
        return sawDigit && result != 0 ? result : nil
    }

    /// A boolean as git reads one. Anything not clearly false counts as true: for
    /// `ephemeral`, the safe mistake is not to persist.
    static func parseBool(_ value: Value) -> Bool {
        !["", "false", "no", "off", "0"].contains(value.text.lowercased())
    }

    // MARK: Writing

    /// The answer to `get`: the secrets of the item found, and `authtype`/`credential`
    /// (announced by `capability[]=authtype` first) only when the request carried that
    /// capability; for an expired item, its `refreshAnswer`, which has neither password
    /// nor credential. Values that cannot be written as one line are left out, never split.
    public static func response(_ found: Credential, for request: Credential) -> [UInt8] {
        var out: [UInt8] = []
        func line(_ key: String, _ value: Value?) { appendLine(key, value, to: &out) }
        if request.hasCapability(Capability.authtype), found.credential != nil {
            line("capability[]", Capability.authtype)
            line("authtype", found.authtype)
            line("credential", found.credential)
        }
        line("username", found.username)
        line("password", found.password)
        line("password_expiry_utc", found.passwordExpiryUTC.map { Value(String($0)) })
        line("oauth_refresh_token", found.oauthRefreshToken)
        return out
    }

    /// A request in the wire format: what git sends a helper. Used to drive helpers
    /// (the keyring front, tests) and by `import`.
    public static func request(_ credential: Credential) -> [UInt8] {
        var out: [UInt8] = []
        func line(_ key: String, _ value: Value?) { appendLine(key, value, to: &out) }
        for capability in credential.capabilities { line("capability[]", capability) }
        line("protocol", credential.protocol)
        line("host", credential.host)
        line("path", credential.path)
        line("username", credential.username)
        line("password", credential.password)
        line("password_expiry_utc", credential.passwordExpiryUTC.map { Value(String($0)) })
        line("oauth_refresh_token", credential.oauthRefreshToken)
        line("authtype", credential.authtype)
        line("credential", credential.credential)
        if credential.ephemeral { line("ephemeral", "true") }
        return out + [lf]
    }

    /// One `key=value` line; a value that cannot be one line is left out, never split.
    static func appendLine(_ key: String, _ value: Value?, to out: inout [UInt8]) {
        guard let value, value.isWritable else { return }
        out += Array(key.utf8) + [equals] + value.bytes + [lf]
    }
}

/// The capabilities this suite understands.
public enum Capability {
    public static let authtype: Value = "authtype"
    /// What `ACTION=capability` answers: `version 0`, then what we support.
    public static let announcement = "version 0\ncapability authtype\n"
}

/// Input that breaks the protocol: exit 2, nothing stored. Messages never quote values,
/// which may be secrets.
public struct ProtocolError: Error, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    static func lineTooLong(_ line: Int) -> ProtocolError {
        ProtocolError("line \(line) is longer than \(WireFormat.maxLineLength) bytes")
    }
}
