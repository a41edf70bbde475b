import CredentialCore
import Crypto
import Foundation
import Testing
@testable import CredentialCrypto
@testable import SQLiteStore

@Suite struct KeyTests {
    let directory = ThrowawayStoreDirectory()

    @Test func recordsRoundTripAndArePadded() throws {
        let item = Credential(protocol: "https", host: "h", username: "u", password: "p", passwordExpiryUTC: 7)
        let encoded = RecordCodec.encode(item, stored: 1_700_000_000)
        #expect(encoded.count % RecordCodec.blockSize == 0)
        #expect(RecordCodec.decode(encoded) == item)
        #expect(RecordCodec.decodeDated(encoded)?.stored == 1_700_000_000, "the time it was stored")
        #expect(RecordCodec.decode(Array(encoded.dropLast(encoded.count - 10))) == nil)
        #expect(RecordCodec.decode([3] + encoded.dropFirst()) == nil, "unknown record version")
    }

    /// A record's expiry is read as every store reads one (StoredExpiry): what is not
    /// canonical digits is expired, not "never" (as it was) nor git's leading number.
    @Test(arguments: [("4102444800", 4_102_444_800), (" 5", 1), ("+5", 1), ("", 1), ("junk", 1), ("0", 1), ("05", 1),
                      ("18446744073709551616", 1)] as [(String, UInt64)])
    func aRecordsExpiryIsReadAsEveryStoreReadsIt(text: String, expected: UInt64) {
        var fields = RecordCodec.fields(of: Credential(protocol: "https", host: "h", username: "u", password: "p"))
        fields[5] = Array(text.utf8)
        // A record of version 1, as earlier releases wrote (no time stored): still read.
        let record = [1] + fields.flatMap(RecordCodec.field)
        #expect(RecordCodec.decode(record)?.passwordExpiryUTC == expected)
        #expect(RecordCodec.decode(record)?.isExpired(now: 4_000_000_000) == (expected < 4_000_000_000))
    }

    @Test func theSpelledOutDerivationIsHKDF() {
        let key = (0..<32).map { UInt8($0) }
        let salt: [UInt8] = [9, 8, 7]
        let info = Array("git-credential-sqlite v1 lookup tag".utf8)
        let expected = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: key), salt: salt, info: info, outputByteCount: 32)
        let keys = StoreKeys(dataKey: key, databaseID: salt)
        #expect(keys.tagKey == expected.withUnsafeBytes { Array($0) })
    }

    /// StoreKeys spells HMAC-SHA256 out (for start-up time): it is swift-crypto's, for
    /// keys shorter than, as long as and longer than a block, and the RFC 4231 vectors.
    @Test func theSpelledOutHMACIsHMACSHA256() {
        for keyLength in [0, 1, 16, 32, 63, 64, 65, 131] {
            for messageLength in [0, 1, 55, 64, 200] {
                let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
                let message = (0..<messageLength).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
                let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
                #expect(StoreKeys.hmac(key: key, message) == expected, "key \(keyLength) bytes, message \(messageLength) bytes")
            }
        }
        // RFC 4231, test cases 1 and 6.
        #expect(hex(StoreKeys.hmac(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(hex(StoreKeys.hmac(key: [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func tagsDependOnTheKeyAndTheDatabase() {
        let key = [UInt8](repeating: 7, count: 32)
        let one = StoreKeys(dataKey: key, databaseID: [1])
        let two = StoreKeys(dataKey: key, databaseID: [2])
        #expect(one.tag(protocol: Array("https".utf8), host: Array("h".utf8)) == one.tag(protocol: Array("https".utf8), host: Array("h".utf8)))
        #expect(one.tag(protocol: Array("https".utf8), host: Array("h".utf8)) != two.tag(protocol: Array("https".utf8), host: Array("h".utf8)))
        #expect(one.tag(protocol: Array("https".utf8), host: []) != one.tag(protocol: Array("https".utf8), host: nil),
                "an empty host and no host are different look-ups")
    }

    @Test func sealingBindsTheRow() throws {
        let keys = StoreKeys(dataKey: [UInt8](repeating: 1, count: 32), databaseID: [9])
        let sealed = try keys.seal([1, 2, 3], rowID: 5, tag: [4])
        #expect(try keys.open(sealed, rowID: 5, tag: [4]) == [1, 2, 3])
        #expect(throws: (any Error).self) { try keys.open(sealed, rowID: 6, tag: [4]) }
        #expect(throws: (any Error).self) { try keys.open(sealed, rowID: 5, tag: [3]) }
    }

    @Test func passphraseWrapOpensOnlyWithThePassphrase() throws {
        let key = [UInt8](repeating: 3, count: 32)
        let wrap = try PassphraseWrap.wrap(key, passphrase: Array("correct horse".utf8), cost: 10, databaseID: [1])
        let reread = try #require(PassphraseWrap(blob: wrap.blob))
        #expect(try reread.unwrap(passphrase: Array("correct horse".utf8), databaseID: [1]) == key)
        #expect(try reread.unwrap(passphrase: Array("wrong".utf8), databaseID: [1]) == nil)
        #expect(try reread.unwrap(passphrase: Array("correct horse".utf8), databaseID: [2]) == nil)
    }

    @Test func hostileScryptParametersAreRefusedBeforeAllocating() throws {
        let wrap = PassphraseWrap(cost: 30, blockSize: 255, parallelism: 255, salt: [UInt8](repeating: 0, count: 16), sealed: [1])
        let error = try #require(throws: HelperError.self) { try wrap.unwrap(passphrase: [1], databaseID: []) }
        #expect(error.message.contains("scrypt parameters"))
    }

    @Test func keyFileIsCreatedOnceAndPrivately() throws {
        let path = directory.root + "/config/key"
        let first = try KeyFile.readOrCreate(path).key
        #expect(try KeyFile.readOrCreate(path).key == first)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.root + "/config")
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test func racingCreatorsAgreeOnOneKey() async throws {
        let path = directory.root + "/config/key"
        let keys = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<8 { group.addTask { try? KeyFile.readOrCreate(path).key } }
            return await group.reduce(into: [[UInt8]?]()) { $0.append($1) }
        }
        #expect(Set(keys.compactMap { $0 }).count == 1)
        #expect(keys.allSatisfy { $0 != nil })
    }

    @Test func aKeyFileOthersCanReadIsRefused() throws {
        let path = directory.root + "/config/key"
        _ = try KeyFile.readOrCreate(path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let error = try #require(throws: HelperError.self) { try KeyFile.read(path) }
        #expect(error.message.contains("mode 644"))
        #expect(error.fix?.contains("chmod 600") == true)
    }

    @Test func aDamagedKeyFileIsNamed() throws {
        let path = directory.root + "/key"
        _ = FileManager.default.createFile(atPath: path, contents: Data("not a key\n".utf8), attributes: [.posixPermissions: 0o600])
        let error = try #require(throws: HelperError.self) { try KeyFile.read(path) }
        #expect(error.message == "\(path) is not a git-credential-sqlite key file")
    }
}
