import Testing
@testable import CredentialCore

@Suite struct FileFormatTests {
    @Test func theRefusalNamesTheVersionFoundAndThoseRead() throws {
        let store = FileFormat("store", reads: [1, 2])
        try store.check(1, in: "f")
        try store.check(2, in: "f")
        let later = try #require(throws: HelperError.self) { try store.check(3, in: "/s/credentials.db") }
        #expect(later.line(program: "p") == "p: /s/credentials.db has store format 3, and this release (\(Version.number)) reads store formats 1 and 2. Fix: use a newer release of the git credential helpers, which reads it; this one changed nothing")
        #expect(later.kind == .failure)
        // Below the first: no release wrote it, and a newer one is no fix.
        let earlier = try #require(throws: HelperError.self) { try store.check(0, in: "f") }
        #expect(earlier.fix == "it was not written by the git credential helpers: restore it from a backup")
        #expect(FileFormat("key file", reads: [1]).refusal(2, in: "k").message.hasSuffix("reads key file format 1"))
        #expect(FileFormat("export", reads: [1, 2, 3]).refusal(4, in: "e").message.hasSuffix("reads export formats 1, 2 and 3"))
    }

    @Test func theVersionIsTheDigitsAfterThePrefix() {
        let prefix = Array("GCSP".utf8)
        #expect(FileFormat.number(after: prefix, in: Array("GCSP1".utf8) + [15, 8, 1]) ?? (0, 0) == (1, 5))
        #expect(FileFormat.number(after: prefix, in: Array("GCSP12x".utf8)) ?? (0, 0) == (12, 6))
        #expect(FileFormat.number(after: prefix, in: Array("GCSP".utf8)) == nil)
        #expect(FileFormat.number(after: prefix, in: Array("GCSPx1".utf8)) == nil)
        #expect(FileFormat.number(after: prefix, in: Array("GCS".utf8)) == nil)
        // More digits than fit are cut, never overflow.
        let long = FileFormat.number(after: prefix, in: Array(("GCSP" + String(repeating: "9", count: 40)).utf8))
        #expect(long?.version == 999_999_999_999_999_999)
    }
}
