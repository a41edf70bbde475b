import CredentialCore
import HelperCommand
import SQLiteStore

extension SQLiteSettings: StatusReporting {
    public func statusLines() -> [String] {
        do { return StoreStatus.lines(try location, arguments: (try? helperArguments()) ?? []) } catch let error as HelperError {
            return ["store: \(error.message)"]
        } catch { return ["store: \(error)"] }
    }
}
