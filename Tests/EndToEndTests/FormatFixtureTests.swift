import Foundation
import Testing

/// Stores made by this release are read by every later one: the stores and the export of
/// Tests/Fixtures/formats (made once by release 0.1.0, never regenerated) read through the
/// helpers, from copies, every field checked; reading leaves each copy as it was.
@Suite struct FormatFixtureTests {
    static let fixtures = SourceTree.root + "/Tests/Fixtures/formats"
    static let phrase = "fixture passphrase of format 2"

    let sandbox: Sandbox
    init() throws { sandbox = try Sandbox() }

    // MARK: What the fixtures hold

    static let oddPassword = Array(" lead=trail".utf8) + [0xFF, 0xFE, 0x01, 0x7F] + Array("\\ ".utf8)
    static let longPassword = String(repeating: "0123456789abcdef", count: 100)
    static let odd = (host: "host=bücher.example", path: "path=dir with space/%41é.git", username: "username=o'dd \"üser\"\t=")

    /// Each credential as `export --plaintext --format protocol` writes it.
    static let records: Set<[UInt8]> = [
        wire("protocol=https", "host=example.com", "username=alice", "password=alice-pw"),
        wire("protocol=https", "host=example.com", "username=bob", "password=bob-pw", "password_expiry_utc=4102444800"),
        wire("protocol=https", "host=example.com:8443", "username=alice", "password=alice-on-8443"),
        wire("protocol=https", "host=git.example.org", "path=team/repo.git", "username=carol", "password=carol-pw"),
        wire("protocol=https", "host=api.example.net", "username=dave", "password=dave-access-token",
             "password_expiry_utc=4102444800", "oauth_refresh_token=dave-refresh-token"),
        wire("protocol=https", "host=forge.example", "authtype=Bearer", "credential=forge-bearer-token"),
        wire("protocol=http", "host=127.0.0.1:3000", "username=", "password=token-with-empty-username"),
        lines("protocol=https", odd.host, odd.path, odd.username) + Array("password=".utf8) + oddPassword + [0x0A, 0x0A],
        wire("protocol=https", "host=long.example", "username=jwt", "password=" + longPassword),
        wire("protocol=https", "host=old.example", "username=frank", "password=frank-old-pw",
             "password_expiry_utc=1000000000", "oauth_refresh_token=frank-refresh-token"),
    ]

    /// What get answers each request: every field of each credential, as git gets it.
    static let answers: [(request: [UInt8], answer: [UInt8])] = [
        (wire("protocol=https", "host=example.com", "username=alice"), lines("username=alice", "password=alice-pw")),
        // Of two users of a host, the newer (bob) when git names none.
        (wire("protocol=https", "host=example.com"), lines("username=bob", "password=bob-pw", "password_expiry_utc=4102444800")),
        (wire("protocol=https", "host=example.com:8443"), lines("username=alice", "password=alice-on-8443")),
        (wire("protocol=https", "host=git.example.org", "path=team/repo.git"), lines("username=carol", "password=carol-pw")),
        (wire("protocol=https", "host=api.example.net"),
         lines("username=dave", "password=dave-access-token", "password_expiry_utc=4102444800", "oauth_refresh_token=dave-refresh-token")),
        (wire("capability[]=authtype", "protocol=https", "host=forge.example"),
         lines("capability[]=authtype", "authtype=Bearer", "credential=forge-bearer-token")),
        (wire("protocol=https", "host=forge.example"), []),
        (wire("protocol=http", "host=127.0.0.1:3000"), lines("username=", "password=token-with-empty-username")),
        (wire("protocol=https", odd.host, odd.path), lines(odd.username) + Array("password=".utf8) + oddPassword + [0x0A]),
        (wire("protocol=https", "host=long.example"), lines("username=jwt", "password=" + longPassword)),
        // Expired: its refresh token without the password.
        (wire("protocol=https", "host=old.example"),
         lines("username=frank", "password_expiry_utc=1000000000", "oauth_refresh_token=frank-refresh-token")),
        // Given to store as ephemeral: never stored.
        (wire("protocol=https", "host=ephemeral.example"), []),
    ]

