import ArgumentParser
import CredentialCore
import HelperCommand
import SecretServiceStore
import TransferCommands

#if canImport(Glibc)
import Glibc
#endif

/// `git-credential-secretservice`: the desktop keyring through libsecret.
public struct SecretServiceHelper: HelperRoot {
    public typealias Options = SecretServiceOptions

    public static let configuration = CommandConfiguration(
        commandName: "git-credential-secretservice",
        abstract: "A git credential helper that keeps credentials in the desktop keyring (Secret Service).",
        discussion: """
            git runs it as `git-credential-secretservice get|store|erase` with the request on \
            standard input. Items are laid out as git's contrib git-credential-libsecret lays \
            them out (schema org.git.Password), and that helper's items, older ones included, \
            are found too: switching keeps every credential. Other programs' items are never \
            read, listed, exported, replaced or erased, not even in that helper's older schema \
            (org.gnome.keyring.NetworkPassword), which GVFS, chat clients and browsers share: \
            an item of it is git's only with the label git gives (Git: URL), git's attributes \
            and a protocol git uses. Unlike that helper, a host without a port never matches an \
            item with one, an erase with a password removes only items with that password, and \
            expired credentials are withheld.

            With no session bus, no Secret Service, or a locked keyring no one can unlock, get \
            stays silent (git asks the next helper or you) and store and erase fail with one line.

            Examples:
              git-credential-secretservice configure                # full path: cron too
              git config --global credential.helper secretservice   # by hand: needs PATH
              git-credential-secretservice list
            """,
        version: Version.line("git-credential-secretservice"),
        subcommands: [
            GetCommand<SecretServiceOptions>.self, StoreCommand<SecretServiceOptions>.self,
            EraseCommand<SecretServiceOptions>.self, CapabilityCommand.self,
            ListCommand<SecretServiceOptions>.self, EraseAllCommand<SecretServiceOptions>.self,
            ImportCommand<SecretServiceOptions>.self, ExportCommand<SecretServiceOptions>.self,
            DoctorCommand<SecretServiceOptions>.self, ConfigureCommand<SecretServiceOptions>.self,
            UnconfigureCommand<SecretServiceOptions>.self, GCMItemsCommand.self, GCMRemoveCommand.self,
            StatusCommand<SecretServiceOptions>.self,
        ]
    )

    public init() {}

    public func run() throws { throw Self.missingAction }
}

/// The Secret Service needs no settings: the session bus says where it is.
public struct SecretServiceSettings: DiagnosableSettings {
    public static let helperName = "secretservice"
    public init() {}

    public mutating func set(option name: String, to value: String) -> Bool { false }

    public func diagnose() -> [HealthCheck] { ServiceDiagnosis.checks() }

    public func openExisting() throws -> ManagedStore? { try SecretServiceStore.connect() }
    public func openOrCreate() throws -> ManagedStore { try SecretServiceStore.connect() }

    public func helperArguments() throws -> [String] { [] }

    /// Outside a desktop (SSH, a server, a container) there is no Secret Service: the
    /// line configure wrote would make every git command that needs a password complain
    /// and ask. doctor's check of the bus and the service says why; keyring is the
    /// helper for such machines (an encrypted file when no keyring answers).
    public func configureWarning() -> String? {
        guard let failed = ServiceDiagnosis.checks().first(where: { $0.verdict == .fail }) else { return nil }
        let keyring = Programs.helpers(keeping: .sqliteFile).first { Programs.helper($0, keeps: .desktopKeyring) } ?? "keyring"
        return "git cannot use the Secret Service here (\(failed.detail)), so every git command that needs a password will say so and ask. "
            + "Fix: on a machine without a desktop, use git-credential-\(keyring) configure instead (it keeps credentials in an encrypted file when no keyring answers), "
            + "or, on a desktop: \(failed.fix ?? "log in to its session")"
    }

    /// The keyring itself: doctor's round trip erases its item there.
    public func throwaway(in directory: String) -> SecretServiceSettings { self }
}

public struct SecretServiceOptions: StoreOptions {
    public init() {}
    public var settings: SecretServiceSettings { SecretServiceSettings() }
}
