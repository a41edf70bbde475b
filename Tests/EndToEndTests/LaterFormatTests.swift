import CredentialCore
import Foundation
import Testing

/// A store, key file, wrapped key or export of a format later than this release reads:
/// refused in one line that names the version found and those read, with a newer release
/// as the fix; nothing changed or half-written. git's get treats it as any store it cannot read.
extension FormatFixtureTests {
    static let newerRelease = "Fix: use a newer release of the git credential helpers, which reads it; this one changed nothing"

    static func refusal(_ place: String, _ format: String, _ found: Int, reads: String) -> String {
        "git-credential-sqlite: \(place) has \(format) format \(found), and this release (\(Version.number)) reads \(format) \(reads). \(newerRelease)\n"
    }

    /// Every command that opens the store, each refused with exactly `line`.
    func expectEveryCommandRefused(_ helper: SQLiteHelper, with line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plain = try sandbox.file("plain-\(UUID().uuidString)", "https://zed:zed-pw@new.example\n")
        let results: [(String, ProcessResult)] = [
            ("get", try helper.get(wire("protocol=https", "host=example.com"))),
            ("store", try helper.store(wire("protocol=https", "host=new.example", "username=zed", "password=zed-pw"))),
            ("erase", try helper.erase(wire("protocol=https", "host=example.com", "username=alice"))),
            ("list", try helper.list()),
            ("export", try helper("export", "--plaintext")),
            ("import", try helper("import", plain)),
            ("erase-all", try helper("erase-all", "--yes")),
        ]
        for (command, result) in results {
            #expect(result.exitCode == 1 && result.stdout.isEmpty && result.stderrText == line,
                    "\(command): \(result)", sourceLocation: sourceLocation)
        }
        #expect(contents(of: plain) == Array("https://zed:zed-pw@new.example\n".utf8), sourceLocation: sourceLocation)
    }

    @Test func aStoreOfALaterFormatIsRefusedAndLeftAsItIs() throws {
        var copied = try copyKeyFileStore()
        _ = try StoreFiles(sandbox: sandbox, database: sandbox.database).query("PRAGMA user_version = 3")
        copied[sandbox.database] = contents(of: sandbox.database)
        let line = Self.refusal(sandbox.database, "store", 3, reads: "formats 1 and 2")
        try expectEveryCommandRefused(sandbox.sqlite(), with: line)
        let phrase = try sandbox.file("phrase", "a new passphrase for it\n")
        let convert = try sandbox.sqlite().with(passphraseFile: phrase)("init", "--passphrase", "--scrypt-cost", "15")
        #expect(convert.exitCode == 1 && convert.stderrText == line, "\(convert)")
        try expectUnchanged(copied)
    }

    @Test func aKeyFileOfALaterFormatIsRefusedAndLeftAsItIs() throws {
        var copied = try copyKeyFileStore()
        try ChildProcess.writeFile(sandbox.keyFile, Array("git-credential-sqlite key v2\nwhatever v2 holds\n".utf8), mode: 0o600)
        copied[sandbox.keyFile] = contents(of: sandbox.keyFile)
        let line = Self.refusal(sandbox.keyFile, "key file", 2, reads: "format 1")
        try expectEveryCommandRefused(sandbox.sqlite(), with: line)
        try expectUnchanged(copied)

        // A new store beside it: no database is made when its key file is refused.
        let other = sandbox.root + "/other/credentials.db"
        let store = try sandbox.sqlite(["--db", other]).store(wire("protocol=https", "host=a.example", "username=u", "password=p"))
        #expect(store.exitCode == 1 && store.stderrText == line, "\(store)")
        #expect(!fileExists(other), "a half-made store was left at \(other)")
    }

    @Test func aWrappedKeyOfALaterFormatIsRefusedBeforeAnyPassphrase() throws {
        var copied = try copy("sqlite-2-passphrase/credentials.db", to: sandbox.database)
        _ = try StoreFiles(sandbox: sandbox, database: sandbox.database)
            .query("UPDATE meta SET value = CAST('GCSP2' AS BLOB) || substr(value, 6) WHERE name = 'passphrase_wrap'")
        copied[sandbox.database] = contents(of: sandbox.database)
        let line = Self.refusal(sandbox.database, "wrapped key", 2, reads: "format 1")
        // No one to ask (no terminal, no askpass, no descriptor): the format is told, not "locked".
        try expectEveryCommandRefused(sandbox.sqlite(), with: line)
        let withPhrase = sandbox.sqlite().with(passphraseFile: try sandbox.file("phrase", Self.phrase + "\n"))
        try expectEveryCommandRefused(withPhrase, with: line)
        for (helper, arguments) in [(sandbox.sqlite(), ["unlock"]), (withPhrase, ["unlock"]), (withPhrase, ["passwd"])] {
            let result = try helper.run(helper.options + arguments)
            #expect(result.exitCode == 1 && result.stderrText == line, "\(arguments): \(result)")
        }
        try expectUnchanged(copied)
    }

    @Test func anExportOfALaterFormatIsRefusedBeforeAnyPassphrase() throws {
        let file = try sandbox.file("later.gitcred", Array("git-credential-helpers export 3\n".utf8) + [UInt8](repeating: 7, count: 200))
        let result = try sandbox.run(BuiltProducts.sqliteHelper, ["import", file])
        #expect(result.exitCode == 1 && result.stderrText == Self.refusal(file, "export", 3, reads: "formats 1 and 2"), "\(result)")
        #expect(!fileExists(sandbox.database))
    }

    /// git's get on a store of a later format, and on a damaged one: the helper's line,
    /// then git goes on as it does for any helper that cannot answer.
    @Test func gitTreatsALaterStoreAsAnyStoreItCannotRead() throws {
        _ = try copyKeyFileStore()
        let git = GitCredential(sandbox: sandbox, helper: BuiltProducts.sqliteHelper)
        let request = wire("protocol=https", "host=example.com")
        #expect(try git.filledPassword("protocol=https", "host=example.com") == "bob-pw")

        var damaged = try #require(contents(of: sandbox.database))
        let intact = damaged
        damaged.replaceSubrange(0..<16, with: [UInt8](repeating: 0, count: 16))
        try ChildProcess.writeFile(sandbox.database, damaged, mode: 0o600)
        let onDamaged = try git.run("fill", request)
        try ChildProcess.writeFile(sandbox.database, intact, mode: 0o600)
        _ = try StoreFiles(sandbox: sandbox, database: sandbox.database).query("PRAGMA user_version = 3")
        let onLater = try git.run("fill", request)

        #expect(onLater.stderrLines.first == String(Self.refusal(sandbox.database, "store", 3, reads: "formats 1 and 2").dropLast()), "\(onLater)")
        #expect(onDamaged.stderrLines.first?.contains("is not a git-credential-sqlite store") == true, "\(onDamaged)")
        #expect(onLater.exitCode == onDamaged.exitCode && onLater.exitCode != 0, "\(onLater) \(onDamaged)")
        #expect(onLater.stdout == onDamaged.stdout && Array(onLater.stderrLines.dropFirst()) == Array(onDamaged.stderrLines.dropFirst()),
                "\(onLater) \(onDamaged)")
    }
}
