import Crypto
import FoundationEssentials

/// The keys derived from the one random data key with HKDF-SHA256 (RFC 5869), salted with
/// the database's random id, so the same key file gives unrelated tags in two databases.
struct StoreKeys {
    let tagKey: [UInt8]
    let sealKey: SymmetricKey
    /// Authenticates the store's settings (the meta rows), so that editing them is seen.
    let settingsKey: [UInt8]
    /// Stored in the database to tell a wrong key from a damaged record.
    let check: [UInt8]

    init(dataKey: [UInt8], databaseID: [UInt8]) {
        let pseudoRandomKey = Self.hmac(key: databaseID, dataKey)
        func derive(_ purpose: String) -> [UInt8] {
            Self.hmac(key: pseudoRandomKey, Array("git-credential-sqlite v1 \(purpose)".utf8) + [1])
        }
        tagKey = derive("lookup tag")
        sealKey = SymmetricKey(data: derive("record seal"))
        check = Self.hmac(key: derive("key check"), Array("key check".utf8))
        settingsKey = derive("settings")
    }

    /// The MAC of every meta row but its own and of the format version, each name and
    /// value length-prefixed, in name order: no row can be added, dropped or changed.
    func settingsMAC(_ meta: [String: [UInt8]], format: Int64) -> [UInt8] {
        var message = Array("git-credential-sqlite settings".utf8) + withUnsafeBytes(of: format.bigEndian, Array.init)
        for (name, value) in meta.sorted(by: { $0.key < $1.key }) where name != Meta.settingsMAC {
            message += RecordCodec.field(Array(name.utf8)) + RecordCodec.field(value)
        }
        return Self.hmac(key: settingsKey, message)
    }

    /// HKDF-Extract and a one-block HKDF-Expand are each one HMAC; spelled out because
    /// the generic HKDF API costs a third of a millisecond of type look-ups at startup.
    /// HMAC-SHA256 (RFC 2104) is spelled out too, over SHA256 fed by buffer: swift-crypto's
    /// HMAC hashes through the generic DataProtocol update, whose first calls look up
    /// associated types by mangled name (0.2M of a get's 1.8M instructions). KeyTests
    /// checks it against swift-crypto's HMAC.
    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let blockSize = 64
        var block = key.count > blockSize ? sha256(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        return sha256(block.map { $0 ^ 0x5c }, sha256(block.map { $0 ^ 0x36 }, message))
    }

    static func sha256(_ parts: [UInt8]...) -> [UInt8] {
        var hash = SHA256()
        for part in parts { part.withUnsafeBytes { hash.update(bufferPointer: $0) } }
        return hash.finalize().withUnsafeBytes { Array($0) }
    }

    /// The look-up tag of a (protocol, host) pair: a keyed hash, so the file reveals
    /// neither, only which rows share one.
    func tag(protocol scheme: [UInt8]?, host: [UInt8]?) -> [UInt8] {
        Array(Self.hmac(key: tagKey, RecordCodec.field(scheme) + RecordCodec.field(host)).prefix(16))
    }

    /// AES-256-GCM with the row id and tag as additional data: a sealed blob moved to
    /// another row, or a tag changed, fails to open.
    func seal(_ plaintext: [UInt8], rowID: Int64, tag: [UInt8]) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: sealKey, authenticating: Self.aad(rowID: rowID, tag: tag))
        return Array(box.combined!)
    }

    func open(_ sealed: [UInt8], rowID: Int64, tag: [UInt8]) throws -> [UInt8] {
        let box = try AES.GCM.SealedBox(combined: sealed)
        return Array(try AES.GCM.open(box, using: sealKey, authenticating: Self.aad(rowID: rowID, tag: tag)))
    }

    static func aad(rowID: Int64, tag: [UInt8]) -> [UInt8] {
        Array("git-credential-sqlite record v1".utf8) + withUnsafeBytes(of: rowID.bigEndian, Array.init) + tag
    }
}
