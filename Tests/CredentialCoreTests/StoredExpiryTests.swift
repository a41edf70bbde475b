import Testing
@testable import CredentialCore

/// The one reading of an expiry a store holds as text, in every backend.
@Suite("StoredExpiry: canonical digits are that time, anything else expired")
struct StoredExpiryTests {
    @Test(arguments: [("1", 1), ("4102444800", 4_102_444_800), ("18446744073709551615", UInt64.max)] as [(String, UInt64)])
    func canonicalDigitsAreThatTime(text: String, expected: UInt64) {
        #expect(StoredExpiry.read(Array(text.utf8)) == expected)
        #expect(StoredExpiry.text(expected) == Array(text.utf8), "what is written reads back")
    }

    /// What git's strtoumax would read otherwise: ` 1` and `+1` as 1, `junk`, `` and `0` as
    /// no expiry, `-1` as the largest time; all expired here.
    @Test(arguments: [" 1", "1 ", "+1", "-1", "", " ", "junk", "1x", "01", "0", "00", "\t5", "5\r",
                      "18446744073709551616", "99999999999999999999999"])
    func anythingElseIsExpired(text: String) {
        #expect(StoredExpiry.read(Array(text.utf8)) == StoredExpiry.unreadable)
        #expect(Credential(password: "p", passwordExpiryUTC: StoredExpiry.read(Array(text.utf8))).isExpired(now: 2))
    }

    /// The wire reads `1` as 1 too, as git does: an export and import keeps it expired.
    @Test func unreadableIsExpiredToGitToo() throws {
        let read = try WireFormat.parse(Array("password_expiry_utc=\(StoredExpiry.unreadable)\n\n".utf8))
        #expect(read.passwordExpiryUTC == 1)
    }
}
