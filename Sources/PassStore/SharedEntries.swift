import CredentialCore

/// Which entries of a password store others hold too: those whose `.gpg-id` names a key
/// whose secret key is not here (a teammate's). Erasing such an entry erases it for the
/// whole team at the next sync, so erase-all leaves them unless asked. One gpg look-up per
/// name of each `.gpg-id`, remembered.
struct SharedEntries {
    let store: PassCredentialStore
    var sharedByFile: [String: Bool] = [:]

    init(store: PassCredentialStore) { self.store = store }

    mutating func isShared(_ name: String) throws -> Bool {
        guard let file = PassCredentialStore.recipientsFile(for: PrivateFiles.directory(of: name), in: store.directory) else { return false }
        if let known = sharedByFile[file] { return known }
        let names = ApprovedKeys.texts(in: SystemIO.readFile(file, limit: 1 << 16) ?? [])
        let shared = try names.contains { try !store.pass.holdsSecretKey(named: $0) }
        sharedByFile[file] = shared
        return shared
    }
}
