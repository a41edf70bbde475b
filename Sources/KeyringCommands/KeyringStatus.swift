import CredentialCore
import HelperCommand
import KeyringStore
import SQLiteCommands

extension KeyringSettings: StatusReporting {
    /// Where new items go and why (the keyring is not unlocked to find out), then the
    /// SQLite store's lines: get reads both.
    public func statusLines() -> [String] {
        let choice = (try? open().choice()).map { "new items go to \($0.backend == .secretservice ? "the desktop keyring" : "the SQLite store"): \($0.reason)" }
        return [choice ?? "new items go to the SQLite store"] + sqlite.statusLines()
    }
}
