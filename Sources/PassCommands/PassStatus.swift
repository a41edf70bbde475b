import CredentialCore
import HelperCommand
import PassStore

extension PassSettings: StatusReporting {
    /// The store's directory and the keys its entries are encrypted to; gpg-agent, not
    /// the helper, holds a key's passphrase, so there is no lock of ours to report.
    public func statusLines() -> [String] {
        guard let directory = try? storeDirectory() else { return ["store: none (neither PASSWORD_STORE_DIR nor HOME is set)"] }
        let store = "store: \(directory)/\(PassEntry.root)/"
        guard let recipients = PassCredentialStore.recipientsFile(for: PassEntry.root, in: directory) else {
            return [store + " (no .gpg-id yet: pass init makes one)"]
        }
        return [store, "key: the gpg keys in \(recipients); gpg-agent asks for a passphrase when it needs one"]
    }

    /// git's entries, counted by their names (no gpg run).
    public func storedCount() -> Int? { (try? storeDirectory()).flatMap(PassCredentialStore.entryCount(in:)) }
}
