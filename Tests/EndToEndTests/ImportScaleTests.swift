import Foundation
import Testing

/// Import of many credentials for one host (issue 10, second round, item 6): each store
/// replaces the one with the same key, and finding it must not decrypt every row of the
/// host again for each credential (2000 lines took 15 s, 8000 lines 234 s).
@Suite struct ImportScaleTests {
    @Test func manyUsernamesForOneHostImportInLinearTime() throws {
        let sandbox = try Sandbox(), helper = sandbox.sqlite()
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
}
