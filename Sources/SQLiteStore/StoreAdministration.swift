import CredentialCore
import CredentialCrypto

/// The key-management commands of the SQLite store: init, passwd, unlock, lock.
public enum StoreAdministration {
    /// Creates a store. With a passphrase source, the data key is wrapped under the
    /// passphrase; an existing key-file store is converted (convert). Returns what to
    /// tell the user.
    /// `otherStores`: the stores git's configuration names, which may share the key file.
    public static func initialize(_ location: StoreLocation, passphrase: PassphraseSource?, cost: UInt8 = PassphraseWrap.defaultCost,
                                  otherStores: [StoreLocation] = []) throws -> String {
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
        if let existing, mode != nil {
            // Opened (and its key file checked) before asking for a new passphrase.
            let oldKey = try KeyAccess.dataKey(of: existing, location: location, passphrase: .init())
            let store = SQLiteCredentialStore(location: location, database: existing, key: oldKey)
            let phrase = try passphrase.readNew(prompt: "New passphrase for \(location.database): ")
            return try convert(store, oldKey: oldKey.bytes, passphrase: phrase, typed: passphrase, cost: cost, otherStores: otherStores)
        }
        let phrase = try passphrase.readNew(prompt: "New passphrase for \(location.database): ")
        var database = try StoreDatabase.open(location.database, create: true)!
        let databaseID = randomBytes(16)
        let key = randomBytes(32)
        let wrap = try PassphraseWrap.wrap(key, passphrase: phrase, cost: cost, databaseID: databaseID)
        try database.initialize {
            KeyAccess.settings(key: key, mode: Meta.passphraseMode, databaseID: databaseID, extra: [Meta.passphraseWrap: wrap.blob])
        }
        if database.meta[Meta.passphraseWrap] != wrap.blob {
            throw HelperError(.failure, "another process created \(location.database) at the same time", fix: "run the command again")
        }
        return "created \(location.database), protected by the passphrase"
            + keptUnlocked(UnlockedKey(bytes: key, keys: StoreKeys(dataKey: key, databaseID: databaseID)), of: database, location: location, typed: passphrase)
    }

    /// A new passphrase a person just typed (twice) leaves the store unlocked for the
    /// grace period, as a passphrase typed for a get does: the first git operation after
    /// init or passwd does not ask again (new-user finding, stop 20). What to add to the
    /// message.
    static func keptUnlocked(_ key: UnlockedKey, of database: StoreDatabase, location: StoreLocation, typed passphrase: PassphraseSource) -> String {
        guard passphrase.asksAPerson, KeyAccess.keepForGracePeriod(key, of: database, location: location, for: passphrase.gracePeriod) else { return "" }
        return "; unlocked \(passphrase.gracePeriod.phrase) (lock locks it now)"
    }

    /// Converts a key-file store to a passphrase: a NEW data key (whoever has a copy of
    /// the key file must not be able to read what is stored from now on), every record
    /// resealed under it in one transaction, then the old key file wiped unless another
    /// store still needs it.
    static func convert(_ store: SQLiteCredentialStore, oldKey: [UInt8], passphrase: [UInt8], typed: PassphraseSource, cost: UInt8,
                        otherStores: [StoreLocation]) throws -> String {
        let location = store.location
        try rekey(store, passphrase: passphrase, cost: cost)
        let converted = "\(location.database) is now protected by the passphrase, with a new key"
        return converted + "; " + (try retire(key: oldKey, of: location, otherStores: otherStores))
            + keptUnlocked(store.key, of: store.database, location: location, typed: typed)
    }

    /// Wipes the old key file of a converted store, unless another store may still need
    /// it: one listed beside it (KeyFileUsers) or named by git's configuration that still
    /// opens with it, or any store at all when the list is not complete (a key file of an
    /// earlier release). Decided and done under the list's lock. Says which.
    static func retire(key: [UInt8], of location: StoreLocation, otherStores: [StoreLocation]) throws -> String {
        let keyFile = location.keyFile, name = KeyFileUsers.canonical(location.database)
        var outcome = ""
        do {
            try KeyFileUsers.update(keyFile, create: false) { users in
                let listed = (users?.databases ?? []).map { StoreLocation(database: $0, keyFile: keyFile) }
                // A listed store that cannot be found now (on a volume not mounted, moved
                // away for a while) may come back: it keeps the key file until the user
                // says it is gone for good, by removing the key file.
                let missing = listed.map(\.database).first { $0 != name && !PrivateFiles.exists($0) }
                let other = missing.map { "\($0), listed as using it but not found now (a volume not mounted? a file moved?), may still need it" }
                    ?? otherStore(using: key, besides: location, candidates: listed + otherStores).map { "\($0) still uses it" }
                if other != nil || users?.complete != true {
                    outcome = "its old key file \(keyFile) was kept, because "
                        + (other ?? "it predates the list of the stores using it, so a store named nowhere may still need it")
                        + "; it no longer opens \(location.database), and once no other store uses it, remove it with shred -u \(keyFile)"
                    guard users?.databases.contains(name) == true else { return .unchanged }
                    users!.databases.removeAll { $0 == name }
                    return .changed
                }
                // Set first: a failure to wipe is reported as itself, not as an unreadable list.
                outcome = "its old key file \(keyFile) was wiped, and copies or backups of it no longer open the store"
                try KeyFile.wipe(keyFile)
                return .removed
            }
        } catch let error as HelperError where outcome.isEmpty {
            // The store is converted already: say why the key file stays, do not fail.
            return "its old key file \(keyFile) was kept, because which stores use it cannot be told (\(error.message));"
                + " it no longer opens \(location.database), and once no other store uses it, remove it with shred -u \(keyFile)"
        }
        return outcome
    }

