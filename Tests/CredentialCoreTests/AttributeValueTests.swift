import Testing
@testable import CredentialCore

/// `password_expiry_utc` and `ephemeral`, the two attributes whose value is interpreted.
@Suite("WireFormat: password_expiry_utc and ephemeral values")
struct AttributeValueTests {
    /// git reads the expiry with parse_timestamp (strtoumax, base 10): the leading digits
    /// after optional white space and sign; 0, no digits or overflow mean no expiry.
    @Test(arguments: [
        ("1700000000", 1_700_000_000),
        ("1", 1),
        ("0042", 42),
        ("42abc", 42),
        ("42 43", 42),
        ("1e9", 1),
        (" 42", 42),
        ("\t42", 42),
        ("+42", 42),
        ("18446744073709551615", UInt64.max),
    ] as [(String, UInt64)])
    func expiryIsTheLeadingNumber(text: String, expected: UInt64) throws {
        #expect(try parse("password_expiry_utc=\(text)\n").passwordExpiryUTC == expected)
    }

    @Test(arguments: [
        "0", "000", "", "abc", "x42", "0x10", "+", " ", "--1",
        "18446744073709551616", "99999999999999999999999999",
    ])
    func expiryWithoutAUsableNumberMeansNone(text: String) throws {
        #expect(try parse("password_expiry_utc=\(text)\n").passwordExpiryUTC == nil)
    }

    /// strtoumax skips every isspace() byte of the C locale, vertical tab and form feed too.
    @Test(arguments: ["\u{0B}42", "\u{0C}42", " \u{0B}\t\u{0C}42"])
    func expirySkipsAllLeadingCWhiteSpace(text: String) throws {
        #expect(try parse("password_expiry_utc=\(text)\n").passwordExpiryUTC == 42)
    }

    @Test func negativeExpiryNeverExpires() throws {
        // strtoumax wraps "-5" to a huge value: to git, a password that never expires.
        let request = try parse("password_expiry_utc=-5\n")
        #expect(!request.isExpired(now: UInt64.max - 10))
    }

    @Test func lastExpiryWinsEvenWhenItMeansNone() throws {
        #expect(try parse("password_expiry_utc=100\npassword_expiry_utc=0\n").passwordExpiryUTC == nil)
        #expect(try parse("password_expiry_utc=0\npassword_expiry_utc=100\n").passwordExpiryUTC == 100)
    }

    @Test(arguments: [
        ("true", true), ("TRUE", true), ("True", true), ("yes", true), ("on", true), ("1", true),
        ("false", false), ("FALSE", false), ("False", false), ("no", false), ("off", false), ("0", false),
        ("", false),
    ])
    func ephemeralIsReadLikeAGitBoolean(text: String, expected: Bool) throws {
        #expect(try parse("ephemeral=\(text)\n").ephemeral == expected)
    }

    @Test func ephemeralThatIsNotClearlyFalseCountsAsTrue() throws {
        // The safe mistake: not persisting.
        #expect(try parse("ephemeral=maybe\n").ephemeral)
    }

    @Test func lastEphemeralWins() throws {
        #expect(try !parse("ephemeral=true\nephemeral=false\n").ephemeral)
        #expect(try parse("ephemeral=false\nephemeral=yes\n").ephemeral)
    }
}
