import Testing
@testable import CredentialCore

@Suite("Base64")
struct Base64Tests {
    /// RFC 4648, section 10.
    static let rfc4648Vectors = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: rfc4648Vectors)
    func encodesRFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(bytes(plain)) == encoded)
    }

    @Test(arguments: rfc4648Vectors)
    func decodesRFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64.decode(encoded) == bytes(plain))
    }

    @Test func usesTheStandardAlphabetForHighBytes() {
        #expect(Base64.encode([0xFF, 0xFE, 0xFD]) == "//79")
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        #expect(Base64.encode([0, 0, 0]) == "AAAA")
        #expect(Base64.decode("+/8=") == [0xFB, 0xFF])
        #expect(Base64.encode(Array(0...29)) == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd")
    }

    @Test(arguments: [
        "Zg",  // unpadded
        "Zg=", "Zm9vY", "Zm9vYg",  // length not a multiple of 4
        "Zg==Zg==",  // padding before the end
        "====", "Z===", "=Zg=", "Zg=a",  // padding in the wrong place
        "Zm9v Yg==", "Zm9v\nYg==", " Zm9v",  // white space
        "Zm9-", "Zm9_",  // URL-safe alphabet
        "Zm\u{00E9}",  // not ASCII (4 bytes of UTF-8)
        "Zm9\0",
    ])
    func strictDecodeRejectsBadInput(text: String) {
        #expect(Base64.decode(text) == nil)
    }

    /// RFC 4648 section 3.5: a strict decoder rejects pad bits that are not zero, so that
    /// every byte string has exactly one accepted encoding.
    @Test(arguments: ["Zh==", "Zm9=", "Zm9vYh==", "//7/Zm9="])
    func strictDecodeRejectsNonZeroPadBits(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
