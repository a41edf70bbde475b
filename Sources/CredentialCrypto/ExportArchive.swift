import CredentialCore

/// An export file: credentials sealed under a passphrase, so a copy on a USB stick or in
/// a backup reveals nothing. The file is this header line, then a `PassphraseWrap` blob
/// (scrypt, AES-256-GCM) of the payload, bound to the header. The payload is the
/// credentials in git's wire format, each ended by a blank line: the format every
/// helper already reads, and one in which no value can run into the next record.
public enum ExportArchive {
    static let header = Array("git-credential-helpers export 1\n".utf8)

    public static func isArchive(_ bytes: [UInt8]) -> Bool { bytes.starts(with: header) }

    public static func seal(_ credentials: [Credential], passphrase: [UInt8], cost: UInt8) throws -> [UInt8] {
        let wrap = try PassphraseWrap.wrap(payload(credentials), passphrase: passphrase, cost: cost, databaseID: header)
        return header + wrap.blob
    }

    /// The credentials, or `nil` when the passphrase is wrong.
    public static func open(_ bytes: [UInt8], passphrase: [UInt8]) throws -> [Credential]? {
        guard isArchive(bytes), let wrap = PassphraseWrap(blob: Array(bytes.dropFirst(header.count))) else {
            throw HelperError(.failure, "the export file is damaged (its header or length is wrong)", fix: "export it again")
        }
        guard let payload = try wrap.unwrap(passphrase: passphrase, databaseID: header) else { return nil }
        return try records(payload)
    }

    public static func payload(_ credentials: [Credential]) -> [UInt8] {
        credentials.flatMap { WireFormat.request($0.storable) }
    }

    /// Splits a payload at its blank lines and parses each record.
    public static func records(_ payload: [UInt8]) throws(ProtocolError) -> [Credential] {
        var credentials: [Credential] = []
        var start = 0
        var index = 0
        while index < payload.count {
            // A record ends at "\n\n" (or "\n" at the very start: an empty record).
            if payload[index] == 0x0A && (index == start || payload[index - 1] == 0x0A) {
                if index > start { credentials.append(try WireFormat.parse(Array(payload[start...index]))) }
                start = index + 1
            }
            index += 1
        }
        if start < payload.count { credentials.append(try WireFormat.parse(Array(payload[start...]))) }
        return credentials
    }
}
