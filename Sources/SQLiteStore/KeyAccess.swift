import CredentialCore
import CredentialCrypto

/// The names of the rows in the `meta` table.
enum Meta {
    static let databaseID = "database_id"
    static let keyMode = "key_mode"
    static let keyCheck = "key_check"
    static let passphraseWrap = "passphrase_wrap"

    static let keyFileMode = Array("file".utf8)
    static let passphraseMode = Array("passphrase".utf8)
}

/// A data key checked against its store, with the keys derived from it (derived once:
/// the check needs them, and so does every record).
struct UnlockedKey {
    let bytes: [UInt8]
    let keys: StoreKeys
}

/// Finding the data key of a store: from the key file, or from the kernel keyring's
/// cache, or by unwrapping it with a passphrase.
enum KeyAccess {
    static func dataKey(of database: StoreDatabase, location: StoreLocation, passphrase: PassphraseSource) throws -> UnlockedKey {
        let meta = database.meta
        let databaseID = meta[Meta.databaseID] ?? []
        switch meta[Meta.keyMode] {
        case Meta.keyFileMode?:
            guard let key = verified(try KeyFile.read(location.keyFile), for: meta) else {
                throw HelperError(.failure, "the key file \(location.keyFile) does not belong to the store \(location.database)",
                                  fix: "point --key-file or \(StoreLocation.keyFileVariable) at the key file made with this store, or restore it from a backup")
            }
            return key
        case Meta.passphraseMode?:
            if let cached = KernelKeyring.read(description: KernelKeyring.description(databaseID: databaseID)),
               let key = verified(cached, for: meta) {
                Trace.note("the key of the passphrase-protected store is unlocked in the kernel keyring")
                return key
            }
            Trace.note("the passphrase-protected store is locked: asking for its passphrase")
            guard let phrase = try passphrase.read(prompt: "Passphrase for \(location.database): ") else {
                throw HelperError(.unavailable, "the store \(location.database) is locked, and there is no terminal or askpass program to ask for its passphrase",
                                  fix: "run git-credential-sqlite --db \(location.database) unlock")
            }
            return try unwrap(meta: meta, passphrase: phrase, location: location)
        default:
            throw HelperError(.failure, "\(location.database) records no key mode it can use",
                              fix: "restore it from a backup, or move it aside to start a new store")
        }
    }

    static func unwrap(meta: [String: [UInt8]], passphrase: [UInt8], location: StoreLocation) throws -> UnlockedKey {
        guard let wrap = meta[Meta.passphraseWrap].flatMap(PassphraseWrap.init(blob:)) else {
            throw HelperError(.failure, "\(location.database) has no readable wrapped key", fix: "restore it from a backup")
        }
        guard let bytes = try wrap.unwrap(passphrase: passphrase, databaseID: meta[Meta.databaseID] ?? []),
              let key = verified(bytes, for: meta)
        else {
            throw HelperError(.failure, "wrong passphrase for \(location.database)",
                              fix: "try again; a forgotten passphrase cannot be recovered, only the store moved aside")
        }
        return key
    }

    /// The key, if it is the one the store's key check was made with.
    static func verified(_ key: [UInt8], for meta: [String: [UInt8]]) -> UnlockedKey? {
        guard let expected = meta[Meta.keyCheck] else { return nil }
        let keys = StoreKeys(dataKey: key, databaseID: meta[Meta.databaseID] ?? [])
        return constantTimeEqual(keys.check, expected) ? UnlockedKey(bytes: key, keys: keys) : nil
    }

    /// The meta of a new store whose key is in the key file (created if missing).
    static func keyFileMeta(location: StoreLocation) throws -> [String: [UInt8]] {
        let key = try KeyFile.readOrCreate(location.keyFile)
        return newMeta(key: key, mode: Meta.keyFileMode)
    }

    static func newMeta(key: [UInt8], mode: [UInt8], databaseID: [UInt8] = randomBytes(16)) -> [String: [UInt8]] {
        [Meta.databaseID: databaseID, Meta.keyMode: mode,
         Meta.keyCheck: StoreKeys(dataKey: key, databaseID: databaseID).check]
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
