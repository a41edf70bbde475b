import Foundation
import Testing

/// A store's data key changing under it (init --passphrase, passwd), and the key files a
/// conversion must keep (issue 10, items 3 and 4, second round).
@Suite struct StoreRekeyTests: InSQLiteWorld {
    let world: SQLiteWorld

    static let credential = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=example.com")
    static let another = wire("protocol=https", "host=new.example", "username=bob", "password=bob-secret")

    var storeFiles: StoreFiles { StoreFiles(sandbox: sandbox, database: sandbox.database) }

    func passphraseFile(_ passphrase: String) throws -> String {
        try sandbox.file("secrets/\(UUID().uuidString)", passphrase + "\n")
    }

    /// A passphrase store holding alice's credential.
    func passphraseStore(_ passphrase: String) throws -> String {
        let file = try passphraseFile(passphrase)
        let result = try helper.with(passphraseFile: file).initPassphrase()
        #expect(result.exitCode == 0, "init: \(result)")
        try helper.with(passphraseFile: file).storeAll(Self.credential)
        return file
    }

    func passwd(from old: String, to new: String) throws -> ProcessResult {
        var passwd = helper
        passwd.inputFiles = [3: old, 4: new]
        return try passwd.run(["passwd", "--passphrase-fd", "3", "--new-passphrase-fd", "4", "--scrypt-cost", "10"])
    }

    /// `init --passphrase` on `store`, the passphrase on fd 3.
    func convert(_ store: SQLiteHelper) throws -> ProcessResult {
        try store.with(passphraseFile: try passphraseFile("converted to a passphrase")).initPassphrase()
    }

    func waitFor(_ path: String, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !fileExists(path) && Date() < deadline { usleep(20_000) }
        return fileExists(path)
    }

    // MARK: A write racing with a re-key (item 1)

