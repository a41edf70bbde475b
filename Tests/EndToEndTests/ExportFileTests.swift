import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Export files that are not what export wrote: damaged, truncated, altered, hostile, or of
/// the first format. Each says what is wrong in one line, costs little to refuse, and
/// imports nothing.
@Suite struct ExportFileTests: InSQLiteWorld {
    /// `helper`'s is the store imports go to; exports come from `exporter`'s.
    let world: SQLiteWorld
    var exporter: SQLiteHelper { Sandbox.sqliteElsewhere(sandbox) }

    static let phrase = "export phrase"
    static let versionLine = Array("git-credential-helpers export 2\n".utf8)

    /// An export of two credentials, sealed with `phrase`; its path.
    func export() throws -> String {
        try exporter.storeAll(wire("protocol=https", "host=a.example", "username=alice", "password=alice-secret"),
                              wire("protocol=https", "host=b.example", "username=bob", "password=bob-secret"))
        let file = sandbox.root + "/backup.gitcred"
        let exported = try sandbox.run(BuiltProducts.sqliteHelper, exporter.options + ["export", "-o", file, "--file-passphrase-fd", "3",
                                                                                      "--scrypt-cost", "10"],
                                       inputFiles: [3: try sandbox.file("export-phrase", Self.phrase + "\n")])
        #expect(exported.exitCode == 0, "\(exported)")
        return file
    }

    /// `import FILE`, the passphrase on descriptor 3 unless `phrase` is nil (then no one
    /// can be asked: no terminal, no askpass).
    func importing(_ file: String, phrase: String? = Self.phrase, wrappedIn wrapper: [String] = []) throws -> ProcessResult {
        var inputFiles: [Int32: String] = [:]
        var arguments = ["import", file]
        if let phrase {
            inputFiles[3] = try sandbox.file("phrase-\(UUID().uuidString)", phrase + "\n")
            arguments += ["--file-passphrase-fd", "3"]
        }
        let command = wrapper.isEmpty ? BuiltProducts.sqliteHelper : wrapper[0]
        return try sandbox.run(command, Array(wrapper.dropFirst()) + (wrapper.isEmpty ? [] : [BuiltProducts.sqliteHelper]) + arguments,
                               inputFiles: inputFiles)
    }

    func variant(_ name: String, of bytes: [UInt8], _ change: (inout [UInt8]) -> Void) throws -> String {
        var copy = bytes
        change(&copy)
        return try sandbox.file(name, copy)
    }

    @Test func aNewExportIsFormat2AndComesBack() throws {
        let file = try export()
        #expect(contents(of: file)?.starts(with: Self.versionLine) == true)
        let imported = try importing(file)
        #expect(imported.exitCode == 0 && imported.stderrText == "read 2 credentials from \(file): 2 new, 0 replaced, 0 unchanged\n", "\(imported)")
        #expect(try helper.password(for: wire("protocol=https", "host=b.example")) == "bob-secret")
    }

    /// A wrong passphrase, a truncated file, a flipped byte in the header and one in the
    /// payload: four messages, each saying which; and nothing imported.
    @Test func eachDamageHasItsOwnMessage() throws {
        let original = try #require(contents(of: try export()))
        let truncated = try variant("truncated", of: original) { $0.removeLast(7) }
        let header = try variant("header", of: original) { $0[Self.versionLine.count + 5] ^= 0x01 }
        let payload = try variant("payload", of: original) { $0[$0.count - 20] ^= 0x01 }
        let intact = try sandbox.file("intact", original)

        let results = [
            (try importing(truncated), 1, ["\(truncated) is damaged: it is truncated: it holds"]),
            (try importing(header), 1, ["\(header) is damaged: its header is damaged"]),
            (try importing(payload), 1, ["\(payload) is damaged: the passphrase is right, but its contents do not authenticate"]),
            (try importing(intact, phrase: "not the phrase"), 2, ["wrong passphrase for \(intact). Fix:"]),
        ]
        for (result, code, phrases) in results {
            expectOneLineFailure(result, exitCode: Int32(code), mentioning: phrases)
        }
        #expect(Set(results.map { $0.0.stderrText.replacingOccurrences(of: sandbox.root, with: "") }).count == 4)
        #expect(!results[3].0.stderrText.contains("damaged"), "a wrong passphrase is not damage")
        // What the structure tells is told before anyone is asked for a passphrase.
        expectOneLineFailure(try importing(truncated, phrase: nil), exitCode: 1, mentioning: ["truncated"])
        expectOneLineFailure(try importing(header, phrase: nil), exitCode: 1, mentioning: ["header is damaged"])
        #expect(!fileExists(sandbox.database), "a damaged import stored something")
    }

