@testable import CredentialCore

/// The smallest CredentialStore: a list, most recently stored first, using the shared
/// matching rule. It tests the protocol layer (HelperActions), not a backend.
final class InMemoryStore: ManagedStore {
    private(set) var stored: [Credential] = []
    /// How often a helper action asked for the store.
    private(set) var opens = 0
    /// How many credentials were written (replace), to see a store that writes nothing.
    private(set) var writes = 0

    /// What the actions get to open the store with.
    func open() -> CredentialStore {
        opens += 1
        return self
    }

    func items(matching request: Credential, for purpose: MatchPurpose) -> [Credential] {
        stored.filter { $0.isMatched(by: request, for: purpose) }
    }

    func replace(with credentials: [Credential], progress: Progress?) {
        for credential in credentials {
            writes += 1
            stored.removeAll { $0.hasSameKey(as: credential) }
            stored.insert(credential, at: 0)
        }
    }

    @discardableResult func remove(matching request: Credential) -> Int {
        let before = stored.count
        stored.removeAll { $0.isMatched(by: request, for: .erase) }
        return before - stored.count
    }

    func list() -> [StoredItem] { stored.map { StoredItem(backend: "memory", credential: $0.withoutSecrets) } }

    func all() -> [Credential] { stored }

    @discardableResult func removeAll() -> Int {
        defer { stored = [] }
        return stored.count
    }
}
