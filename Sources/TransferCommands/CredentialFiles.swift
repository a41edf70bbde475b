import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// What an import read from one source.
struct ImportSource {
    var name: String
    var credentials: [Credential]
    /// Entries (lines, netrc machines) that were not complete credentials.
    var skipped: Int
    /// The file as it was read, to wipe after a verified import: set for plaintext files only.
    var plaintextFile: SourceFile? = nil
}

/// git-credential-store's file format: one `proto://user:password@host[/path]` per line,
/// percent-encoded as git-credential-store encodes it.
enum GitCredentialsFile {
    static func read(_ bytes: [UInt8], name: String) -> ImportSource {
        var credentials: [Credential] = []
        var skipped = 0
        for line in bytes.split(separator: 0x0A) where !line.allSatisfy(isSpace) {
            if let credential = try? CredentialURL.parse(Value(Array(line))), credential.isStorable {
                credentials.append(credential)
            } else {
                skipped += 1
            }
        }
        return ImportSource(name: name, credentials: credentials, skipped: skipped)
    }

    /// The line git-credential-store would write; `nil` for what it cannot hold (no
    /// username or password: a token-only credential; a protocol that is no URL scheme,
    /// which a keyring item may carry and which would otherwise be written as it is).
    static func line(for credential: Credential) -> [UInt8]? {
        guard let scheme = credential.protocol, isScheme(scheme), let host = credential.host,
              let username = credential.username, let password = credential.password else { return nil }
        var out = scheme.bytes + Array("://".utf8)
        out += encode(username, keeping: isUnreserved) + [0x3A] + encode(password, keeping: isUnreserved) + [0x40]
        out += encode(host, keeping: isReservedOrUnreserved)
        if let path = credential.path { out += [0x2F] + encode(path, keeping: isReservedOrUnreserved) }
        return out + [0x0A]
    }

    /// RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    static func isScheme(_ value: Value) -> Bool {
        guard let first = value.bytes.first, isAlpha(first) else { return false }
        return value.bytes.allSatisfy { isAlpha($0) || (0x30...0x39).contains($0) || Array("+-.".utf8).contains($0) }
    }

    static func isAlpha(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    static func encode(_ value: Value, keeping keep: (UInt8) -> Bool) -> [UInt8] {
        value.bytes.flatMap { byte in keep(byte) ? [byte] : Array(("%" + Hex.encode([byte]).uppercased()).utf8) }
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || Array("-._~".utf8).contains(byte)
    }

    static func isReservedOrUnreserved(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || Array("!*'();:@&=+$,/?#[]".utf8).contains(byte)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
}

/// A netrc file as curl reads it: `machine HOST login USER password SECRET` entries,
/// tokens separated by white space, double-quoted tokens with backslash escapes, `#`
/// comments, `macdef` bodies (skipped) and a `default` entry (skipped: it has no host).
/// Entries become https credentials: curl (and so git over HTTP) uses netrc for HTTP.
enum NetrcFile {
    static func looksLikeNetrc(_ bytes: [UInt8]) -> Bool {
        tokens(bytes).first.map { ["machine", "default", "macdef"].contains($0) } ?? false
    }

    static func read(_ bytes: [UInt8], name: String) -> ImportSource {
        var credentials: [Credential] = []
        var skipped = 0
        var current: Credential?
        var hasEntry = false
        func finish() {
            if let entry = current, entry.isStorable {
                credentials.append(entry)
            } else if hasEntry {
                skipped += 1
            }
            current = nil
            hasEntry = false
        }
        var words = tokens(bytes)[...]
        while let word = words.popFirst() {
            switch word {
            case "machine":
                finish()
                hasEntry = true
                current = Credential(protocol: "https", host: words.popFirst().map { Value($0) })
            case "default":
                finish()
                hasEntry = true
            case "login": current?.username = words.popFirst().map { Value($0) }
            case "password": current?.password = words.popFirst().map { Value($0) }
            case "account", "port": _ = words.popFirst()
            default: break
            }
        }
        finish()
        return ImportSource(name: name, credentials: credentials, skipped: skipped)
    }

    /// The tokens, comments and macro bodies left out.
    static func tokens(_ bytes: [UInt8]) -> [String] {
        var result: [String] = []
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while index < bytes.count {
            let byte = bytes[index]
            if isSpace(byte) { index += 1; continue }
            if byte == 0x23 {  // '#': a comment to the end of the line
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
                continue
            }
            var token: [UInt8] = []
            if byte == 0x22 {  // a quoted token
                index += 1
                while index < bytes.count && bytes[index] != 0x22 {
                    if bytes[index] == 0x5C && index + 1 < bytes.count { index += 1 }
                    token.append(bytes[index])
                    index += 1
                }
                index += 1
            } else {
                while index < bytes.count && !isSpace(bytes[index]) {
                    token.append(bytes[index])
                    index += 1
                }
            }
            let word = String(decoding: token, as: UTF8.self)
            result.append(word)
            if word == "macdef" {
                // The macro's name, then its body up to a blank line.
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
                while index + 1 < bytes.count && !(bytes[index] == 0x0A && bytes[index + 1] == 0x0A) { index += 1 }
                result.removeLast()
            }
        }
        return result
    }
}
