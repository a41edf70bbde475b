import Testing
@testable import CredentialCore

@Suite("HelperError.line")
struct HelperErrorTests {
    @Test func lineNamesProgramMessageAndFix() {
        let error = HelperError(.unavailable, "the database is locked", fix: "close the other git")
        #expect(error.line(program: "git-credential-sqlite") == "git-credential-sqlite: the database is locked. Fix: close the other git")
        #expect(HelperError(.failure, "no such file").line(program: "p") == "p: no such file")
    }

    @Test func lineStaysOneLineWhateverTheCause() {
        let error = HelperError(.usage, "bad\ninput\r\nhere\u{2028}x", fix: "one\rtwo")
        let line = error.line(program: "p")
        #expect(!line.contains { $0.isNewline })
        #expect(line.hasPrefix("p: bad input"))
    }
}