    /// list --format json: (protocol, host, port, path, username, password_expiry_utc) of each.
    static let listed: Set<[String]> = [
        ["http", "127.0.0.1", "3000", "null", "", "null"],
        ["https", "api.example.net", "null", "null", "dave", "4102444800"],
        ["https", "bücher.example", "null", "dir with space/%41é.git", "o'dd \"üser\"\t=", "null"],
        ["https", "example.com", "null", "null", "alice", "null"],
        ["https", "example.com", "null", "null", "bob", "4102444800"],
        ["https", "example.com", "8443", "null", "alice", "null"],
        ["https", "forge.example", "null", "null", "null", "null"],
        ["https", "git.example.org", "null", "team/repo.git", "carol", "null"],
        ["https", "long.example", "null", "null", "jwt", "null"],
        ["https", "old.example", "null", "null", "frank", "1000000000"],
    ]

    // MARK: Reading them

    /// Each store fixture: release 0.1.0's (records of record format 1) and those of
    /// record format 2 (each record keeps when it was stored, `StoredTime`).
    static let stores = ["", "record-2/"]

    @Test(arguments: stores)
    func theKeyFileStoreReadsWhole(of release: String) throws {
        let copied = try copyKeyFileStore(release)
        try expectReadWhole(sandbox.sqlite())
        try expectUnchanged(copied)
    }

    @Test(arguments: stores)
    func thePassphraseStoreReadsWhole(of release: String) throws {
        let copied = try copy(release + "sqlite-2-passphrase/credentials.db", to: sandbox.database)
        let helper = sandbox.sqlite().with(passphraseFile: try sandbox.file("phrase", Self.phrase + "\n"))
        try expectReadWhole(helper)
        // The wrong passphrase is told as one (the wrap still authenticates the key).
        let wrong = try sandbox.sqlite().with(passphraseFile: try sandbox.file("wrong", "not the phrase\n")).list()
        expectOneLineFailure(wrong, exitCode: 1, mentioning: ["wrong passphrase for \(sandbox.database)"])
        try expectUnchanged(copied)
    }

    @Test func theExportImportsWhole() throws {
        let file = sandbox.root + "/export-2.gitcred"
        let copied = try copy("export-2.gitcred", to: file)
        let wrong = try importing(file, phrase: "not the phrase")
        expectOneLineFailure(wrong, exitCode: 2, mentioning: ["wrong passphrase for \(file). Fix:"])
        let imported = try importing(file, phrase: Self.phrase)
        #expect(imported.exitCode == 0 && imported.stderrText == "read 10 credentials from \(file): 10 new, 0 replaced, 0 unchanged\n", "\(imported)")
        try expectReadWhole(sandbox.sqlite())
        try expectUnchanged(copied)
    }

    /// get, list and export (plaintext, and sealed then imported elsewhere) each see every
    /// credential with every field.
    func expectReadWhole(_ helper: SQLiteHelper, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (request, answer) in Self.answers {
            let result = try helper.get(request)
            #expect(result.exitCode == 0 && result.stderr.isEmpty && result.stdout.bytes == answer,
                    "get \(String(decoding: request, as: UTF8.self).debugDescription): \(result)", sourceLocation: sourceLocation)
        }
        let list = try helper("list", "--format", "json")
        #expect(list.exitCode == 0 && list.stderr.isEmpty, "\(list)", sourceLocation: sourceLocation)
        #expect(try Self.listed(list.stdout.bytes) == Self.listed, "\(list)", sourceLocation: sourceLocation)

        let exported = try helper("export", "--plaintext", "--format", "protocol")
        #expect(exported.stderrText == "exported 10 credentials in plaintext to standard output\n", "\(exported)", sourceLocation: sourceLocation)
        #expect(Self.split(exported.stdout.bytes) == Self.records, sourceLocation: sourceLocation)

