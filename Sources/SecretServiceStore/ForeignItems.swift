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
        try withForeignItems(schema: schema) { found in found.map(\.item) }
    }

    /// Deletes the item at `item.path` only while it is still exactly `item`: the same
    /// attributes and the same secret. Returns why it was kept, or `nil` once deleted.
    public func deleteForeignItem(_ item: KeyringItemRecord, schema: String) throws -> String? {
        try withForeignItems(schema: schema) { found in
            guard let current = found.first(where: { $0.item.path == item.path }) else {
                return "it is no longer in the keyring"
            }
            guard current.item.attributes == item.attributes, current.item.secret != nil else {
                return current.item.secret == nil ? "it is locked" : "its attributes changed since it was read"
            }
            guard current.item.secret == item.secret else { return "its secret changed since it was read" }
            try delete(current.object, path: item.path)
            return nil
        }
    }

    func withForeignItems<T>(schema: String, _ body: ([(object: UnsafeMutablePointer<SecretItem>, item: KeyringItemRecord)]) throws -> T) throws -> T {
        let table = Self.hashTable(["xdg:schema": schema])
        defer { g_hash_table_unref(table) }
        let list = try searchItems(table, schema: nil)
        defer { g_list_free_full(list, g_object_unref) }
        let objects = Self.elements(of: list, as: SecretItem.self)
        // Someone may unlock them at a prompt; those that stay locked are handed over without secrets.
        let locked = objects.filter { secret_item_get_locked($0) != 0 }
        if !locked.isEmpty, SecretPrompt.allowed {
            let request = locked.reduce(UnsafeMutablePointer<GList>?.none) { g_list_append($0, $1) }
            csecretservice_arm(UInt32.max / 2)
            if let unlocked = csecretservice_unlock_within(service, request, timeoutSeconds) { g_list_free_full(unlocked, g_object_unref) }
            g_list_free(request)
        }
        let paths = objects.map { String(cString: csecretservice_item_path($0)) }
        let secrets = try secrets(of: zip(objects, paths).filter { secret_item_get_locked($0.0) == 0 }.map(\.1))
        let found = zip(objects, paths).map { object, path in
            (object, KeyringItemRecord(path: path, attributes: Self.dictionary(secret_item_get_attributes(object)), secret: secrets[path]))
        }
        return try body(found.sorted { $0.1.path < $1.1.path })
    }
}
