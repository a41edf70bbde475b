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
            options and files). get looks in both, the keyring first, so a credential stored \
            over SSH is found at the desktop; erase removes from both. Nothing is ever stored \
            in plaintext.

            Examples:
              git config --global credential.helper keyring
              git-credential-keyring which
            """,
        subcommands: [
            GetCommand<KeyringOptions>.self, StoreCommand<KeyringOptions>.self, EraseCommand<KeyringOptions>.self,
            CapabilityCommand.self, ListCommand<KeyringOptions>.self, EraseAllCommand<KeyringOptions>.self,
            ImportCommand<KeyringOptions>.self, ExportCommand<KeyringOptions>.self,
            DoctorCommand<KeyringOptions>.self, ConfigureCommand<KeyringOptions>.self, UnconfigureCommand<KeyringOptions>.self,
            WhichCommand.self,
        ]
    )

    @OptionGroup var options: KeyringOptions

    public init() {}

    public func run() throws { throw Self.missingAction }
}

/// The SQLite store's settings; the keyring needs none.
public struct KeyringSettings: StoreSettings {
    public static let helperName = "keyring"
    var sqlite = SQLiteSettings()

    public init() {}

    public mutating func set(option name: String, to value: String) -> Bool { sqlite.set(option: name, to: value) }

    /// Where a store would go now, then both backends' checks.
    public func diagnose() -> [HealthCheck] {
        let choice = (try? open().choice()).map { HealthCheck(.ok, "choice", "stores go to \($0.backend.rawValue): \($0.reason)") }
        return (choice.map { [$0] } ?? []) + ServiceDiagnosis.checks().map(\.asAlternative) + sqlite.diagnose()
    }

    func open() throws -> KeyringStore { KeyringStore(sqlite: try sqlite.location, passphrase: sqlite.passphrase) }

    public func openExisting() throws -> CredentialStore? { try open() }
    public func openOrCreate() throws -> CredentialStore { try open() }

    public func helperArguments() throws -> [String] { try sqlite.helperArguments() }

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

struct WhichCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which",
        abstract: "Say which store a credential would go to now, and why.",
        discussion: "Example:\n  git-credential-keyring which")

    @OptionGroup var options: KeyringOptions

    func run() throws {
        let choice = try options.settings.open().choice()
        // The reason may carry the Secret Service's own error text: one printable line.
        SystemIO.writeAll(1, Trace.printable("\(choice.backend.rawValue): \(choice.reason)") + "\n")
    }
}

extension HealthCheck {
    /// The keyring front falls back to SQLite: a Secret Service that fails is a warning.
    var asAlternative: HealthCheck {
        var check = self
        if check.verdict == .fail { check.verdict = .warn }
        return check
    }
}
