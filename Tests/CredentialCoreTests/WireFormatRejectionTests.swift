import Testing
@testable import CredentialCore

@Suite("WireFormat.parse: inputs rejected as a whole")
struct WireFormatRejectionTests {
    /// A `password=` line of `length` bytes, its LF included when `terminated`.
    static func passwordLine(length: Int, terminated: Bool = true) -> String {
        let prefix = "password="
        let valueLength = length - prefix.utf8.count - (terminated ? 1 : 0)
        return prefix + filler(valueLength) + (terminated ? "\n" : "")
    }

    @Test func lineOf65535BytesWithItsLFIsAccepted() throws {
        let line = Self.passwordLine(length: 65535)
        #expect(line.utf8.count == WireFormat.maxLineLength)
        let request = try parse("protocol=https\n" + line + "host=example.com\n")
        #expect(request.password?.bytes.count == 65535 - 10)
        #expect(request.host == "example.com")
    }

    @Test func lineOf65536BytesWithItsLFIsRejected() {
        expectRejected("protocol=https\n" + Self.passwordLine(length: 65536) + "host=example.com\n", line: 2, notMentioning: filler(20))
    }

    @Test func finalLineWithoutLFCountsWithoutIt() throws {
        let request = try parse("protocol=https\n" + Self.passwordLine(length: 65535, terminated: false))
        #expect(request.password?.bytes.count == 65535 - 9)
        expectRejected("protocol=https\n" + Self.passwordLine(length: 65536, terminated: false), line: 2, notMentioning: filler(20))
    }

    @Test func overlongLineIsRejectedEvenAfterAnEarlierError() {
        // The first problem found is the one reported.
        expectRejected("protocol=https\n" + Self.passwordLine(length: 100_000) + "no equals\n", line: 2, notMentioning: filler(20))
    }

    @Test func nulInAValueIsRejected() {
        expectRejected(bytes("protocol=https\nhost=example.com\npassword=s3") + [0] + bytes("cret\n"), line: 3)
    }

    @Test func nulInAKeyIsRejected() {
        expectRejected(bytes("protocol=https\nus") + [0] + bytes("er=s3cret\n"), line: 2)
    }

    @Test func nulInAnUnknownOrListKeyIsRejected() {
        expectRejected(bytes("wwwauth[]=Basic s3cret") + [0] + bytes("\n"), line: 1)
        expectRejected(bytes("x-unknown=s3cret") + [0] + bytes("\n"), line: 1)
    }

    @Test func nulOnItsOwnLineIsRejected() {
        expectRejected([0, 0x0A] + bytes("protocol=https\n"), line: 1)
    }

    @Test func loneCRInAValueIsRejected() {
        expectRejected("protocol=https\npassword=s3cret\rhost=evil\n", line: 2)
    }

    @Test func crlfLineEndingIsRejected() {
        expectRejected("protocol=https\r\nhost=example.com\r\n\r\n", line: 1)
    }

    @Test func crInAKeyIsRejected() {
        expectRejected("protocol=https\nhost\r=s3cret\n", line: 2)
    }

    @Test func crAsTheBlankLineIsRejected() {
        // "\r\n" is not a blank line: a CR-splitting reader would end the request there.
        expectRejected("protocol=https\n\r\nhost=s3cret\n", line: 2)
    }

    @Test func crInWwwauthIsRejected() {
        expectRejected("protocol=https\nwwwauth[]=Basic realm=\"s3cret\"\rhost=evil\n", line: 2)
    }

    @Test func crOnAFinalLineWithoutLFIsRejected() {
        expectRejected("protocol=https\nusername=s3cret\r", line: 2)
    }

    @Test func lineWithoutEqualsIsRejected() {
        expectRejected("protocol=https\nhost=example.com\ns3cret\n", line: 3)
    }

    @Test func finalLineWithoutEqualsAndWithoutLFIsRejected() {
        expectRejected("protocol=https\ns3cret", line: 2)
    }

    @Test func linesAfterARejectedLineDoNotRescueIt() {
        expectRejected("garbage s3cret\nprotocol=https\n\n", line: 1)
    }
}
