import Testing
@testable import CredentialCore

@Suite("WireFormat.records: records ended by blank lines, as export writes them")
struct WireFormatRecordsTests {
    /// Each record is parsed alone: a bad one spoils only itself, and says which line of
    /// the whole input is bad. Blank lines between records count as lines.
    @Test func eachRecordKnowsItsLineAndFailsAlone() throws {
        let records = WireFormat.records(Array("\n\nprotocol=https\nhost=a\n\n\nprotocol=x\nbad\n\nhost=b".utf8))
        #expect(records.map(\.line) == [3, 7, 10])
        #expect(try records[0].credential.get() == Credential(protocol: "https", host: "a"))
        #expect(throws: ProtocolError("line 8 has no '='; every line must be key=value")) { try records[1].credential.get() }
        #expect(try records[2].credential.get() == Credential(host: "b"), "the last record needs no blank line or LF")
        #expect(WireFormat.records([]).isEmpty && WireFormat.records(Array("\n\n".utf8)).isEmpty)
    }

    /// `keys` is what the parser reads: each sets something, and a key not in it nothing.
    @Test func theKnownKeysAreTheOnesTheParserReads() throws {
        for key in WireFormat.keys {
            let value = key == "url" ? "https://h" : key == "password_expiry_utc" ? "5" : "x"
            #expect(try WireFormat.parse(Array("\(key)=\(value)\n".utf8)) != Credential(), "\(key)")
        }
        #expect(try WireFormat.parse(Array("continue=1\nquit=1\n".utf8)) == Credential())
    }
}
