import CLibSecret
import CSecretService
import CredentialCore

/// Items of another program's schema, read whole so that an import can bring them in
/// (Git Credential Manager's, see TransferCommands' GCMKeyringItems): found by their
/// `xdg:schema` attribute alone, since libsecret cannot enumerate a collection by schema
/// otherwise. Nothing here decides what an item means; it is handed over as it is, as the
/// record the helpers pass each other (KeyringItemRecord).
extension SecretServiceStore {
    /// Every item whose `xdg:schema` is `schema`, secrets loaded where the item is (or could
    /// be) unlocked, in the order of their object paths.
    public func foreignItems(schema: String) throws -> [KeyringItemRecord] {
        try records(of: properties(ofItemsWith: ["xdg:schema": schema]))
    }

    /// Deletes the item at `item.path` only while it is still exactly `item`: the same
    /// attributes and the same secret. Returns why it was kept, or `nil` once deleted.
    public func deleteForeignItem(_ item: KeyringItemRecord, schema: String) throws -> String? {
        // That item alone (an import removing thousands searched them all for each one).
        guard let found = try properties(ofItemAt: item.path), found.attributes["xdg:schema"] == schema,
              let current = try records(of: [found]).first else {
            return "it is no longer in the keyring"
        }
        guard current.attributes == item.attributes, current.secret != nil else {
            return current.secret == nil ? "it is locked" : "its attributes changed since it was read"
        }
        guard current.secret == item.secret else { return "its secret changed since it was read" }
        try delete(path: item.path)
        return nil
    }

    /// The items whole, secrets loaded. Someone may unlock them at a prompt; those that
    /// stay locked are handed over without secrets.
    func records(of items: [ItemProperties]) throws -> [KeyringItemRecord] {
        var found = items
        let unlocked = unlock(found.filter(\.locked).map(\.path))
        for index in found.indices where unlocked.contains(found[index].path) { found[index].locked = false }
        let secrets = try secrets(of: found.filter { !$0.locked }.map(\.path))
        return found.map { KeyringItemRecord(path: $0.path, attributes: $0.attributes, secret: secrets[$0.path]) }
            .sorted { $0.path < $1.path }
    }
}
