import ArgumentParser
import CredentialCore
import HelperCommand
import SecretServiceStore
import TransferCommands

#if canImport(Glibc)
import Glibc
#endif

/// `gcm-items` and `gcm-remove`, hidden: how `import --from gcm` in any helper reads and
/// removes Git Credential Manager's Secret Service items through this one, the helper that
/// links libsecret. Secrets pass on stdin and stdout only, as `KeyringItemRecord`s.
struct GCMItemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gcm-items", abstract: "Write Git Credential Manager's Secret Service items (for import --from gcm).",
        shouldDisplay: false)

    func run() throws {
        // Its output holds secrets, for a pipe to another helper: never for a screen.
        guard isatty(1) == 0 else {
            throw HelperError(.usage, "gcm-items writes secrets for import --from gcm, not to a terminal",
                              fix: "run import --from gcm instead")
        }
        let items = try SecretServiceStore.connect().foreignItems(schema: GCMKeyringItems.schema)
        SystemIO.writeAll(1, KeyringItemRecord.encode(items))
    }
}

struct GCMRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gcm-remove",
        abstract: "Delete the Git Credential Manager items given on stdin, each only while unchanged (for import --from gcm --remove-source).",
        shouldDisplay: false)

    /// One line per item given, in order: `removed`, or `kept REASON`.
    func run() throws {
        guard let input = SystemIO.readAll(0, limit: 64 << 20), let items = KeyringItemRecord.decode(input) else {
            throw HelperError(.usage, "gcm-remove reads items as gcm-items writes them", fix: "use import --from gcm --remove-source")
        }
        let store = try SecretServiceStore.connect()
        for item in items {
            let kept = try store.deleteForeignItem(item, schema: GCMKeyringItems.schema)
            SystemIO.writeAll(1, Array((kept.map { "kept " + $0 } ?? "removed").utf8) + [0x0A])
        }
    }
}
