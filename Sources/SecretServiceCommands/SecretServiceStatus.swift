import CredentialCore
import HelperCommand
import SecretServiceStore

extension SecretServiceSettings: StatusReporting {
    /// The session's keyring, locked or not (it is not unlocked to find out).
    public func statusLines() -> [String] {
        do {
            let (writable, reason) = try SecretServiceStore.connect().defaultCollectionWritability()
            return ["store: the desktop keyring (the Secret Service's default collection); " + (writable ? "" : "not usable now: ") + reason]
        } catch let error as HelperError {
            return ["store: the desktop keyring, which cannot be reached: \(error.message)"]
        } catch { return ["store: the desktop keyring, which cannot be reached: \(error)"] }
    }
}
