import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// What an import read from one source.
struct ImportSource {
    var name: String
    var credentials: [Credential]
    /// Where the entries that were not complete credentials, or could not be carried over
    /// exactly, start (lines, netrc machines and macros), in order.
    var skippedLines: [Int] = []
    /// Why, one line each, where the format can say: printed after the count.
    var notes: [String] = []
    /// The file as it was read, to wipe after a verified import: set for plaintext files only.
    var plaintextFile: SourceFile? = nil

    var skipped: Int { skippedLines.count }

    /// "lines 3, 7": the first few, for people to find them.
    var skippedLinesText: String {
        let shown = skippedLines.prefix(5).map(String.init).joined(separator: ", ")
        let more = skippedLines.count > 5 ? " and \(skippedLines.count - 5) more" : ""
        return (skippedLines.count == 1 ? "line " : "lines ") + shown + more
    }
}

/// git-credential-store's file format: one `proto://user:password@host[/path]` per line,
/// percent-encoded as git-credential-store encodes it.
enum GitCredentialsFile {
    /// The credentials, and for each other line that is not blank its number and why
    /// (never its text: it may hold a password).
    static func read(_ bytes: [UInt8], name: String) -> ImportSource {
        var source = ImportSource(name: name, credentials: [])
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() where !line.allSatisfy(isSpace) {
            let problem: String
            do {
                let credential = try CredentialURL.parse(Value(Array(line)))
                if credential.isStorable {
                    source.credentials.append(credential)
                    continue
                }
                problem = missing(in: credential)
            } catch {
                problem = "not a URL as git-credential-store writes it (\(error.message))"
            }
            source.skippedLines.append(index + 1)
            source.notes.append("line \(index + 1): \(problem)")
        }
        return source
    }

    /// What keeps a credential read from a line from being stored (a URL always has a
    /// protocol and a host, if an empty one).
    static func missing(in credential: Credential) -> String {
        credential.username == nil ? "no username or password" : "no password"
    }

    /// The line git-credential-store would write; `nil` for what it cannot hold: no
    /// username or password (a token-only credential), a protocol that is no URL scheme,
    /// or anything else that would not read back as the same credential (git writes the
    /// host as it is, so a stored host `good.example/x` or `evil#@good.example` would come
    /// back as another host, with this password).
    static func line(for credential: Credential) -> [UInt8]? {
        guard let scheme = credential.protocol, isScheme(scheme), let host = credential.host,
              let username = credential.username, let password = credential.password else { return nil }
        var out = scheme.bytes + Array("://".utf8)
        out += encode(username, keeping: isUnreserved) + [0x3A] + encode(password, keeping: isUnreserved) + [0x40]
        out += encode(host, keeping: isReservedOrUnreserved)
        if let path = credential.path { out += [0x2F] + encode(path, keeping: isReservedOrUnreserved) }
        guard let back = try? CredentialURL.parse(Value(out)), back.hasSameKey(as: credential),
              back.username == username, back.password == password else { return nil }
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
