import CredentialCore
import Crypto

/// An export file: credentials sealed under a passphrase, so a copy on a USB stick or in
/// a backup reveals nothing. The payload is the credentials in git's wire format, each
/// ended by a blank line: the format every helper already reads, and one in which no value
/// can run into the next record.
///
/// Format 2 (written since): the line "git-credential-helpers export 2", then a header that
/// lets import tell a wrong passphrase from a damaged file, and a bound before any work:
///
///     log2(N), r, p     1 byte each: scrypt's parameters
///     salt              16 bytes
///     check             16 bytes: HKDF of the scrypt key, "passphrase check": a wrong
///                       passphrase fails here, before anything is decrypted
///     length            8 bytes, big-endian: the length of the sealed payload
///     digest            16 bytes: SHA-256 of the line and the fields above (damage, not
///                       forgery: the fields are also the payload's additional data)
///     sealed payload    AES-256-GCM (nonce, ciphertext, tag) under HKDF of the scrypt key,
///                       "payload", the line and the fields above as additional data
///
/// Format 1 (still read): the line "git-credential-helpers export 1", then a
/// `PassphraseWrap` blob of the payload bound to that line. It cannot tell a wrong
/// passphrase from damage, and says so.
public enum ExportArchive {
    public static let format = FileFormat("export", reads: [1, 2])
    static let prefix = Array("git-credential-helpers export ".utf8)
    static let currentVersion = prefix + Array("\(format.current)\n".utf8)
    static let fieldsLength = 3 + 16 + 16 + 8
    static let digestLength = 16
    /// The nonce and the tag around an empty ciphertext.
    static let smallestSealed = 12 + 16

    /// The largest scrypt cost export writes, and what import accepts: twice the default
    /// (256 MiB, a second or so), so that a hostile file costs no more than an honest one.
    public static let maximumCost: UInt8 = PassphraseWrap.defaultCost + 1
    static let scryptLimit = PassphraseWrap.scryptBytes(cost: maximumCost, blockSize: 8, parallelism: 1)

    public static func isArchive(_ bytes: [UInt8]) -> Bool { bytes.starts(with: prefix) }

