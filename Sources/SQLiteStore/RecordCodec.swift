import CredentialCore

/// The plaintext inside a sealed record: a version byte, then each stored field as
/// presence byte + 32-bit length + bytes, zero-padded to a multiple of 64 bytes so the
/// blob's size does not give away the length of a password. Version 2 adds when the
/// record was stored (`StoredTime`, nanoseconds since 1970, as text): git-credential-keyring answers with the
/// newest of its two stores, and the time is sealed with the rest, so the file still
/// tells no one when a credential changed.
enum RecordCodec {
    static let format = FileFormat("record", reads: [1, 2])
    static let version = UInt8(format.current)
    static let blockSize = 64

    static func encode(_ credential: Credential, stored: UInt64) -> [UInt8] {
        var out: [UInt8] = [version]
        for value in fields(of: credential) + [Array(String(stored).utf8)] { out += field(value) }
        let padding = (blockSize - out.count % blockSize) % blockSize
        return out + [UInt8](repeating: 0, count: padding)
    }

    static func decode(_ bytes: [UInt8]) -> Credential? { decodeDated(bytes)?.credential }

    /// The credential and when it was stored (`nil` in a record of version 1).
    static func decodeDated(_ bytes: [UInt8]) -> (credential: Credential, stored: UInt64?)? {
        guard let version = bytes.first, format.reads.contains(Int64(version)) else { return nil }
        var index = 1
        var values: [[UInt8]?] = []
        for _ in 0..<(version == 1 ? fieldCount : fieldCount + 1) {
            guard index < bytes.count else { return nil }
            let present = bytes[index]
            index += 1
            if present == 0 { values.append(nil); continue }
            guard present == 1, index + 4 <= bytes.count else { return nil }
            let length = bytes[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
            index += 4
            guard length <= bytes.count - index else { return nil }
            values.append(Array(bytes[index..<index + length]))
            index += length
        }
        guard bytes[index...].allSatisfy({ $0 == 0 }) else { return nil }
        let value = { (i: Int) in values[i].map(Value.init) }
        // Read as every store reads a stored expiry: what is not canonical is expired.
        let expiry = values[5].map(StoredExpiry.read)
        let stored = values.count > fieldCount ? values[fieldCount].flatMap { UInt64(String(decoding: $0, as: UTF8.self)) } : nil
        return (Credential(protocol: value(0), host: value(1), path: value(2), username: value(3),
                           password: value(4), passwordExpiryUTC: expiry, oauthRefreshToken: value(6),
                           authtype: value(7), credential: value(8)), stored)
    }

    static let fieldCount = 9

    static func fields(of c: Credential) -> [[UInt8]?] {
        [c.protocol?.bytes, c.host?.bytes, c.path?.bytes, c.username?.bytes, c.password?.bytes,
         c.passwordExpiryUTC.map(StoredExpiry.text), c.oauthRefreshToken?.bytes,
         c.authtype?.bytes, c.credential?.bytes]
    }

    /// One field: 0 for absent, or 1, a big-endian 32-bit length and the bytes.
    static func field(_ value: [UInt8]?) -> [UInt8] {
        guard let value else { return [0] }
        let length = UInt32(value.count)
        return [1, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + value
    }
}