        // Sealed, then imported into a store of its own, whose plaintext export is the same.
        let file = sandbox.root + "/reexport-\(UUID().uuidString).gitcred", phrase = try sandbox.file("reexport-phrase", "re-export\n")
        var sealing = helper
        sealing.inputFiles[4] = phrase
        let sealed = try sealing("export", "--output", file, "--file-passphrase-fd", "4", "--scrypt-cost", "15")
        #expect(sealed.exitCode == 0, "\(sealed)", sourceLocation: sourceLocation)
        let other = sandbox.sqlite(["--db", sandbox.root + "/reimport-\(UUID().uuidString)/credentials.db", "--key-file", sandbox.root + "/reimport-key-\(UUID().uuidString)/key"])
        let imported = try sandbox.run(BuiltProducts.sqliteHelper, other.options + ["import", "--file-passphrase-fd", "3", file], inputFiles: [3: phrase])
        #expect(imported.exitCode == 0 && imported.stderrText.hasPrefix("read 10 credentials from \(file): 10 new"), "\(imported)", sourceLocation: sourceLocation)
        #expect(Self.split(try other("export", "--plaintext", "--format", "protocol").stdout.bytes) == Self.records, sourceLocation: sourceLocation)
    }

    // MARK: Copies, and that reading changes none

    /// The key-file store at its default places in the sandbox: the fixture's data/ and
    /// config/ are $XDG_DATA_HOME and $XDG_CONFIG_HOME.
    func copyKeyFileStore(_ release: String = "") throws -> [String: [UInt8]] {
        var copied: [String: [UInt8]] = [:]
        for (fixture, target) in [("data/git-credential-sqlite/credentials.db", sandbox.database),
                                  ("config/git-credential-sqlite/key", sandbox.keyFile),
                                  ("config/git-credential-sqlite/key.stores", sandbox.keyFile + ".stores")] {
            copied.merge(try copy(release + "sqlite-2-keyfile/" + fixture, to: target)) { $1 }
        }
        return copied
    }

    /// Copies a fixture as the helpers expect their files (0600 in 0700 directories);
    /// returns the copy's path and bytes.
    func copy(_ fixture: String, to target: String) throws -> [String: [UInt8]] {
        let bytes = try #require(contents(of: Self.fixtures + "/" + fixture), "no fixture \(fixture)")
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try ChildProcess.writeFile(target, bytes, mode: 0o600)
        return [target: bytes]
    }

    /// Each copy has its bytes still; beside a database only SQLite's shared memory and
    /// an empty WAL (what any read leaves), nothing written.
    func expectUnchanged(_ copied: [String: [UInt8]], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (copy, bytes) in copied {
            #expect(contents(of: copy) == bytes, "\(copy) changed", sourceLocation: sourceLocation)
            for path in files(in: (copy as NSString).deletingLastPathComponent) where path.hasPrefix(copy + "-") {
                #expect(path == copy + "-shm" || (path == copy + "-wal" && contents(of: path)?.isEmpty == true),
                        "reading left \(path) (\(contents(of: path)?.count ?? 0) bytes)", sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Helpers

    static func lines(_ lines: String...) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }
    static func lines(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }

    /// Records each ended by a blank line, as export writes them.
    static func split(_ bytes: [UInt8]) -> Set<[UInt8]> {
        var records: Set<[UInt8]> = [], current: [UInt8] = []
        var previous: UInt8 = 0x0A
        for byte in bytes {
            current.append(byte)
            if byte == 0x0A && previous == 0x0A { records.insert(current); current = [] }
            previous = byte
        }
        if !current.isEmpty { records.insert(current) }
        return records
    }

    static func listed(_ json: [UInt8]) throws -> Set<[String]> {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]])
        return Set(array.map { item in
            ["protocol", "host", "port", "path", "username", "password_expiry_utc"].map { key in
                item[key].map { $0 is NSNull ? "null" : "\($0)" } ?? "missing"
            }
        })
    }

    func importing(_ file: String, phrase: String, into helper: SQLiteHelper? = nil) throws -> ProcessResult {
        try sandbox.run(BuiltProducts.sqliteHelper, (helper ?? sandbox.sqlite()).options + ["import", "--file-passphrase-fd", "3", file],
                        inputFiles: [3: try sandbox.file("phrase-\(UUID().uuidString)", phrase + "\n")])
    }
}