    /// Runs `action` on a passphrase store ("the old phrase") through an askpass that blocks
    /// until passwd has given the store a new data key ("the new phrase"), then answers
    /// `answer`: the helper read the settings before the re-key and asks after it.
    func racingPasswd(answering answer: String, _ action: @escaping @Sendable (SQLiteHelper) throws -> ProcessResult)
        throws -> (ended: ProcessResult, newFile: String)
    {
        let oldFile = try passphraseStore("the old phrase")
        let gate = sandbox.root + "/gate"
        let askpass = try sandbox.file("bin/askpass", """
            #!/bin/sh
            : > '\(gate).asked'
            while [ ! -e '\(gate).go' ]; do sleep 0.02; done
            printf '%s\\n' '\(answer)'

            """, mode: 0o700)
        nonisolated(unsafe) let racing = helper.with(environment: ["GIT_ASKPASS": askpass])
        nonisolated(unsafe) var result: ProcessResult?
        let done = DispatchSemaphore(value: 0)
        Thread {
            result = try? action(racing)
            done.signal()
        }.start()
        let asked = waitFor(gate + ".asked")
        let newFile = try passphraseFile("the new phrase")
        let passwd = try passwd(from: oldFile, to: newFile)
        _ = try sandbox.file("gate.go", "")
        done.wait()
        try #require(asked, "the helper never asked for its passphrase")
        #expect(passwd.exitCode == 0, "passwd: \(passwd)")
        return (try #require(result), newFile)
    }

    /// The attacker's race made deterministic: the helper opens the store and reads its
    /// settings, then waits for its passphrase (an askpass that blocks) while passwd gives
    /// the store a new data key; then it is given the old passphrase, which opens the old
    /// settings it read. It must write nothing with that key, and read nothing with it
    /// (not even an error about damage).
    @Test(arguments: ["store", "erase", "get", "list"])
    func anActionOpenedBeforeARekeyDoesNothingWithTheOldKey(action: String) throws {
        let (ended, newFile) = try racingPasswd(answering: "the old phrase") { racing in
            switch action {
            case "store": try racing.store(Self.another)
            case "erase": try racing.erase(Self.lookup)
            case "get": try racing.get(Self.lookup)
            default: try racing.list()
            }
        }
        if action == "get" {
            // A get may miss; it never reports damage.
            #expect(ended.exitCode == 0 && ended.stdout.isEmpty && ended.stderr.isEmpty, "\(ended)")
        } else {
            expectOneLineFailure(ended, exitCode: 1, mentioning: ["re-keyed by another process meanwhile", "Fix: run the command again"])
            #expect(!ended.stderrText.contains("fails authentication"), "\(ended)")
        }
        // Every record opens with the new key; nothing was added or removed.
        let list = try helper.with(passphraseFile: newFile).list()
        expectSuccess(list)
        #expect(list.stdoutText.contains("example.com") && !list.stdoutText.contains("new.example"), "\(list)")
        #expect(try helper.with(passphraseFile: newFile).password(for: Self.lookup) == "alice-secret")
        #expect(try storeFiles.rowCount() == 1)
    }

    /// The same race, the helper then given the NEW passphrase: the key it finds does not
    /// fit the settings it read, which have changed meanwhile, so it opens the store
    /// again and answers (it used to say "wrong passphrase").
    @Test func aGetOpenedBeforePasswdAndGivenTheNewPassphraseOpensTheStoreAgain() throws {
        let (ended, _) = try racingPasswd(answering: "the new phrase") { try $0.get(Self.lookup) }
        expectSuccess(ended)
        #expect(ended.attributes["password"] == "alice-secret", "\(ended)")
    }

    /// unlock asked for the passphrase while passwd re-keyed the store: the key it derives
    /// is retired, so it says so and caches nothing (it used to report "unlocked" and
    /// leave the old data key in the kernel keyring).
    @Test func anUnlockRacingPasswdCachesNothing() throws {
        let (ended, _) = try racingPasswd(answering: "the old phrase") { try $0.run($0.options + ["unlock", "--timeout", "60"]) }
        expectOneLineFailure(ended, exitCode: 1, mentioning: ["re-keyed by another process while its passphrase was asked", "Fix: run unlock again"])
        let locked = try helper.get(Self.lookup)
        #expect(locked.exitCode == 0 && locked.stdout.isEmpty, "the store answers without its passphrase: \(locked)")
    }

    // MARK: passwd re-keys (item 2)

    /// The attacker's repro: the settings of before passwd put back into the current file
    /// open it with the old passphrase, but nothing stored since (nor before) opens.
    @Test func theOldSettingsAndTheOldPassphraseOpenNothingAfterPasswd() throws {
        let oldFile = try passphraseStore("the old phrase")
        let oldMeta = try storeFiles.query("SELECT name, hex(value) FROM meta")
        let oldCheck = try storeFiles.query("SELECT hex(value) FROM meta WHERE name = 'key_check'")
        let newFile = try passphraseFile("the new phrase")
        let result = try passwd(from: oldFile, to: newFile)
        #expect(result.exitCode == 0 && result.stderrLines.count == 1 && result.stderrText.contains("new key"), "\(result)")
        #expect(try storeFiles.query("SELECT hex(value) FROM meta WHERE name = 'key_check'") != oldCheck, "the data key did not change")
        try helper.with(passphraseFile: newFile).storeAll(Self.another)

        let restore = oldMeta.map { line -> String in
            let parts = line.split(separator: "|", maxSplits: 1)
            return "INSERT INTO meta VALUES ('\(parts[0])', X'\(parts[1])');"
        }.joined()
        _ = try storeFiles.query("DELETE FROM meta; " + restore)
        let old = helper.with(passphraseFile: oldFile)
        for request in [Self.lookup, wire("protocol=https", "host=new.example")] {
            let get = try old.get(request)
            #expect(get.stdout.isEmpty && !get.stderrText.contains("secret"), "\(get)")
        }
        let export = try old.list()
        #expect(!export.stdoutText.contains("new.example") && !export.stdoutText.contains("example.com"), "\(export)")
    }

    // MARK: Key files another store needs (item 3)

    /// Ways a second store on the same key file can be named that no reading of git's
    /// configuration finds from where init runs.
    enum Naming: String, CaseIterable, Sendable {
        case includeIf, shellFunction, environmentOnly
    }

    @Test(arguments: Naming.allCases)
    func aConversionKeepsAKeyFileAStoreNamedElsewhereStillUses(naming: Naming) throws {
        let otherDatabase = sandbox.root + "/other/other.db"
        let other: SQLiteHelper
        switch naming {
        case .includeIf:
            let included = try sandbox.file("work.inc", "[credential]\n\thelper = sqlite --db '\(otherDatabase)'\n")
            expectSuccess(try sandbox.git(["config", "--global", "includeIf.gitdir:~/work/.path", included]))
            other = sandbox.sqlite(["--db", otherDatabase])
        case .shellFunction:
            expectSuccess(try sandbox.git(["config", "--global", "credential.helper",
                                           "!f() { git-credential-sqlite --db '\(otherDatabase)' \"$@\"; }; f"]))
            other = sandbox.sqlite(["--db", otherDatabase])
        case .environmentOnly:
            other = sandbox.sqlite().with(environment: ["GIT_CREDENTIAL_SQLITE_DB": otherDatabase])
        }
        try other.storeAll(Self.another)
        try helper.storeAll(Self.credential)
        let keyBefore = try #require(contents(of: sandbox.keyFile))

        // Named: a management command refuses to guess past a line it cannot read.
        let result = try convert(sandbox.sqlite(["--db", sandbox.database]))
        #expect(result.exitCode == 0 && result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrText.contains("was kept, because \(otherDatabase) still uses it"), "\(result)")
        #expect(contents(of: sandbox.keyFile) == keyBefore, "the key file another store needs was wiped")
        #expect(try other.password(for: wire("protocol=https", "host=new.example")) == "bob-secret")

        // Once that store is converted too, no store needs the key file: it is wiped.
        let last = try convert(other)
        #expect(last.exitCode == 0 && last.stderrText.contains("was wiped"), "\(last)")
        #expect(!fileExists(sandbox.keyFile) && !fileExists(sandbox.keyFile + ".stores"))
    }

    /// A new store made on the key file while another store's conversion decides whether
    /// to wipe it (both held at the list's lock, then let go together): either the new
    /// store is listed in time and the key file kept, or it is told the key was wiped and
    /// nothing is bound to that key; never a store sealed with a wiped key.
    @Test func aStoreMadeWhileAConversionRunsIsNeverLeftWithAWipedKey() throws {
        try helper.storeAll(Self.credential)
        let otherDatabase = sandbox.root + "/other/other.db"
        nonisolated(unsafe) let other = sandbox.sqlite(["--db", otherDatabase])
        let lock = open(sandbox.keyFile + ".stores", O_RDWR | O_CREAT, 0o600)
        try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
        nonisolated(unsafe) var stored: ProcessResult?, converted: ProcessResult?
        let done = DispatchSemaphore(value: 0)
        Thread { stored = try? other.store(Self.another); done.signal() }.start()
        usleep(300_000)
        nonisolated(unsafe) let converting = self
        Thread { converted = try? converting.convert(converting.helper); done.signal() }.start()
        usleep(300_000)
        close(lock)
        done.wait()
        done.wait()
        let (store, conversion) = (try #require(stored), try #require(converted))
        #expect(conversion.exitCode == 0 && conversion.stderrLines.count == 1, "\(conversion)")
        if store.exitCode == 0 {
            #expect(conversion.stderrText.contains("was kept, because \(otherDatabase) still uses it"), "\(conversion)")
        } else {
            expectOneLineFailure(store, exitCode: 1, mentioning: ["was wiped or replaced meanwhile", "run the command again"])
            #expect(conversion.stderrText.contains("was wiped"), "\(conversion)")
            try other.storeAll(Self.another)  // as the fix says
        }
        #expect(try other.password(for: wire("protocol=https", "host=new.example")) == "bob-secret")
    }

    /// A key file of the previous release (no list of its stores): a store of that release
    /// never written since may need it, so it is kept, and the user told how to remove it.
    @Test func aConversionKeepsAKeyFileOlderThanItsList() throws {
        try helper.storeAll(Self.credential)
        #expect(unlink(sandbox.keyFile + ".stores") == 0)
        let keyBefore = try #require(contents(of: sandbox.keyFile))
        let result = try convert(helper)
        #expect(result.exitCode == 0 && result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrText.contains("was kept, because it predates the list") && result.stderrText.contains("shred -u \(sandbox.keyFile)"),
                "\(result)")
        #expect(contents(of: sandbox.keyFile) == keyBefore)

        // The same when a store wrote through it since: the list started then is partial.
        let other = sandbox.sqlite(["--db", sandbox.root + "/other/other.db"])
        try other.storeAll(Self.another)
        let again = try convert(other)
        #expect(again.stderrText.contains("was kept, because it predates the list"), "\(again)")
        #expect(contents(of: sandbox.keyFile) == keyBefore)
    }

    /// A store listed beside the key file that cannot be found now (an unmounted volume, a
    /// file moved away) keeps the key file, named in the message: back in place, it opens.
    /// One that no longer opens with the key (converted itself) does not keep it.
    @Test func aListedStoreNotFoundNowKeepsTheKeyFileAndOneConvertedDoesNot() throws {
        let otherDatabase = sandbox.root + "/other/other.db"
        let other = sandbox.sqlite(["--db", otherDatabase])
        try other.storeAll(Self.another)
        try helper.storeAll(Self.credential)
        #expect(rename(otherDatabase, otherDatabase + ".away") == 0)
        let result = try convert(helper)
        #expect(result.exitCode == 0 && result.stderrText.contains("was kept, because \(otherDatabase), listed as using it but not found now"), "\(result)")
        #expect(rename(otherDatabase + ".away", otherDatabase) == 0)
        let back = try other.get(wire("protocol=https", "host=new.example"))
        #expect(back.exitCode == 0 && back.attributes["password"] != nil, "the store that came back does not open: \(back)")
        let last = try convert(other)
        #expect(last.exitCode == 0 && last.stderrText.contains("was wiped"), "\(last)")
        #expect(!fileExists(sandbox.keyFile))
    }

    /// A store path holding a line break is one entry of the list, not two other paths:
    /// the key file is kept for it.
    @Test func aStorePathWithALineBreakIsListedWhole() throws {
        let odd = sandbox.root + "/w\nend"
        #expect(mkdir(odd, 0o700) == 0)
        let oddStore = sandbox.sqlite(["--db", odd + "/odd.db"])
        try oddStore.storeAll(Self.another)
        try helper.storeAll(Self.credential)
        let result = try convert(helper)
        #expect(result.exitCode == 0 && result.stderrText.contains("was kept"), "\(result)")
        let found = try oddStore.get(wire("protocol=https", "host=new.example"))
        #expect(found.exitCode == 0 && found.attributes["password"] != nil, "\(found)")
    }

    /// The list gets the rule of every file of the store: a FIFO, a symlink or a file
    /// others can write in its place is refused in one line, without waiting, and nothing
    /// is stored.
    @Test(arguments: ["fifo", "symlink", "writable"])
    func aListOfStoresNotOursIsRefused(kind: String) throws {
        try helper.storeAll(Self.credential)
        let list = sandbox.keyFile + ".stores"
        #expect(unlink(list) == 0)
        switch kind {
        case "fifo": #expect(mkfifo(list, 0o600) == 0)
        case "symlink": #expect(symlink(sandbox.root + "/elsewhere", list) == 0)
        default:
            _ = try sandbox.file("config/git-credential-sqlite/key.stores", "", mode: 0o666)
            #expect(chmod(list, 0o666) == 0)
        }
        let result = try helper.store(Self.another)
        expectOneLineFailure(result, exitCode: 1, mentioning: [list])
        #expect(try helper.password(for: wire("protocol=https", "host=new.example")) == nil)
        #expect(!fileExists(sandbox.root + "/elsewhere"))
    }
}
