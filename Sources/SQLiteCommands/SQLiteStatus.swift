import CredentialCore
import HelperCommand
import SQLiteStore

extension SQLiteSettings: StatusReporting {
    public func statusLines() -> [String] {
        do { return StoreStatus.lines(try location, arguments: (try? helperArguments()) ?? []) } catch let error as HelperError {
            return ["store: \(error.message)"]
        } catch { return ["store: \(error)"] }
    }

    /// The records of the store, counted without its key (nothing asked or decrypted).
    public func storedCount() -> Int? { (try? location).flatMap { $0.credentialCount() } }
}
