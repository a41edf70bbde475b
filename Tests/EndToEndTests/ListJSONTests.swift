import Foundation
import Testing

/// `list --format json` for scripts: every field but secrets, each value a hostile item
/// may hold escaped so that a JSON parser reads it back, plain ASCII; `[]` when empty.
@Suite struct ListJSONTests {
    let sandbox: Sandbox

    init() throws { sandbox = try Sandbox() }

    func parsed(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.bytes.allSatisfy { $0 < 0x80 }, "not plain ASCII: \(result)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.bytes)) as? [[String: Any]], sourceLocation: sourceLocation)
    }

    @Test func everyFieldButSecretsAndEmptyIsAnEmptyArray() throws {
        let helper = sandbox.sqlite()
        // The default store does not exist yet: an empty array, and an empty table.
        #expect(try parsed(helper("list", "--format", "json")).isEmpty)
        #expect(try helper("list").stdout.isEmpty)
        try helper.storeAll(wire("protocol=https", "host=a.example:8443", "path=org/repo.git", "username=alice", "password=secret-pa",
                                 "password_expiry_utc=4102444800", "oauth_refresh_token=secret-refresh"),
                            wire("protocol=http", "host=b.example", "username=bob", "password=secret-pb"))
        let result = try helper("list", "--format", "json")
        #expect(!result.stdoutText.contains("secret"), "a secret is listed: \(result)")
        let items = try parsed(result)
        #expect(items.count == 2)
        let first = items[0], second = items[1]
        #expect(first["protocol"] as? String == "http" && first["host"] as? String == "b.example" && first["port"] is NSNull
                && first["path"] is NSNull && first["username"] as? String == "bob" && first["password_expiry_utc"] is NSNull
                && first["expires"] is NSNull && first["backend"] as? String == "sqlite", "\(first)")
        #expect(second["protocol"] as? String == "https" && second["host"] as? String == "a.example" && second["port"] as? Int == 8443
                && second["path"] as? String == "org/repo.git" && second["username"] as? String == "alice"
                && second["password_expiry_utc"] as? Int == 4102444800 && second["expires"] as? String == "2100-01-01T00:00:00Z", "\(second)")
        #expect(Set(second.keys) == ["protocol", "host", "port", "path", "username", "password_expiry_utc", "expires", "backend"])
        // Deleting the last one empties the array again; the table has not even a header.
        let erased = try helper("erase-all", "--yes")
        #expect(erased.exitCode == 0 && erased.stderrText == "erased 2 credentials\n", "\(erased)")
        #expect(try parsed(helper("list", "--format", "json")).isEmpty)
        #expect(try helper("list").stdout.isEmpty)
    }

    @Test func hostileValuesReadBackExactly() throws {
        let helper = sandbox.sqlite()
        // Quotes, backslashes, control and format characters, a character outside the BMP,
        // and bytes that are no UTF-8 (which JSON cannot hold: U+FFFD, never a raw byte).
        let host = "q\"uote\\back\u{1B}[2J\u{202E}\t\u{7F}\u{2028}😀.example"
        var credential = Array("protocol=https\nhost=\(host)\nusername=".utf8) + [0x61, 0xFF, 0xFE, 0x62]
        credential += Array("\npassword=pw\n\n".utf8)
        expectSuccess(try helper.store(credential))
        let result = try helper("list", "--format", "json")
        let items = try parsed(result)
        #expect(items.count == 1 && items[0]["host"] as? String == host, "\(result)")
        #expect(items[0]["username"] as? String == "a\u{FFFD}\u{FFFD}b", "\(result)")
        #expect(items[0]["username_hex"] as? String == "61fffe62" && items[0]["host_hex"] == nil, "\(result)")
        #expect(result.stdoutLines.count == 3, "an item takes more than one line: \(result)")
        // The table shows the same item on one line, escaped.
        #expect(try helper("list").stdoutLines.count == 2)
    }

    /// Issue 23: two hosts that differ only in a byte that is no UTF-8 read as the same
    /// host (U+FFFD): `host_hex` holds the bytes, and tells them apart.
    @Test func valuesThatAreNoUTF8AreGivenAsTheirBytesToo() throws {
        let helper = sandbox.sqlite()
        for byte: UInt8 in [0xFF, 0xFE] {
            expectSuccess(try helper.store(Array("protocol=https\nhost=a".utf8) + [byte] + Array(".example\nusername=u\npassword=pw\n\n".utf8)))
        }
        let items = try parsed(helper("list", "--format", "json"))
        #expect(items.count == 2 && items.allSatisfy { $0["host"] as? String == "a\u{FFFD}.example" }, "\(items)")
        #expect(Set(items.compactMap { $0["host_hex"] as? String }) == ["61ff2e6578616d706c65", "61fe2e6578616d706c65"], "\(items)")
    }

    /// git takes any number as an expiry: one past every calendar is listed as a number.
    @Test func anExpiryNoCalendarHoldsIsShownAsANumber() throws {
        let helper = sandbox.sqlite()
        expectSuccess(try helper.store(wire("protocol=https", "host=a.example", "username=alice", "password=pa",
                                            "password_expiry_utc=18446744073709551615")))
        let items = try parsed(helper("list", "--format", "json"))
        #expect(items.count == 1 && items[0]["expires"] is NSNull && (items[0]["password_expiry_utc"] as? NSNumber)?.uint64Value == UInt64.max,
                "\(items)")
        let table = try helper("list")
        #expect(table.stdoutLines.count == 2 && table.stdoutLines[1].contains("18446744073709551615 s after 1970"), "\(table)")
    }
}
