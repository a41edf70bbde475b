import Foundation
import Testing

/// Import of many credentials for one host (issue 10, second round, item 6): each store
/// replaces the one with the same key, and finding it must not decrypt every row of the
/// host again for each credential (2000 lines took 15 s, 8000 lines 234 s).
@Suite struct ImportScaleTests {
    @Test func manyUsernamesForOneHostImportInLinearTime() throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper
        let count = 4000
        let lines = (0..<count).map { "https://user\($0):pw\($0)@example.com\n" }.joined()
        let file = try sandbox.file("credentials", lines)
        for round in 1...2 {  // the second round replaces every one
            let started = Date()
            let result = try helper.run(["import", file])
            let seconds = Date().timeIntervalSince(started)
            #expect(result.exitCode == 0 && result.stderrText.contains("read \(count) credentials") && result.stderrText.contains(round == 1 ? "\(count) new, 0 replaced, 0 unchanged" : "0 new, 0 replaced, \(count) unchanged"), "\(result)")
            // Quadratic, this took about a minute; linear, well under a second.
            #expect(seconds < 20, "round \(round) took \(seconds) s")
        }
        #expect(try StoreFiles(sandbox: sandbox, database: sandbox.database).rowCount() == count)
        #expect(try helper.password(for: wire("protocol=https", "host=example.com", "username=user3999")) == "pw3999")
        #expect(try helper.password(for: wire("protocol=https", "host=example.com", "username=user0")) == "pw0")
    }

    /// A file of many lines that are not imported, incomplete and repeated in turn: each
    /// gets its note, in the order of the lines, without placing each note in a list that
    /// grows (40,000 such lines took about a minute so, a second now).
    @Test func manySkippedLinesAreNotedInLinearTime() throws {
        let world = try SQLiteWorld(), sandbox = world.sandbox, helper = world.helper
        let pairs = 20000
        let lines = "https://alice:pa@a.example\n" + String(repeating: "https://nopassword@b.example\nhttps://alice:other@a.example\n", count: pairs)
        let file = try sandbox.file("credentials", lines)
        let started = Date()
        let result = try helper.run(["import", file])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.exitCode == 0 && result.stderrLines.first
                == "read 1 credential from \(file): 1 new, 0 replaced, 0 unchanged; skipped \(pairs) incomplete entries (lines 2, 4, 6, 8, 10 and \(pairs - 5) more); skipped \(pairs) repeated entries (lines 3, 5, 7, 9, 11 and \(pairs - 5) more)",
                "\(result.stderrLines.first ?? "")")
        #expect(result.stderrLines.count == 1 + 2 * pairs)
        #expect(result.stderrLines.dropFirst().prefix(2) == ["not imported from \(file): line 2: no password",
                                                             "not imported from \(file): line 3 repeats line 1 with a different password or token: skipped, the first is the one git uses"])
        #expect(seconds < 15, "took \(seconds) s")
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "pa")
    }
}
