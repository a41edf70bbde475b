import Testing
@testable import CredentialCore

@Suite("TimeSpan: durations as people write them")
struct DurationTests {
    @Test(arguments: [("90", 90), ("30s", 30), ("5m", 300), ("8h", 28800), ("30d", 2_592_000), ("365d", 31_536_000), ("0", 0)])
    func parsesWhatAPersonWrites(_ text: String, _ seconds: Int) throws {
        #expect(try TimeSpan(parsing: text, option: "--x", allowsZero: true).seconds == UInt32(seconds))
    }

    @Test(arguments: [(2_592_000, "for 30 days"), (28800, "for 8 hours"), (90, "for 90 seconds"), (900, "for 15 minutes"),
                      (3600, "for 1 hour"), (86400 + 3600, "for 25 hours"), (1, "for 1 second"), (0, "for 0 seconds")])
    func saysItAsAPersonReadsIt(_ seconds: Int, _ phrase: String) {
        #expect(TimeSpan(seconds: UInt32(seconds)).phrase == phrase)
    }

    /// Beyond the limit, however it is written (even past 64 bits): the message names the
    /// limit, as a person reads it, and the largest value that is accepted.
    @Test(arguments: ["366d", "8761h", "31536001", "4294967296", "999999999999999999d", "18446744073709551616"])
    func beyondTheLimitSaysTheLimit(_ text: String) {
        #expect(throws: HelperError(.usage, "--timeout \(text) is longer than the limit of 365 days", fix: "give at most 365d")) {
            try TimeSpan(parsing: text, option: "--timeout")
        }
    }

    @Test(arguments: ["", "soon", "5x", "m", "-5m", "+5", "1.5h", " 5m", "5 m", "٣m"])
    func notADuration(_ text: String) {
        #expect(throws: HelperError.self) { try TimeSpan(parsing: text, option: "--x", allowsZero: true) }
        do { _ = try TimeSpan(parsing: text, option: "--x", allowsZero: true) } catch {
            #expect(error.message == "--x \(text) is not a duration")
        }
    }

    @Test func zeroOnlyWhereItMeansNever() throws {
        #expect(throws: HelperError.self) { try TimeSpan(parsing: "0m", option: "--timeout") }
        #expect(try TimeSpan(parsing: "0m", option: "--grace-period", allowsZero: true) == .zero)
    }
}
