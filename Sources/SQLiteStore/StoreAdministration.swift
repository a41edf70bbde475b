import CredentialCore
import CredentialCrypto

/// The key-management commands of the SQLite store: init, passwd, unlock, lock.
public enum StoreAdministration {
    /// Creates a store. With a passphrase source, the data key is wrapped under the
    /// passphrase; an existing key-file store is converted (same data key, rewrapped).
    /// Returns what to tell the user.
    public static func initialize(_ location: StoreLocation, passphrase: PassphraseSource?, cost: UInt8 = PassphraseWrap.defaultCost) throws -> String {
        let existing = try StoreDatabase.open(location.database, create: false)
        let mode = existing?.meta[Meta.keyMode]
        guard let passphrase else {
            if mode != nil { return "\(location.database) already exists; nothing to do" }
            _ = try SQLiteCredentialStore.openOrCreate(location)
            return "created \(location.database) with its key in \(location.keyFile)"
        }
        if mode == Meta.passphraseMode {
            throw HelperError(.usage, "\(location.database) is already protected by a passphrase", fix: "use passwd to change it")
        }
        let phrase = try passphrase.readNew(prompt: "New passphrase for \(location.database): ")
        if var database = existing, mode == Meta.keyFileMode {
            let key = try KeyAccess.dataKey(of: database, location: location, passphrase: .init()).bytes
            try rewrap(&database, key: key, passphrase: phrase, cost: cost)
            return "\(location.database) is now protected by the passphrase; its key file \(location.keyFile) is no longer used by it (remove it if no other store uses it)"
        }
        var database = try StoreDatabase.open(location.database, create: true)!
        let databaseID = randomBytes(16)
        let key = randomBytes(32)
        let wrap = try PassphraseWrap.wrap(key, passphrase: phrase, cost: cost, databaseID: databaseID)
        try database.initialize {
            KeyAccess.newMeta(key: key, mode: Meta.passphraseMode, databaseID: databaseID)
                .merging([Meta.passphraseWrap: wrap.blob]) { $1 }
        }
        if database.meta[Meta.passphraseWrap] != wrap.blob {
            throw HelperError(.failure, "another process created \(location.database) at the same time", fix: "run the command again")
        }
        return "created \(location.database), protected by the passphrase"
    }

    /// Changes the passphrase: the data key is rewrapped in one transaction, nothing else changes.
    public static func changePassphrase(_ location: StoreLocation, current: PassphraseSource, new: PassphraseSource, cost: UInt8 = PassphraseWrap.defaultCost) throws {
        var database = try passphraseStore(location)
        guard let phrase = try current.read(prompt: "Current passphrase for \(location.database): ") else {
            throw current.noOneToAsk
        }
        let key = try KeyAccess.unwrap(meta: database.meta, passphrase: phrase, location: location).bytes
        let newPhrase = try new.readNew(prompt: "New passphrase for \(location.database): ")
        try rewrap(&database, key: key, passphrase: newPhrase, cost: cost)
    }

    /// Caches the unwrapped key in the kernel keyring for `timeout` seconds.
    public static func unlock(_ location: StoreLocation, passphrase: PassphraseSource, timeout: UInt32) throws -> String {
        guard let database = try StoreDatabase.open(location.database, create: false), !database.meta.isEmpty else {
            throw noStore(location)
        }
        guard database.meta[Meta.keyMode] == Meta.passphraseMode else {
            return "\(location.database) uses a key file; there is nothing to unlock"
        }
        guard let phrase = try passphrase.read(prompt: "Passphrase for \(location.database): ") else { throw passphrase.noOneToAsk }
        let key = try KeyAccess.unwrap(meta: database.meta, passphrase: phrase, location: location).bytes
        try KernelKeyring.store(key, description: description(database), timeoutSeconds: timeout)
        return "unlocked \(location.database) for \(timeout) seconds"
    }

    /// Drops the cached key.
    public static func lock(_ location: StoreLocation) throws -> String {
        let database = try passphraseStore(location)
        return KernelKeyring.remove(description: description(database))
            ? "locked \(location.database)" : "\(location.database) was not unlocked"
    }

    static func rewrap(_ database: inout StoreDatabase, key: [UInt8], passphrase: [UInt8], cost: UInt8) throws {
        let wrap = try PassphraseWrap.wrap(key, passphrase: passphrase, cost: cost, databaseID: database.meta[Meta.databaseID] ?? [])
        let update = [Meta.keyMode: Meta.passphraseMode, Meta.passphraseWrap: wrap.blob]
        let path = database.path
        try StoreDatabase.guarding(path) { [database] in
            try database.connection.transaction(writing: true) { try database.write(meta: update) }
        }
        database.meta.merge(update) { $1 }
    }

    static func passphraseStore(_ location: StoreLocation) throws -> StoreDatabase {
        guard let database = try StoreDatabase.open(location.database, create: false), !database.meta.isEmpty else {
            throw noStore(location)
        }
        guard database.meta[Meta.keyMode] == Meta.passphraseMode else {
            throw HelperError(.usage, "\(location.database) uses a key file, not a passphrase",
                              fix: "run init --passphrase to protect it with one")
        }
        return database
    }

    static func description(_ database: StoreDatabase) -> String {
        KernelKeyring.description(databaseID: database.meta[Meta.databaseID] ?? [])
    }

    static func noStore(_ location: StoreLocation) -> HelperError {
        HelperError(.failure, "there is no store at \(location.database)", fix: "check --db, or create one with init")
    }
}
