import CredentialCore
import Crypto
import CryptoExtras
import FoundationEssentials

/// The data key wrapped under a passphrase: scrypt derives a key-encryption key, which
/// seals the data key with AES-256-GCM. Changing the passphrase rewraps, nothing else.
/// Blob: "GCSP1" (1: the format), log2(N), r, p (one byte each), 16-byte salt, sealed key.
public struct PassphraseWrap: Sendable {
    public static let format = FileFormat("wrapped key", reads: [1])
    static let magicPrefix = Array("GCSP".utf8)
    static let magic = magicPrefix + Array(String(format.current).utf8)
    /// scrypt N = 2^17, r = 8, p = 1: 128 MiB and a few tenths of a second, paid once per unlock.
    public static let defaultCost: UInt8 = 17
    /// What a database may ask of us: a hostile file must not make us allocate gigabytes.
    static let maximumMemory = 1 << 30

    public let cost: UInt8
    let blockSize: UInt8
    let parallelism: UInt8
    let salt: [UInt8]
    let sealed: [UInt8]

    /// Seals `dataKey` (any secret bytes: the store's data key, an export's payload) under
    /// the passphrase; `databaseID` is bound in as additional data.
    public static func wrap(_ dataKey: [UInt8], passphrase: [UInt8], cost: UInt8, databaseID: [UInt8]) throws -> PassphraseWrap {
        let salt = randomBytes(16)
        let kek = try deriveKey(passphrase, salt: salt, cost: cost, blockSize: 8, parallelism: 1)
        let header = magic + [cost, 8, 1] + salt
        let box = try AES.GCM.seal(dataKey, using: kek, authenticating: header + databaseID)
        return PassphraseWrap(cost: cost, blockSize: 8, parallelism: 1, salt: salt, sealed: Array(box.combined!))
    }

    init(cost: UInt8, blockSize: UInt8, parallelism: UInt8, salt: [UInt8], sealed: [UInt8]) {
        self.cost = cost
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
        self.sealed = sealed
    }

    public init?(blob: [UInt8]) {
        let fixed = Self.magic.count + 3 + 16
        guard blob.count > fixed, Array(blob.prefix(Self.magic.count)) == Self.magic else { return nil }
        let params = blob[Self.magic.count..<Self.magic.count + 3]
        self.init(cost: params[params.startIndex], blockSize: params[params.startIndex + 1],
                  parallelism: params[params.startIndex + 2],
                  salt: Array(blob[(fixed - 16)..<fixed]), sealed: Array(blob[fixed...]))
    }

    /// The wrap in `blob`, found in `place` (for the message); `nil` when it is no wrap at
    /// all (damaged), refused when it is a wrap of a format this release does not read.
    public static func read(_ blob: [UInt8], in place: String) throws(HelperError) -> PassphraseWrap? {
        if let (version, _) = FileFormat.number(after: magicPrefix, in: blob) { try format.check(version, in: place) }
        return PassphraseWrap(blob: blob)
    }

    public var blob: [UInt8] { Self.magic + [cost, blockSize, parallelism] + salt + sealed }

    /// The data key, or `nil` when the passphrase is wrong.
    public func unwrap(passphrase: [UInt8], databaseID: [UInt8]) throws -> [UInt8]? {
        let kek = try Self.deriveKey(passphrase, salt: salt, cost: cost, blockSize: blockSize, parallelism: parallelism)
        let header = Self.magic + [cost, blockSize, parallelism] + salt
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
              let key = try? AES.GCM.open(box, using: kek, authenticating: header + databaseID)
        else { return nil }
        return Array(key)
    }

    /// 128·r·N·p bytes: scrypt's memory at p = 1, and its time as a multiple of it. One
    /// number bounds both what a hostile file can make us allocate and how long it can make
    /// us run. `Int.max` when it overflows.
    public static func scryptBytes(cost: UInt8, blockSize: UInt8, parallelism: UInt8) -> Int {
        guard cost <= 40 else { return .max }
        let (bytes, overflow) = (128 * Int(blockSize) * Int(parallelism)).multipliedReportingOverflow(by: 1 << Int(cost))
        return overflow ? .max : bytes
    }

    /// Whether data sealed with these parameters may be opened at all when it may ask for at
    /// most `limit` bytes (see `scryptBytes`). scrypt itself (RFC 7914, BoringSSL) also
    /// wants N < 2^(16·r): beyond, it fails with an error no one could act on.
    public static func isRunnable(cost: UInt8, blockSize: UInt8, parallelism: UInt8, limit: Int) -> Bool {
        (1...30).contains(cost) && blockSize > 0 && parallelism > 0 && Int(cost) < 16 * Int(blockSize)
            && scryptBytes(cost: cost, blockSize: blockSize, parallelism: parallelism) <= limit
    }

    static func deriveKey(_ passphrase: [UInt8], salt: [UInt8], cost: UInt8, blockSize: UInt8, parallelism: UInt8) throws -> SymmetricKey {
        guard isRunnable(cost: cost, blockSize: blockSize, parallelism: parallelism, limit: maximumMemory) else {
            throw HelperError(.failure, "the store asks for scrypt parameters beyond what is safe to run (log2 N \(cost), r \(blockSize), p \(parallelism))",
                              fix: "the database was not written by git-credential-sqlite; restore it from a backup")
        }
        return try KDF.Scrypt.deriveKey(from: passphrase, salt: salt, outputByteCount: 32, rounds: 1 << Int(cost),
                                        blockSize: Int(blockSize), parallelism: Int(parallelism), maxMemory: maximumMemory + 1)
    }
}

/// Fresh random bytes from the system's generator (getrandom).
public func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}
