import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// What an import read from one source.
struct ImportSource {
    var name: String
    var credentials: [Credential]
    /// Where each credential starts, for messages: its line in a file of lines, else its
    /// place among the entries (`unit` says which).
    var lines: [Int] = []
    var unit = "line"
    /// Where the entries that were not complete credentials, or could not be carried over
    /// exactly, start (lines, netrc machines and macros), in order.
    var skippedLines: [Int] = []
    /// Entries left out because an earlier one has their protocol, host, path and username
    /// (see `ImportSelection`); `same`: it holds what the earlier one holds, so nothing of
    /// it is lost.
    var repeated: [(line: Int, same: Bool)] = []
    /// Expired entries without a refresh token, which `get` would never answer.
    var expired: [Int] = []
    /// Why, one line each, where the format can say: printed after the count, by line
    /// (`orderedNotes`).
    var notes: [(line: Int, text: String)] = []
    /// The file as it was read, to wipe after a verified import: set for plaintext files only.
    var plaintextFile: SourceFile? = nil
    /// What each entry of a Git Credential Manager store was, by its number, for
    /// --remove-source to remove exactly what was imported (see `GCMImport`).
    var gcmEntries: [Int: GCMEntry] = [:]
    var fromGCM = false
    /// A netrc file, which git's HTTP transport keeps reading before it asks a helper.
    var isNetrc = false
    /// What imported entries held that was left out (a netrc account), one line each.
    var leftOut: [String] = []
    /// What the summary calls the entries in `skippedLines`.
    var skippedKind = "incomplete"

    init(name: String, credentials: [Credential], unit: String = "line") {
        self.name = name
        self.credentials = credentials
        self.unit = unit
        if unit != "line" { lines = Array(credentials.indices.map { $0 + 1 }) }
    }

    var skipped: Int { skippedLines.count }

    /// "lines 3, 7": the first few, for people to find them.
    var skippedLinesText: String { places(skippedLines) }

    func places(_ numbers: [Int]) -> String {
        let shown = numbers.prefix(5).map(String.init).joined(separator: ", ")
        let more = numbers.count > 5 ? " and \(numbers.count - 5) more" : ""
        return (numbers.count == 1 ? unit : unit.hasSuffix("y") ? unit.dropLast() + "ies" : unit + "s") + " " + shown + more
    }

    /// `text` about what starts at `line`.
    mutating func note(_ line: Int, _ text: String) { notes.append((line, text)) }

    /// The notes by line, those of one line in the order they were made: sorted once, as
    /// inserting each in place would cost a file of many skipped lines minutes.
    var orderedNotes: [(line: Int, text: String)] {
        notes.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }

    mutating func skip(_ line: Int, _ why: String) {
        skippedLines.append(line)
        note(line, "line \(line): \(why)")
    }

    mutating func add(_ credential: Credential, at line: Int) {
        credentials.append(credential)
        lines.append(line)
    }
}

/// git's credential format, as `export --plaintext --format protocol` writes it: `key=value`
/// records, each ended by a blank line, read by the one parser of requests.
enum CredentialRecordsFile {
    /// Whether the first line that is not blank is `key=value` with a key of git's
    /// protocol (a URL is never one: no key has `:`).
    static func looksLikeRecords(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.split(separator: 0x0A).first(where: { !$0.allSatisfy(GitCredentialsFile.isSpace) }),
              let equals = first.firstIndex(of: 0x3D) else { return false }
        return WireFormat.keys.contains(String(decoding: first[..<equals], as: UTF8.self))
    }

    static func read(_ bytes: [UInt8], name: String) -> ImportSource {
        var source = ImportSource(name: name, credentials: [])
        for record in WireFormat.records(bytes) {
            switch record.credential {
            case .success(let credential) where credential.ephemeral: source.skip(record.line, "marked ephemeral, which git never stores")
            case .success(let credential) where credential.isStorable: source.add(credential.storable, at: record.line)
            case .success(let credential):
                source.skip(record.line, credential.isCompleteLookup ? GitCredentialsFile.missing(in: credential) : "no protocol and host")
            case .failure(let error): source.skip(record.line, "not a credential as git writes one (\(error.message))")
            }
        }
        return source
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
                    source.add(credential, at: index + 1)
                    continue
                }
                problem = missing(in: credential)
            } catch {
                problem = "not a URL as git-credential-store writes it (\(error.message))"
            }
            source.skip(index + 1, problem)
        }
        return source
    }

    /// What keeps a credential read from a line from being stored (a URL always has a
    /// protocol and a host, if an empty one).
    static func missing(in credential: Credential) -> String {
        credential.username == nil ? "no username or password" : "no password"
    }

    /// What a line would lose of a credential it holds: this format has no expiry, refresh
    /// token or authtype.
    static func loses(_ credential: Credential) -> Bool {
        credential.passwordExpiryUTC != nil || credential.oauthRefreshToken != nil || credential.authtype != nil || credential.credential != nil
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
