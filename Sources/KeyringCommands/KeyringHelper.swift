import ArgumentParser
import CredentialCore
import HelperCommand
import KeyringStore
import SQLiteCommands
import SecretServiceStore
import TransferCommands

/// `git-credential-keyring`: the desktop keyring when it works, else the encrypted
/// SQLite store; reads and erases both.
public struct KeyringHelper: HelperRoot {
    public typealias Options = KeyringOptions

    public static let configuration = CommandConfiguration(
        commandName: "git-credential-keyring",
        abstract: "A git credential helper that uses the desktop keyring when it works, else an encrypted SQLite file.",
        discussion: """
            git runs it as `git-credential-keyring [OPTIONS] get|store|erase`. On every call it \
            checks what works: if the Secret Service answers on the session bus and its \
            default keyring is unlocked (or someone unlocks it at the prompt), credentials go \
            there; otherwise into the encrypted SQLite store of git-credential-sqlite (same \
            options and files). get answers from the keyring when it has an answer, whoever \
            stored last; only when it has none is the SQLite store read (so a credential stored \
            over SSH is found at the desktop, and a passphrase store is asked for its passphrase \
            only then). A locked SQLite store that no one can be asked to unlock is passed over \
            silently when the keyring was asked (git asks its next helper, or you). erase \
            removes from both. Nothing is ever stored in plaintext.

            Examples:
              git-credential-keyring configure                      # full path: cron too
              git config --global credential.helper keyring         # by hand: needs PATH
              git-credential-keyring which
              git-credential-keyring which github.com
            """,
        version: Version.line("git-credential-keyring"),
        subcommands: [
            GetCommand<KeyringOptions>.self, StoreCommand<KeyringOptions>.self, EraseCommand<KeyringOptions>.self,
            CapabilityCommand.self, ListCommand<KeyringOptions>.self, EraseAllCommand<KeyringOptions>.self,
            ImportCommand<KeyringOptions>.self, ExportCommand<KeyringOptions>.self,
            DoctorCommand<KeyringOptions>.self, ConfigureCommand<KeyringOptions>.self, UnconfigureCommand<KeyringOptions>.self,
            WhichCommand.self, StatusCommand<KeyringOptions>.self,
        ]
    )

    @OptionGroup var options: KeyringOptions

    public init() {}

    public func run() throws { throw Self.missingAction }
}

/// The SQLite store's settings; the keyring needs none.
public struct KeyringSettings: DiagnosableSettings {
    public static let helperName = "keyring"
    var sqlite = SQLiteSettings()

    public init() {}

    public mutating func set(option name: String, to value: String) -> Bool { sqlite.set(option: name, to: value) }

    /// Where a store would go now, then both backends' checks.
    public func diagnose() -> [HealthCheck] {
        let choice = (try? open().choice()).map { HealthCheck(.ok, "choice", "stores go to \($0.backend.rawValue): \($0.reason)") }
        return (choice.map { [$0] } ?? []) + ServiceDiagnosis.checks(fallback: true) + sqlite.diagnose()
    }

    func open() throws -> KeyringStore { KeyringStore(sqlite: try sqlite.location, passphrase: sqlite.passphrase) }

    public func openExisting() throws -> ManagedStore? { try open() }
    public func openOrCreate() throws -> ManagedStore { try open() }

    public func helperArguments() throws -> [String] { try sqlite.helperArguments() }
    public func checkStorePlace() throws { try sqlite.checkStorePlace() }
    /// The SQLite store's: the keyring is the session's one.
    public var storeOptions: [StoreOption] { sqlite.storeOptions }
    public func storeInUse() throws -> [StoreOption] { try sqlite.storeInUse() }

    /// The keyring itself (its round trip item is erased), and a new SQLite store, never
    /// locked, in `directory`: a locked store of the user's cannot keep the item from
    /// being erased.
    public func throwaway(in directory: String) -> KeyringSettings {
        var settings = KeyringSettings()
        settings.sqlite = sqlite.throwaway(in: directory)
        return settings
    }
}

public struct KeyringOptions: StoreOptions {
    @OptionGroup var sqlite: SQLiteOptions

    public init() {}

    public var settings: KeyringSettings {
        var settings = KeyringSettings()
        settings.sqlite = sqlite.settings
        return settings
    }
}