    /// One damaged file among several: nothing is imported, and no plaintext file is removed.
    @Test func aDamagedFileImportsNothingAtAll() throws {
        let original = try #require(contents(of: try export()))
        let payload = try variant("payload", of: original) { $0[$0.count - 20] ^= 0x01 }
        let plain = try sandbox.file("plain", "https://carol:carol-secret@c.example\n")
        let result = try sandbox.run(BuiltProducts.sqliteHelper, ["import", "--remove-source", "--file-passphrase-fd", "3", plain, payload],
                                     inputFiles: [3: try sandbox.file("phrase", Self.phrase + "\n")])
        expectOneLineFailure(result, exitCode: 1, mentioning: ["\(payload) is damaged"])
        #expect(!fileExists(sandbox.database))
        #expect(contents(of: plain) == Array("https://carol:carol-secret@c.example\n".utf8))
    }

    /// Files exported before format 2 still import; a wrong passphrase there cannot be
    /// told from damage, and the message says so.
    @Test func aFormat1ExportStillImports() throws {
        let file = try sandbox.file("format-1.gitcred", try #require(contents(of: SourceTree.root + "/Tests/Fixtures/exports/format-1.gitcred")))
        let wrong = try importing(file, phrase: "not the phrase")
        expectOneLineFailure(wrong, exitCode: 2, mentioning: ["wrong passphrase for \(file), or the file is damaged"])
        #expect(!fileExists(sandbox.database))
        let imported = try importing(file, phrase: "format one phrase")
        #expect(imported.exitCode == 0 && imported.stderrText == "read 2 credentials from \(file): 2 new, 0 replaced, 0 unchanged\n", "\(imported)")
        #expect(try helper.password(for: wire("protocol=https", "host=v1.example", "path=team/repo.git")) == "v1-other")
    }

    struct Hostile: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let format: Int
        let cost: Int, blockSize: Int, parallelism: Int
    }

    /// What scrypt parameters a file may ask for: at most twice what export writes. Before,
    /// the format 1 file of 896 MiB took 11 s and 930 MB to say "wrong passphrase".
    static let hostile = [
        Hostile(testDescription: "format 2, log2 N 30", format: 2, cost: 30, blockSize: 8, parallelism: 1),
        Hostile(testDescription: "format 2, r 255", format: 2, cost: 17, blockSize: 255, parallelism: 1),
        Hostile(testDescription: "format 2, p 255", format: 2, cost: 17, blockSize: 8, parallelism: 255),
        Hostile(testDescription: "format 2, N 2^19", format: 2, cost: 19, blockSize: 8, parallelism: 1),
        Hostile(testDescription: "format 2, N 2^17 with r 1 (beyond scrypt's N < 2^(16 r))", format: 2, cost: 17, blockSize: 1, parallelism: 1),
        Hostile(testDescription: "format 1, 896 MiB", format: 1, cost: 20, blockSize: 7, parallelism: 1),
        Hostile(testDescription: "format 1, p 255", format: 1, cost: 16, blockSize: 8, parallelism: 255),
    ]

