import Foundation
import Testing

/// A passphrase is one line (issue 26, new user's F3): `printf 'p\np\n' | ... --passphrase-fd 0`,
/// meant as "asked twice", made "p\np" the passphrase, which no terminal or askpass can
/// type again, and the store was lost. Every place a NEW passphrase is read from a
/// descriptor or askpass (init, passwd's new one, export) refuses it in one line with a
/// Fix, and creates or changes nothing. One that opens what exists (unlock, passwd's
/// current one, import) is taken as it comes, so what an earlier release made with such a
/// passphrase still opens; for these stores it is a wrong passphrase, said as such.
@Suite struct PassphraseOneLineTests {
    let sandbox: Sandbox
    init() throws { sandbox = try Sandbox() }

    var database: String { sandbox.root + "/store/credentials.db" }
    var store: SQLiteHelper { sandbox.sqlite(["--db", database]) }
    static let twoLines = "secret one\nsecret one\n"
    static let refusal = "holds more than one line, which no terminal or askpass could type again. Fix: give the passphrase once, on one line"

    func phraseFile(_ text: String) throws -> String { try sandbox.file("phrases/\(UUID().uuidString)", text) }

    /// A store protected by "secret one", holding one credential; its bytes.
    func passphraseStore() throws -> [UInt8] {
        let phrase = try phraseFile("secret one\n")
        let created = try store.with(passphraseFile: phrase).initPassphrase()
        #expect(created.exitCode == 0, "\(created)")
        try store.with(passphraseFile: phrase).storeAll(wire("protocol=https", "host=a.example", "username=alice", "password=pa"))
        return try #require(contents(of: database))
    }

    @Test func initRefusesAPassphraseOfTwoLines() throws {
        let result = try store.with(passphraseFile: try phraseFile(Self.twoLines)).initPassphrase()
        expectOneLineFailure(result, exitCode: 2, mentioning: ["passphrase on file descriptor 3 (--passphrase-fd) " + Self.refusal])
        #expect(!fileExists(database))
    }

    @Test func initRefusesAnAskpassAnswerOfTwoLines() throws {
        let askpass = try sandbox.ownDirectory() + "/askpass-two-lines"
        try ChildProcess.writeFile(askpass, Array("#!/bin/sh\nprintf 'secret one\\nsecret one\\n'\n".utf8), mode: 0o700)
        let result = try store.with(environment: ["GIT_ASKPASS": askpass]).initPassphrase()
        expectOneLineFailure(result, exitCode: 2, mentioning: ["the askpass program's answer holds more than one line",
                                                               "Fix: make GIT_ASKPASS / SSH_ASKPASS print the passphrase on one line"])
        #expect(!fileExists(database))
    }

    @Test func unlockAndPasswdRefuseAPassphraseOfTwoLinesAndChangeNothing() throws {
        let before = try passphraseStore()
        let unlock = try store.with(passphraseFile: try phraseFile(Self.twoLines)).run(store.options + ["unlock", "--passphrase-fd", "3"])
        expectOneLineFailure(unlock, exitCode: 1, mentioning: ["wrong passphrase for \(database)"])

        var passwd = store
        passwd.inputFiles = [3: try phraseFile("secret one\n"), 4: try phraseFile(Self.twoLines)]
        let changed = try passwd.run(store.options + ["passwd", "--passphrase-fd", "3", "--new-passphrase-fd", "4"] + SQLiteHelper.lowScryptCost)
        expectOneLineFailure(changed, exitCode: 2, mentioning: ["passphrase on file descriptor 4 (--new-passphrase-fd) " + Self.refusal])
        #expect(contents(of: database) == before, "the store changed")
        #expect(try store.with(passphraseFile: try phraseFile("secret one\n")).password(for: wire("protocol=https", "host=a.example")) == "pa")
    }

    @Test func exportAndImportRefuseAFilePassphraseOfTwoLines() throws {
        let before = try passphraseStore()
        let unlocked = store.with(passphraseFile: try phraseFile("secret one\n"))
        let file = sandbox.root + "/backup.gitcred"
        var exporting = unlocked
        exporting.inputFiles[4] = try phraseFile(Self.twoLines)
        let refused = try exporting.run(unlocked.options + ["export", "-o", file, "--file-passphrase-fd", "4"] + SQLiteHelper.lowScryptCost)
        expectOneLineFailure(refused, exitCode: 2, mentioning: ["passphrase on file descriptor 4 (--file-passphrase-fd) " + Self.refusal])
        #expect(!fileExists(file))

        exporting.inputFiles[4] = try phraseFile("file phrase\n")
        let exported = try exporting.run(unlocked.options + ["export", "-o", file, "--file-passphrase-fd", "4"] + SQLiteHelper.lowScryptCost)
        #expect(exported.exitCode == 0, "\(exported)")
        let elsewhere = sandbox.root + "/other/credentials.db"
        let imported = try sandbox.run(BuiltProducts.sqliteHelper, ["--db", elsewhere, "import", "--file-passphrase-fd", "3", file],
                                       inputFiles: [3: try phraseFile("file phrase\nfile phrase\n")])
        expectOneLineFailure(imported, exitCode: 2, mentioning: ["wrong passphrase for \(file)"])
        #expect(!fileExists(elsewhere))
        #expect(contents(of: database) == before, "the store changed")
    }
}