    /// Gives a store a new data key and database id, wrapped under `passphrase`: every
    /// record resealed and the settings rewritten and authenticated, in one transaction.
    /// Both conversion and passwd: a passphrase is changed because it may have leaked,
    /// and an old copy of the settings with the old passphrase must then open nothing
    /// stored since.
    static func rekey(_ store: SQLiteCredentialStore, passphrase: [UInt8], cost: UInt8) throws {
        let databaseID = randomBytes(16), key = randomBytes(32)
        let wrap = try PassphraseWrap.wrap(key, passphrase: passphrase, cost: cost, databaseID: databaseID)
        let settings = KeyAccess.settings(key: key, mode: Meta.passphraseMode, databaseID: databaseID,
                                          extra: [Meta.passphraseWrap: wrap.blob])
        let keys = StoreKeys(dataKey: key, databaseID: databaseID)
        try store.rekey(to: UnlockedKey(bytes: key, keys: keys), settings: settings)
    }

    /// Another store whose key is `key`, if any: the default store (by the environment,
    /// or by XDG) and the `candidates` (listed beside the key file, or named by git's
    /// configuration). One that cannot be examined, or is being created, counts as
    /// needing the key.
    static func otherStore(using key: [UInt8], besides location: StoreLocation, candidates: [StoreLocation]) -> String? {
        let defaults = [try? StoreLocation.resolve(database: nil, keyFile: nil), try? StoreLocation.xdgDefault()]
        for candidate in (defaults.compactMap({ $0?.database }) + candidates.map(\.database))
        where candidate != location.database && PrivateFiles.exists(candidate) {
            guard let database = try? StoreDatabase.open(candidate, create: false) else { return candidate }
            // No settings yet: a store being created, which lists itself (inside the
            // transaction that will write its settings) before it commits.
            if database.meta.isEmpty { return candidate }
            if database.meta[Meta.keyMode] == Meta.keyFileMode, (try? KeyAccess.verified(key, for: database)) != nil {
                return candidate
            }
        }
        return nil
    }

    /// Changes the passphrase, and with it the data key (rekey): the old passphrase, with
    /// an old copy of the settings, opens nothing stored from now on.
    /// Returns what to add to the message (keptUnlocked).
    public static func changePassphrase(_ location: StoreLocation, current: PassphraseSource, new: PassphraseSource, cost: UInt8 = PassphraseWrap.defaultCost) throws -> String {
        let database = try passphraseStore(location)
        let key = try KeyAccess.unwrap(database, location: location, asking: current,
                                       prompt: "Current passphrase for \(location.database): ", noOne: current.noOneToAsk)
        let newPhrase = try new.readNew(prompt: "New passphrase for \(location.database): ")
        let store = SQLiteCredentialStore(location: location, database: database, key: key)
        try rekey(store, passphrase: newPhrase, cost: cost)
        // The old key, cached under the old database id, opens nothing any more.
        KernelKeyring.remove(description: description(database))
        return keptUnlocked(store.key, of: store.database, location: location, typed: new)
    }

    /// Caches the unwrapped key in the kernel keyring for `timeout`.
    /// A store unlocked already needs no passphrase: without a `timeout` it stays as it
    /// is (an `unlock` after `unlock --timeout 8h` shortened it to 15 minutes), with one
    /// it stays unlocked that long from now.
    public static func unlock(_ location: StoreLocation, passphrase: PassphraseSource, timeout: TimeSpan?) throws -> String {
        let database = try existingStore(location)
        guard database.meta[Meta.keyMode] == Meta.passphraseMode else {
            return "nothing to unlock: \(location.database) uses a key file"
        }
        let cached = try KeyAccess.keyWithoutAsking(of: database, location: location)
        if cached != nil && timeout == nil {
            return "\(location.database) is unlocked already (unlock --timeout DURATION sets how long from now; lock locks it)"
        }
        let timeout = timeout ?? defaultUnlockTime
        let key = try cached ?? KeyAccess.unwrap(database, location: location, asking: passphrase,
                                                 prompt: "Passphrase for \(location.database): ", noOne: passphrase.noOneToAsk)
        guard try KeyAccess.keep(key, of: database, location: location, for: timeout) else {
            throw HelperError(.failure, "\(location.database) was re-keyed by another process while its passphrase was asked (init --passphrase or passwd), so it was not unlocked",
                              fix: "run unlock again")
        }
        return "unlocked \(location.database) \(timeout.phrase)" + (cached != nil ? " (it was unlocked already: no passphrase needed)" : "")
    }

    /// How long `unlock` keeps the key when not told.
    public static let defaultUnlockTime = TimeSpan(seconds: 900)

    /// Drops the cached key. A key-file store has none, which is no error (as for unlock).
    public static func lock(_ location: StoreLocation) throws -> String {
        let database = try existingStore(location)
        guard database.meta[Meta.keyMode] == Meta.passphraseMode else {
            return "nothing to lock: \(location.database) uses a key file"
        }
        return KernelKeyring.remove(description: description(database))
            ? "locked \(location.database)" : "\(location.database) was not unlocked"
    }

    static func existingStore(_ location: StoreLocation) throws -> StoreDatabase {
        guard let database = try StoreDatabase.open(location.database, create: false), !database.meta.isEmpty else {
            throw noStore(location)
        }
        return database
    }

    static func passphraseStore(_ location: StoreLocation) throws -> StoreDatabase {
        let database = try existingStore(location)
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
