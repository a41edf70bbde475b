// The codec's invariants on any input, in one place: the libFuzzer harness (fuzz/, `make
// fuzz`) compiles this file together with CredentialCore's sources into one module, and
// CodecInvariantTests runs the committed seed corpus through it in `make test`.
#if canImport(CredentialCore)
import CredentialCore
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

enum CodecInvariants {
    /// Every invariant broken by `input`, as one line each; empty when all hold. The input
    /// is read as a request (parse, and read from a pipe), as a `url=` value, and the
    /// results are written back (request, response, Basic header) and read again.
    static func violations(_ input: [UInt8]) -> [String] {
        var found: [String] = []
        checkRequest(input, &found)
        checkURL(input, &found)
        return found
    }

    static let knownKeys: Set<String> = [
        "capability[]", "protocol", "host", "path", "username", "password", "password_expiry_utc",
        "oauth_refresh_token", "authtype", "credential", "ephemeral",
    ]

    // MARK: The request codec

    static func checkRequest(_ input: [UInt8], _ found: inout [String]) {
        let parsed = Result { () throws(ProtocolError) in try WireFormat.parse(input) }
        if let fromPipe = readThroughPipe(input), fromPipe != parsed {
            found.append("read(from:) and parse disagree: \(describe(fromPipe)) vs \(describe(parsed))")
        }
        let credential: Credential
        switch parsed {
        case .failure(let error):
            // Messages never quote a value: short, one line, and they name the line.
            let message = Array(error.message.utf8)
            if message.count > 160 || message.contains(where: { $0 < 0x20 }) || !error.message.hasPrefix("line ") {
                found.append("error message is not one short line naming the line: \(error.message.debugDescription)")
            }
            return
        case .success(let value): credential = value
        }
        if let bad = values(of: credential).first(where: { !$0.isWritable }) {
            found.append("parse kept a value with LF, CR or NUL: \(bad.bytes)")
        }

        // request() writes every field but the lists git alone sends to helpers.
        let request = WireFormat.request(credential)
        checkLines(request.dropLast(), written: "request", &found)
        if request.last != 0x0A || (request.count > 1 && request[request.count - 2] != 0x0A) {
            found.append("request does not end with a blank line")
        }
        var expected = credential
        expected.state = []
        expected.wwwauth = []
        switch Result(catching: { () throws(ProtocolError) in try WireFormat.parse(request) }) {
        case .success(let again) where again == expected: break
        case let other: found.append("request does not parse back to the credential: \(describe(other))")
        }

        // response() answers a get: the secrets, and authtype/credential only under the capability.
        let response = WireFormat.response(credential, for: credential)
        checkLines(response[...], written: "response", &found)
        var answer = Credential(
            username: credential.username, password: credential.password,
            passwordExpiryUTC: credential.passwordExpiryUTC, oauthRefreshToken: credential.oauthRefreshToken)
        if credential.hasCapability(Capability.authtype), credential.credential != nil {
            answer.capabilities = [Capability.authtype]
            answer.authtype = credential.authtype
            answer.credential = credential.credential
        }
        switch Result(catching: { () throws(ProtocolError) in try WireFormat.parse(response) }) {
        case .success(let again) where again == answer: break
        case let other: found.append("response does not parse back to the answer: \(describe(other))")
        }

        checkBasicAuth(credential, &found)
    }

