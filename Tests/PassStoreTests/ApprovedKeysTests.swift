import CredentialCore
import Testing
@testable import PassStore

/// The logic of approved keys without gpg or a file: how a `.gpg-id` is read (as pass
/// reads it), how an approval is written and read back, and which names count as approved
/// (fingerprints match in any case and with `0x`; a new `.gpg-id` inherits from above).
/// PassHelperTests checks the same against real pass and gpg.
@Suite("ApprovedKeys: .gpg-id names, recorded approvals, fingerprint matching")
struct ApprovedKeysTests {
    static let fingerprint = "0123456789ABCDEF0123456789ABCDEF01234567"
    static let other = "89ABCDEF0123456789ABCDEF0123456789ABCDEF"
    typealias Key = ApprovedKeys.Key

    static func names(_ text: String) -> [String] { ApprovedKeys.names(in: Array(text.utf8)).map(\.name) }

    // MARK: Reading a .gpg-id as pass does

    @Test func namesAreLinesWithoutCommentsAndBlanksSortedOnce() {
        #expect(Self.names("bob@example.com\n# a comment\n  alice@example.com  # after\n\tcarol\t\n\nbob@example.com\n")
                == ["alice@example.com", "bob@example.com", "carol"])
    }

    @Test func anUnterminatedLastLineIsNotRead() {
        #expect(Self.names("alice\nbob") == ["alice"])
        #expect(Self.names("bob").isEmpty)
        #expect(Self.names("").isEmpty)
    }

    /// bash drops NUL bytes; a carriage return is part of the name (pass passes it to gpg).
    @Test func nulBytesVanishAndCarriageReturnsStay() {
        #expect(ApprovedKeys.names(in: Array("al\0ice\n".utf8)).map(\.name) == ["alice"])
        #expect(Self.names("alice\r\n") == ["alice%0D"])
    }

    /// Each name is kept as its bytes: what is hidden or separates fields shows as %XX, and
    /// two spellings of é are two names.
    @Test func namesAreExactBytes() {
        #expect(ApprovedKeys.exact("alice@example.com".utf8) == "alice@example.com")
        #expect(ApprovedKeys.exact("a b%=\t".utf8) == "a%20b%25%3D%09")
        let composed = ApprovedKeys.exact("\u{E9}".utf8), decomposed = ApprovedKeys.exact("e\u{301}".utf8)
        #expect(composed == "%C3%A9" && decomposed == "e%CC%81" && composed != decomposed)
        #expect(Self.names("\u{E9}\ne\u{301}\n").count == 2)
        #expect(ApprovedKeys.names(in: Array("a b\n".utf8)).first?.bytes == Array("a b".utf8)[...], "gpg gets the bytes")
    }

    @Test func textsLeaveOutNamesThatAreNoUTF8() {
        #expect(ApprovedKeys.texts(in: [0xFF, 0x0A] + Array("alice\n".utf8)) == ["alice"])
    }

    // MARK: Fingerprints

    @Test func fingerprintsAreFortyHexDigits() {
        let lower = Self.fingerprint.lowercased()
        for text in [Self.fingerprint, lower, "0x" + Self.fingerprint, Self.fingerprint + "!", "0x" + lower + "!"] {
            #expect(ApprovedKeys.isFingerprint(text[...]), "\(text)")
        }
        let fullwidth = String(Self.fingerprint.dropLast()) + "\u{FF17}"
        for text in [String(Self.fingerprint.dropLast()), Self.fingerprint + "0", String(repeating: "A", count: 64), "",
                     String(Self.fingerprint.dropLast()) + "G", fullwidth, "0X" + Self.fingerprint, "alice@example.com"] {
            #expect(!ApprovedKeys.isFingerprint(text[...]), "\(text)")
        }
    }

    // MARK: Recording approvals

    /// A key is written `NAME=FINGERPRINT`, or the fingerprint alone when it is its own
    /// name, or the name alone when none was found yet; each reads back as it was.
    @Test func aKeyIsWrittenAndReadBack() {
        let named = Key(name: "alice@example.com", fingerprint: Self.fingerprint)
        #expect(named.field == "alice@example.com=" + Self.fingerprint && named.pinned == Self.fingerprint)
        #expect(named.description == "alice@example.com (\(Self.fingerprint))")
        let itself = Key(name: Self.fingerprint, fingerprint: Self.fingerprint)
        #expect(itself.field == Self.fingerprint && itself.found == nil && itself.description == Self.fingerprint)
        let unfound = Key(name: "bob", fingerprint: nil)
        #expect(unfound.field == "bob" && unfound.pinned == "bob" && unfound.description == "bob")
        for key in [named, itself, unfound] {
            #expect(Key(field: key.field[...]) == key, "\(key.field)")
        }
    }

    /// A field whose part after `=` is no fingerprint is a name (exact writes `=` as %3D, so
    /// a hand-edited line is not misread as pinning a key).
    @Test func aFieldWithoutAFingerprintIsAName() {
        #expect(Key(field: "alice=bob") == Key(name: "alice=bob", fingerprint: nil))
        #expect(Key(field: "alice=") == Key(name: "alice=", fingerprint: nil))
        #expect(Key(field: (Self.fingerprint + "=" + Self.other)[...]) == Key(name: Self.fingerprint, fingerprint: Self.other))
    }

    @Test func listsNameTheKeys() {
        #expect(ApprovedKeys.list([Key]()) == "no key")
        #expect(ApprovedKeys.list([Key(name: "a", fingerprint: Self.fingerprint), Key(name: "b", fingerprint: nil)])
                == "a (\(Self.fingerprint)), b")
    }

    // MARK: What counts as approved

    static var approvals: [String: [Key]] {
        [".gpg-id": [Key(name: "alice@example.com", fingerprint: fingerprint), Key(name: "legacy", fingerprint: nil)],
         "team/.gpg-id": [Key(name: other, fingerprint: other)]]
    }

    @Test func approvedNamesAndTheirFingerprintsPass() {
        let check = { ApprovedKeys.unapproved($0, of: ".gpg-id", in: Self.approvals) }
        #expect(check(["alice@example.com", "legacy"]).isEmpty)
        // The fix for a name matching several keys: the approved key's fingerprint, in any spelling.
        #expect(check([Self.fingerprint, Self.fingerprint.lowercased(), "0x" + Self.fingerprint]).isEmpty)
        #expect(check(["mallory@example.com", "Alice@example.com"]) == ["mallory@example.com", "Alice@example.com"])
        // A name approved without a fingerprint approves no fingerprint; a fingerprint of
        // another .gpg-id's key is not approved here.
        #expect(check([Self.other]) == [Self.other])
    }

    /// A fingerprint-looking text only matches as a fingerprint when it is one: a name
    /// that merely contains the approved fingerprint is another name.
    @Test func onlyWholeFingerprintsMatch() {
        #expect(ApprovedKeys.unapproved(["x" + Self.fingerprint], of: ".gpg-id", in: Self.approvals) == ["x" + Self.fingerprint])
    }

    /// A `.gpg-id` new in a subdirectory is held to the nearest approved one above it.
    @Test func aNewGpgIdInheritsFromTheNearestAbove() {
        #expect(ApprovedKeys.inherited("work/.gpg-id", from: Self.approvals) == Self.approvals[".gpg-id"])
        #expect(ApprovedKeys.inherited("team/sub/deeper/.gpg-id", from: Self.approvals) == Self.approvals["team/.gpg-id"])
        #expect(ApprovedKeys.inherited(".gpg-id", from: Self.approvals) == nil)
        #expect(ApprovedKeys.inherited("work/.gpg-id", from: ["team/.gpg-id": []]) == nil)
        #expect(ApprovedKeys.unapproved(["alice@example.com"], of: "work/.gpg-id", in: Self.approvals).isEmpty)
        #expect(ApprovedKeys.unapproved(["alice@example.com"], of: "team/sub/.gpg-id", in: Self.approvals) == ["alice@example.com"])
        #expect(ApprovedKeys.unapproved([Self.other], of: "team/sub/.gpg-id", in: Self.approvals).isEmpty)
    }

    /// Nothing approved above: every name is new.
    @Test func withNoApprovalEveryNameIsNew() {
        #expect(ApprovedKeys.unapproved(["a", "b"], of: ".gpg-id", in: [:]) == ["a", "b"])
    }
}
