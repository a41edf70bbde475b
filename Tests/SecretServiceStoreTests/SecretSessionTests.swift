import CSecretService
import Crypto
import Testing
@testable import SecretServiceStore

/// The pieces of our side of the Secret Service session that a service never shows wrong:
/// the power in the spec's group, its refusal of a peer's value that would make the key
/// guessable, and the decryption's refusal of what is not a secret of the session. That
/// gnome-keyring and libsecret agree with all of it is tested end to end
/// (SecretServiceSessionTests).
@Suite struct SecretSessionTests {
    static let prime: [UInt8] = Array(hex: """
        FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD\
        EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED\
        EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF
        """)

    /// base ^ exponent: our public key for base 2, else the secret shared with a peer of that public key.
    func power(_ base: [UInt8], _ exponent: [UInt8]) -> [UInt8]? {
        var result = [UInt8](repeating: 0xAA, count: Int(CSECRETSERVICE_MODP_BYTES))
        let done = base == [2] ? csecretservice_modp_public_key(exponent, exponent.count, &result)
            : csecretservice_modp_shared_secret(base, base.count, exponent, exponent.count, &result)
        return done == 1 ? result : nil
    }

    func padded(_ bytes: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 128 - bytes.count) + bytes }

    @Test func powersOfTwoAreThePowersOfTwo() {
        #expect(power([2], [1]) == padded([2]))
        #expect(power([2], [16]) == padded([1, 0, 0]))
        #expect(power([0, 0, 3], [2]) == padded([9]), "leading zero bytes are the same number")
        // 2^1023 is less than the prime: the one bit, not reduced.
        #expect(power([2], [0x03, 0xFF]) == [0x80] + [UInt8](repeating: 0, count: 127))
        // 2^1024 is reduced: 2^1024 - p, the prime's bytes inverted plus one (its last byte is 0xFF).
        var reduced = Self.prime.map { 0xFF - $0 }
        reduced[127] += 1
        #expect(power([2], [0x04, 0x00]) == reduced)
    }

    @Test func bothSidesOfAnExchangeAgree() {
        for _ in 0..<8 {
            let a = SecretSession.randomBytes(32), b = SecretSession.randomBytes(32)
            guard let ga = power([2], a), let gb = power([2], b) else { Issue.record("no public keys"); return }
            #expect(power(ga, b) == power(gb, a))
            #expect(power(ga, b) != nil && ga != gb)
        }
    }

    /// A peer's value of 0, 1 or p - 1 (or not below p) puts the shared secret among three
    /// values anyone can try, and 2 makes it our public key: refused, whatever the exponent.
    @Test func aPeersValueThatGivesAGuessableSecretIsRefused() {
        let exponent = SecretSession.randomBytes(32)
        var minusOne = Self.prime
        minusOne[127] -= 1
        var minusTwo = Self.prime
        minusTwo[127] -= 2
        for refused in [[], [0], [1], [0, 0, 1], [0, 2], minusOne, Self.prime, [0] + Self.prime, [1] + [UInt8](repeating: 0, count: 128),
                        [UInt8](repeating: 0xFF, count: 128)] {
            #expect(power(refused, exponent) == nil, "\(refused.count) bytes accepted")
        }
        #expect(power(minusTwo, exponent) != nil && power([3], exponent) != nil)
        #expect(power([2], []) == nil, "an empty exponent")
    }

    @Test func onlyASecretOfTheSessionDecrypts() throws {
        let session = SecretSession(path: "/s", key: SymmetricKey(size: .bits128))
        let secret = Array("password=p\u{e9}\nexpiry=1\n".utf8)
        let sent = try session.encrypt(secret)
        #expect(sent.parameters.count == 16 && sent.value.count == 32)
        #expect(session.decrypt(parameters: sent.parameters, value: sent.value) == secret)
        #expect(try session.encrypt(secret).parameters != sent.parameters, "an IV of its own each time")
        #expect(session.decrypt(parameters: Array(sent.parameters.prefix(8)), value: sent.value) == nil)
        #expect(session.decrypt(parameters: sent.parameters, value: Array(sent.value.prefix(20))) == nil)
        #expect(session.decrypt(parameters: sent.parameters, value: []) == nil)
        let other = SecretSession(path: "/s", key: SymmetricKey(size: .bits128))
        // Another key almost never leaves a valid PKCS#7 padding; when it does, the text is not the secret.
        #expect(other.decrypt(parameters: sent.parameters, value: sent.value) != secret)
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        let digits = Array(hex.utf8)
        self = stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }
}