    /// Each written line: a known key, one `=`-separated value without LF, CR or NUL, an LF.
    static func checkLines(_ output: ArraySlice<UInt8>, written by: String, _ found: inout [String]) {
        if let last = output.last, last != 0x0A { found.append("\(by) does not end its last line") }
        for line in output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            guard let equals = line.firstIndex(of: 0x3D) else {
                found.append("\(by) wrote a line without '=': \(Array(line))")
                continue
            }
            let key = String(decoding: line[..<equals], as: UTF8.self)
            if !knownKeys.contains(key) { found.append("\(by) wrote an unknown key \(key.debugDescription)") }
            if line.contains(where: { $0 == 0 || $0 == 0x0D }) { found.append("\(by) wrote a CR or NUL in \(key)") }
        }
    }

    /// A Basic header is refused or carries exactly `username:password`.
    static func checkBasicAuth(_ credential: Credential, _ found: inout [String]) {
        guard let username = credential.username, let password = credential.password,
              let header = try? BasicAuth.headerValue(username: username, password: password)
        else { return }
        let token = header.hasPrefix("Basic ") ? String(header.dropFirst(6)) : header
        if Base64.decode(token) != username.bytes + [0x3A] + password.bytes || username.bytes.contains(0x3A) {
            found.append("Basic header does not carry username:password: \(header.debugDescription)")
        }
    }

    /// WireFormat.read on a pipe holding the input, then EOF; nil for inputs larger than a
    /// pipe holds without a reader (the harness is single-threaded).
    static func readThroughPipe(_ input: [UInt8]) -> Result<Credential, ProtocolError>? {
        guard input.count <= 32768 else { return nil }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        defer { close(fds[0]) }
        let written = SystemIO.writeAll(fds[1], input)
        close(fds[1])
        guard written else { return nil }
        return Result { () throws(ProtocolError) in try WireFormat.read(from: fds[0]) }
    }

    // MARK: url=

    static func checkURL(_ input: [UInt8], _ found: inout [String]) {
        let url = Value(input)
        let parsed = Result { () throws(ProtocolError) in try CredentialURL.parse(url) }
        // As a `url=` line, the same credential or an error (when the line itself is legal).
        if url.isWritable, input.count < WireFormat.maxLineLength - 5 {
            let line = Result { () throws(ProtocolError) in try WireFormat.parse(Array("url=".utf8) + input) }
            switch (parsed, line) {
            case (.success(let direct), .success(let viaLine)) where direct == viaLine: break
            case (.failure, .failure): break
            default: found.append("url= line and CredentialURL.parse disagree: \(describe(line)) vs \(describe(parsed))")
            }
        }
        guard case .success(let credential) = parsed else { return }
        if let bad = values(of: credential).first(where: { !$0.isWritable }) {
            found.append("url kept a value with LF, CR or NUL: \(bad.bytes)")
        }
        if credential.protocol?.isEmpty != false || credential.host == nil {
            found.append("url gave no protocol or no host: \(credential)")
        }
        // Written again with every byte of the decoded parts escaped, it reads the same.
        let again = Result { () throws(ProtocolError) in try CredentialURL.parse(Value(escapedURL(credential))) }
        if case .success(let reparsed) = again, reparsed == credential {} else {
            found.append("url does not round-trip when escaped: \(describe(again)) vs \(credential)")
        }
    }

    /// `protocol://[user[:password]@]host[/path]`, every byte of the decoded parts as %XX.
    static func escapedURL(_ credential: Credential) -> [UInt8] {
        func escaped(_ value: Value?) -> [UInt8] {
            let digits = Array("0123456789ABCDEF".utf8)
            return (value?.bytes ?? []).flatMap { [0x25, digits[Int($0 >> 4)], digits[Int($0 & 15)]] }
        }
        var url = (credential.protocol?.bytes ?? []) + Array("://".utf8)
        if let username = credential.username {
            url += escaped(username)
            if let password = credential.password { url += [0x3A] + escaped(password) }
            url += [0x40]
        }
        url += escaped(credential.host)
        if let path = credential.path { url += [0x2F] + escaped(path) }
        return url
    }

    // MARK: Helpers

    static func values(of credential: Credential) -> [Value] {
        [credential.protocol, credential.host, credential.path, credential.username, credential.password,
         credential.oauthRefreshToken, credential.authtype, credential.credential].compactMap { $0 }
            + credential.capabilities + credential.state + credential.wwwauth
    }

    static func describe(_ result: Result<Credential, ProtocolError>) -> String {
        switch result {
        case .success(let credential): "\(credential)"
        case .failure(let error): "error \(error.message.debugDescription)"
        }
    }
}
