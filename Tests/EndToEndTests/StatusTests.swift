import Foundation
import Testing

/// `status` (issue 26, item 5): one line each for the store, its key (locked, until when)
/// and the helper git asks first; never a prompt, never a decryption.
@Suite struct StatusTests: InSQLiteWorld {
    let world: SQLiteWorld

    static let credential = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")

    func status(_ helper: SQLiteHelper, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let result = try helper("status")
        #expect(result.exitCode == 0 && result.stderr.isEmpty && !result.timedOut, "status: \(result)", sourceLocation: sourceLocation)
        return result.stdoutLines
    }

    @Test func aKeyFileStoreSaysItsFilesAndThatGitDoesNotAskIt() throws {
        #expect(try status(helper) == ["store: \(sandbox.database) (none yet: the first store creates it, with the key file \(sandbox.keyFile))",
                                       "git asks first: no helper (sqlite is not configured)"])
        try helper.storeAll(Self.credential)
        #expect(try status(helper) == ["store: \(sandbox.database)", "key: the key file \(sandbox.keyFile); never locked",
                                       "git asks first: no helper (sqlite is not configured)"])
    }

    @Test func aPassphraseStoreSaysLockedThenUnlockedUntilWhenWithoutAsking() throws {
        let file = try sandbox.file("secrets/passphrase", "correct horse\n")
        let unlocking = helper.with(passphraseFile: file)
        let made = try unlocking.initPassphrase()
        #expect(made.exitCode == 0, "init: \(made)")
        try unlocking.storeAll(Self.credential)
        _ = try helper("lock")

        // No passphrase descriptor and no terminal: a prompt would fail or hang, status does neither.
        let locked = try status(helper)
        // The unlock command names the store as configure would write it.
        #expect(locked.count == 3 && locked[1].hasPrefix("key: a passphrase; locked: git asks for it where it can ask you (git-credential-sqlite unlock --db \(sandbox.database) ")
                    && locked[1].hasSuffix(" --timeout 8h unlocks it)"), "\(locked)")
        // At a terminal, where get would ask for the passphrase, status asks nothing.
        let atTerminal = try sandbox.atTerminal(BuiltProducts.sqliteHelper, ["status"], answers: ["correct horse"], stderrOnTerminal: true)
        #expect(atTerminal.code == 0 && !atTerminal.terminal.contains("Passphrase") && atTerminal.stdout.contains("key: a passphrase; locked"),
                "\(atTerminal)")
        let unlock = try unlocking.run(["unlock", "--timeout", "3h", "--passphrase-fd", "3"])
        #expect(unlock.exitCode == 0, "unlock: \(unlock)")
        let unlocked = try status(helper)
        // The kernel rounds the time left down to its unit: 2h (or 3h) of the 3 hours.
        #expect(unlocked.count == 3 && unlocked[1].hasPrefix("key: a passphrase; unlocked in the kernel keyring for at least ")
                    && unlocked[1].contains("h more (until ") && unlocked[1].hasSuffix(" or a little later; lock locks it now)"),
                "\(unlocked)")
    }

    @Test func theHelperGitAsksFirstIsNamedWithItsScope() throws {
        for value in ["cache --timeout 300", ""] {
            let set = try sandbox.git(["config", "--global", "--add", "credential.helper", value])
            #expect(set.exitCode == 0, "git config: \(set)")
        }
        #expect(try status(helper).last == "git asks first: no helper (sqlite is not configured)", "a reset line stops cache")
        let configured = try helper("configure")
        #expect(configured.exitCode == 0, "configure: \(configured)")
        let ours = try #require(try sandbox.git(["config", "--global", "--get-all", "credential.helper"]).stdoutLines.last)
        // Written as Trace.quoted writes a value: in double quotes when it holds a space.
        #expect(try status(helper).last == "git asks first: \(ours.contains(" ") ? "\"\(ours)\"" : ours) (global configuration)")
        for arguments in [["--unset-all", "credential.helper"], ["--add", "credential.helper", "cache --timeout 300"], ["--add", "credential.helper", ours]] {
            let set = try sandbox.git(["config", "--global"] + arguments)
            #expect(set.exitCode == 0, "git config: \(set)")
        }
        #expect(try status(helper).last == "git asks first: \"cache --timeout 300\" (global configuration), then sqlite when it has no answer")
    }
}

/// git-credential-keyring's status: where new items go, then its SQLite store.
@Suite struct KeyringStatusTests: InKeyringWorld {
    let world: KeyringWorld

    @Test func itSaysTheKeyringTakesNewItemsAndNamesItsSQLiteStore() throws {
        let result = try keyringHelper("status")
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "status: \(result)")
        #expect(result.stdoutLines.first == "new items go to the desktop keyring: the Secret Service answers and its default keyring is unlocked", "\(result)")
        #expect(result.stdoutLines.dropFirst().first?.hasPrefix("store: \(sandbox.database)") == true, "\(result)")
    }

    @Test func theSecretServiceHelperSaysWhetherTheKeyringIsUsable() throws {
        let result = try secretService("status")
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "status: \(result)")
        #expect(result.stdoutLines == ["store: the desktop keyring (the Secret Service's default collection); the Secret Service answers and its default keyring is unlocked",
                                       "git asks first: no helper (secretservice is not configured)"], "\(result)")
    }
}

/// git-credential-pass's status: the entries' directory and the keys they are encrypted to.
@Suite struct PassStatusTests {
    @Test func itNamesTheStoreAndItsKeys() throws {
        let store = try PasswordStore()
        let result = try PassHelperProcess(store: store)("status")
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "status: \(result)")
        #expect(result.stdoutLines == ["store: \(store.storeDirectory)/git/",
                                       "key: the gpg keys in \(store.storeDirectory)/.gpg-id; gpg-agent asks for a passphrase when it needs one",
                                       "git asks first: no helper (pass is not configured)"], "\(result)")
    }
}