    /// A file with a well-formed header (its checksum right) that asks for too much: the
    /// refusal is one line, at once, in little memory.
    @Test(arguments: hostile)
    func hostileScryptParametersAreRefusedAtOnce(_ hostile: Hostile) throws {
        let file = sandbox.root + "/hostile.gitcred"
        let crafted = try sandbox.run("/usr/bin/python3", ["-c", """
            import hashlib, sys
            path, form, n, r, p = sys.argv[1], *map(int, sys.argv[2:])
            if form == 2:
                line = b"git-credential-helpers export 2\\n"
                fields = bytes([n, r, p]) + bytes(32) + (100).to_bytes(8, "big")
                data = line + fields + hashlib.sha256(line + fields).digest()[:16] + bytes(100)
            else:
                data = b"git-credential-helpers export 1\\nGCSP1" + bytes([n, r, p]) + bytes(16) + bytes(100)
            open(path, "wb").write(data)
            """, file, String(hostile.format), String(hostile.cost), String(hostile.blockSize), String(hostile.parallelism)])
        expectSuccess(crafted)
        let result = try importing(file, wrappedIn: ["/usr/bin/time", "-q", "-f", "%e %M"])
        let (seconds, kilobytes) = try Self.cost(of: result)
        var helperSaid = result
        helperSaid.stderr = Output(bytes: Array((result.stderrLines.dropLast().joined(separator: "\n") + "\n").utf8))
        expectOneLineFailure(helperSaid, exitCode: 1, mentioning: ["\(file) asks for more scrypt work than export ever writes"])
        #expect(seconds < 5 && kilobytes < 100_000, "refusing took \(seconds) s and \(kilobytes) KiB")
        #expect(!fileExists(sandbox.database))
    }

    /// A file far larger than any export (sparse: it costs no disk) is refused before it
    /// is read; so is a stream that goes on and on.
    @Test func aHugeFileIsRefusedBeforeItIsRead() throws {
        let file = try sandbox.file("huge.gitcred", Self.versionLine)
        #expect(truncate(file, 4 << 30) == 0)
        let result = try importing(file, wrappedIn: ["/usr/bin/time", "-q", "-f", "%e %M"])
        let (seconds, kilobytes) = try Self.cost(of: result)
        #expect(result.exitCode == 2 && result.stderrLines.first == "git-credential-sqlite: \(file) is larger than import reads (16 MiB). "
                    + "Fix: split it into smaller files, or check that it is the file you mean", "\(result)")
        #expect(seconds < 5 && kilobytes < 100_000, "refusing took \(seconds) s and \(kilobytes) KiB")

        let stream = try sandbox.run("/bin/sh", ["-c", #"head -c 200000000 /dev/zero | /usr/bin/time -q -f "%e %M" "$0" import /dev/stdin"#,
                                                 BuiltProducts.sqliteHelper])
        let (_, streamKilobytes) = try Self.cost(of: stream)
        #expect(stream.exitCode == 2 && stream.stderrLines.first?.contains("/dev/stdin is larger than import reads") == true, "\(stream)")
        #expect(streamKilobytes < 150_000, "reading the stream took \(streamKilobytes) KiB")
        #expect(!fileExists(sandbox.database))
    }

    @Test func exportRefusesACostImportWouldRefuse() throws {
        try exporter.storeAll(wire("protocol=https", "host=a.example", "username=alice", "password=alice-secret"))
        let file = sandbox.root + "/costly.gitcred"
        let result = try sandbox.run(BuiltProducts.sqliteHelper, exporter.options + ["export", "-o", file, "--file-passphrase-fd", "3",
                                                                                    "--scrypt-cost", "19"],
                                     inputFiles: [3: try sandbox.file("phrase", Self.phrase + "\n")])
        expectOneLineFailure(result, exitCode: 2, mentioning: ["--scrypt-cost 19 is more than import accepts (at most 18)"])
        #expect(!fileExists(file))
    }

    /// Elapsed seconds and peak memory (KiB) from the last line /usr/bin/time wrote.
    static func cost(of result: ProcessResult) throws -> (Double, Int) {
        let words = try #require(result.stderrLines.last?.split(separator: " "), "\(result)")
        return (try #require(Double(String(words.first ?? ""))), try #require(Int(String(words.last ?? ""))))
    }
}