    public static func seal(_ credentials: [Credential], passphrase: [UInt8], cost: UInt8) throws -> [UInt8] {
        guard cost <= maximumCost else {
            throw HelperError(.usage, "--scrypt-cost \(cost) is more than import accepts (at most \(maximumCost))",
                              fix: "leave --scrypt-cost out")
        }
        let salt = randomBytes(16)
        let keys = try Keys(PassphraseWrap.deriveKey(passphrase, salt: salt, cost: cost, blockSize: 8, parallelism: 1))
        let plain = payload(credentials)
        let length = UInt64(smallestSealed + plain.count)
        let header = currentVersion + [cost, 8, 1] + salt + keys.check + (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) }
        let box = try AES.GCM.seal(plain, using: keys.payload, authenticating: header)
        return header + digest(header) + Array(box.combined!)
    }

    /// The credentials of `bytes` (a file named `name`, for messages) once `passphrase`
    /// gives the passphrase; one line saying what is wrong otherwise. The file's structure
    /// and its scrypt parameters are checked before anyone is asked for a passphrase.
    public static func open(_ bytes: [UInt8], name: String, passphrase: () throws -> [UInt8]) throws -> [Credential] {
        let sealed = try Sealed(bytes, name: name)
        return try sealed.open(passphrase: passphrase())
    }

    public static func payload(_ credentials: [Credential]) -> [UInt8] {
        credentials.flatMap { WireFormat.request($0.storable) }
    }

    /// The payload's records; the first that is not a credential fails the whole payload.
    public static func records(_ payload: [UInt8]) throws(ProtocolError) -> [Credential] {
        var credentials: [Credential] = []
        for record in WireFormat.records(payload) { credentials.append(try record.credential.get()) }
        return credentials
    }

    static func digest(_ header: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: header).prefix(digestLength)) }

    /// The two keys of format 2, each its own HKDF output of the scrypt key: the check
    /// value reveals nothing of the payload key.
    struct Keys {
        let payload: SymmetricKey
        let check: [UInt8]

        init(_ scryptKey: SymmetricKey) {
            payload = HKDF<SHA256>.deriveKey(inputKeyMaterial: scryptKey, info: Array("payload".utf8), outputByteCount: 32)
            check = HKDF<SHA256>.deriveKey(inputKeyMaterial: scryptKey, info: Array("passphrase check".utf8), outputByteCount: 16)
                .withUnsafeBytes { Array($0) }
        }
    }

    /// An export file whose structure has been checked, not yet opened.
    struct Sealed {
        let name: String
        /// What the payload is bound to: the version line, and in format 2 the fields.
        let header: [UInt8]
        let cost: UInt8, blockSize: UInt8, parallelism: UInt8
        let salt: [UInt8]
        /// Format 2's passphrase check value.
        let check: [UInt8]?
        let sealed: [UInt8]

        init(_ bytes: [UInt8], name: String) throws {
            self.name = name
            guard let (version, end) = FileFormat.number(after: prefix, in: bytes), bytes.dropFirst(end).first == 0x0A else {
                throw Self.damage(name, "its first line is not \"git-credential-helpers export\" and a format number")
            }
            try format.check(version, in: name)
            let line = Array(bytes[...end]), body = Array(bytes.dropFirst(end + 1))
            switch version {
            case 2:
                guard body.count >= fieldsLength + digestLength else {
                    throw Self.damage(name, "it is truncated within its header (\(bytes.count) bytes)")
                }
                header = line + body[..<fieldsLength]
                guard Array(body[fieldsLength..<fieldsLength + digestLength]) == digest(header) else {
                    throw Self.damage(name, "its header is damaged (its checksum does not match)")
                }
                (cost, blockSize, parallelism) = (body[0], body[1], body[2])
                salt = Array(body[3..<19])
                check = Array(body[19..<35])
                let length = body[35..<43].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                sealed = Array(body[(fieldsLength + digestLength)...])
                guard length >= smallestSealed else { throw Self.damage(name, "its header gives an impossible length (\(length) bytes)") }
                if UInt64(sealed.count) < length {
                    throw Self.damage(name, "it is truncated: it holds \(sealed.count) of its \(length) bytes of credentials")
                }
                if UInt64(sealed.count) > length {
                    throw Self.damage(name, "\(UInt64(sealed.count) - length) bytes follow its end")
                }
            case 1:
                header = line
                guard let wrap = try PassphraseWrap.read(body, in: name) else {
                    throw Self.damage(name, "it is truncated within its header (\(bytes.count) bytes)")
                }
                (cost, blockSize, parallelism) = (wrap.cost, wrap.blockSize, wrap.parallelism)
                salt = wrap.salt
                check = nil
                sealed = wrap.sealed
            default:
                throw format.refusal(version, in: name)
            }
            guard PassphraseWrap.isRunnable(cost: cost, blockSize: blockSize, parallelism: parallelism, limit: scryptLimit) else {
                throw HelperError(.failure, "\(name) asks for more scrypt work than export ever writes (log2 N \(cost), r \(blockSize), p \(parallelism)), so it is not opened",
                                  fix: "it was not written by export: use another copy, or export again")
            }
        }

        func open(passphrase: [UInt8]) throws -> [Credential] {
            let scryptKey = try PassphraseWrap.deriveKey(passphrase, salt: salt, cost: cost, blockSize: blockSize, parallelism: parallelism)
            let payload: [UInt8]?
            if let check {
                let keys = Keys(scryptKey)
                guard keys.check == check else {
                    throw HelperError(.usage, "wrong passphrase for \(name)", fix: "give the passphrase the file was exported with")
                }
                payload = (try? AES.GCM.SealedBox(combined: sealed)).flatMap { try? AES.GCM.open($0, using: keys.payload, authenticating: header) }.map(Array.init)
                guard let payload else {
                    throw Self.damage(name, "the passphrase is right, but its contents do not authenticate: it is damaged or was altered")
                }
                return try parse(payload)
            }
            let wrap = PassphraseWrap(cost: cost, blockSize: blockSize, parallelism: parallelism, salt: salt, sealed: sealed)
            payload = try wrap.unwrap(passphrase: passphrase, databaseID: header)
            guard let payload else {
                throw HelperError(.usage, "wrong passphrase for \(name), or the file is damaged (an export of format 1 cannot tell which)",
                                  fix: "give the passphrase the file was exported with; if it is right, use another copy")
            }
            return try parse(payload)
        }

        func parse(_ payload: [UInt8]) throws -> [Credential] {
            do {
                return try records(payload)
            } catch {
                throw Self.damage(name, "it holds something that is not credentials (\(error.message))")
            }
        }

        static func damage(_ name: String, _ cause: String) -> HelperError {
            HelperError(.failure, "\(name) is damaged: \(cause)", fix: "import another copy of it, or export again")
        }
    }
}
