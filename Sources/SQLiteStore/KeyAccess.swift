import CredentialCore
import CredentialCrypto

#if canImport(Glibc)
import Glibc
#endif

/// The names of the rows in the `meta` table.
enum Meta {
    static let databaseID = "database_id"
    static let keyMode = "key_mode"
    static let keyCheck = "key_check"
    static let passphraseWrap = "passphrase_wrap"
    static let settingsMAC = "settings_mac"

    static let keyFileMode = Array("file".utf8)
    static let passphraseMode = Array("passphrase".utf8)

    /// The rows a store of `format` with key `mode` has, no more and no fewer.
    static func names(mode: [UInt8]?, format: Int64) -> Set<String> {
        var names: Set = [databaseID, keyMode, keyCheck]
        if mode == passphraseMode { names.insert(passphraseWrap) }
        if format >= 2 { names.insert(settingsMAC) }
        return names
    }
}

/// A data key checked against its store, with the keys derived from it (derived once:
/// the check needs them, and so does every record).
struct UnlockedKey {
    let bytes: [UInt8]
    let keys: StoreKeys
}

/// Finding the data key of a store: from the key file, or from the kernel keyring's
/// cache, or by unwrapping it with a passphrase. Every way ends in `verified`, which
/// also authenticates the store's settings.
enum KeyAccess {
    static func dataKey(of database: StoreDatabase, location: StoreLocation, passphrase: PassphraseSource) throws -> UnlockedKey {
        try checkShape(database)
        let key: UnlockedKey
        if let found = try keyWithoutAsking(of: database, location: location) {
            key = found
        } else {
            Trace.note("the passphrase-protected store is locked: asking for its passphrase")
            key = try unwrap(database, location: location, asking: passphrase, prompt: "Passphrase for \(location.database): ",
                             noOne: HelperError(.unavailable, "the store \(location.database) is locked, and there is no terminal or askpass program to ask for its passphrase",
                                                fix: "run " + ShellWord.command(["git-credential-sqlite", "--db", location.database, "unlock"])))
            if passphrase.asksAPerson { keepForGracePeriod(key, of: database, location: location, for: passphrase.gracePeriod) }
        }
        // Best effort: a store that cannot be written (a read-only file) still answers.
        do { try database.upgrade(with: key) } catch {
            Trace.note("could not upgrade \(Trace.quoted(database.path)) to format \(StoreDatabase.formatVersion): \(error)")
        }
        return key
    }

    /// After a person gave the passphrase, the key stays in the kernel keyring for the
    /// grace period, so that the `store` git sends after a successful fetch does not ask
    /// again. A key cached already (an `unlock`, perhaps longer) is left as it is; a
    /// keyring that cannot be used leaves the store locked, and the person who just typed
    /// the passphrase is told in one line why they will be asked again (silence would
    /// look like a grace period that does not work), with the fix, and how to stop trying.
    /// Returns whether it kept it now.
    @discardableResult
    static func keepForGracePeriod(_ key: UnlockedKey, of database: StoreDatabase, location: StoreLocation, for period: TimeSpan) -> Bool {
        guard period.seconds > 0 else { return false }
        let description = KernelKeyring.description(databaseID: database.meta[Meta.databaseID] ?? [])
        if KernelKeyring.read(description: description) != nil { return false }
        do {
            if try keep(key, of: database, location: location, for: period) {
                Trace.note("kept the key in the kernel keyring \(period.phrase) (the grace period)")
                return true
            }
            Trace.note("did not keep the key: the store was re-keyed while its passphrase was asked")
        } catch let error as HelperError {
            Trace.note("could not keep the key for the grace period: \(error.message)")
            let fix = (error.fix.map { $0 + "; " } ?? "") + "or give --grace-period 0 (in the helper line, for git) to stop trying"
            SystemIO.writeAll(2, HelperError(.failure, "warning: " + error.message, fix: fix).line(program: PassphraseSource.program) + "\n")
        } catch {
            Trace.note("could not keep the key for the grace period: \(error)")
        }
        return false
    }

    /// Caches `key` in the kernel keyring for `period`; false (nothing cached) when a
    /// passwd or conversion re-keyed the store since `database` was read: checked after
    /// caching it, so that a re-key finishing later finds the key and drops it. Nothing is
    /// cached when it throws.
    static func keep(_ key: UnlockedKey, of database: StoreDatabase, location: StoreLocation, for period: TimeSpan) throws -> Bool {
        let description = KernelKeyring.description(databaseID: database.meta[Meta.databaseID] ?? [])
        do {
            try KernelKeyring.store(key.bytes, description: description, timeoutSeconds: period.seconds)
        } catch {
            throw HelperError(error.kind, "cannot keep the key of \(location.database) in the kernel keyring \(period.phrase): \(error.message), so the store stays locked",
                              fix: error.fix)
        }
        let meta: [String: [UInt8]]
        do { meta = try StoreDatabase.guarding(location.database, { try database.readMeta() }) } catch {
            KernelKeyring.remove(description: description)
            throw error
        }
        if meta != database.meta {
            KernelKeyring.remove(description: description)
            return false
        }
        return true
    }

    /// The key unwrapped with a passphrase from `passphrase` (three tries for a person);
    /// throws `noOne` when no one can be asked. The settings are checked before anyone is
    /// asked (unlock and passwd come here directly).
    static func unwrap(_ database: StoreDatabase, location: StoreLocation, asking passphrase: PassphraseSource,
                       prompt: String, noOne: HelperError) throws -> UnlockedKey {
        try checkShape(database)
        let key = try passphrase.read(prompt: prompt, wrong: wrongPassphrase(location)) { phrase in
            try unwrap(database, passphrase: phrase, location: location)
        }
        guard let key else { throw noOne }
        return key
    }

    /// The key found without asking anyone: the key file of a key-file store (an error if
    /// it does not fit), the kernel keyring's cache for a passphrase store (`nil` if none).
    static func keyWithoutAsking(of database: StoreDatabase, location: StoreLocation) throws -> UnlockedKey? {
        let meta = database.meta
        switch meta[Meta.keyMode] {
        case Meta.keyFileMode?:
            guard let verified = try verified(try KeyFile.read(location.keyFile), for: database) else {
                throw HelperError(.failure, "the key file \(location.keyFile) does not belong to the store \(location.database)",
                                  fix: "point --key-file or \(StoreLocation.keyFileVariable) at the key file made with this store, or restore it from a backup")
            }
            return verified
        case Meta.passphraseMode?:
            guard let cached = KernelKeyring.read(description: KernelKeyring.description(databaseID: meta[Meta.databaseID] ?? [])),
                  let verified = try verified(cached, for: database) else { return nil }
            Trace.note("the key of the passphrase-protected store is unlocked in the kernel keyring")
            return verified
        default:
            throw HelperError(.failure, "\(location.database) records no key mode it can use",
                              fix: "restore it from a backup, or move it aside to start a new store")
        }
    }

    /// The key the passphrase unwraps; `nil` for a wrong passphrase.
    static func unwrap(_ database: StoreDatabase, passphrase: [UInt8], location: StoreLocation) throws -> UnlockedKey? {
        let meta = database.meta
        try checkShape(database)
        guard let blob = meta[Meta.passphraseWrap], let wrap = try PassphraseWrap.read(blob, in: database.path) else {
            throw HelperError(.failure, "\(location.database) has no readable wrapped key", fix: "restore it from a backup")
        }
        guard let bytes = try wrap.unwrap(passphrase: passphrase, databaseID: meta[Meta.databaseID] ?? []) else { return nil }
        return try verified(bytes, for: database)
    }

    /// The Fix names the commands that move the store aside and make a new one with a new
    /// passphrase: without the second, the next store git makes there would be protected
    /// by a key file, silently. (The database alone is moved: its -wal and -shm, there
    /// while this process has it open, are gone once it ends.)
    static func wrongPassphrase(_ location: StoreLocation) -> HelperError {
        let database = location.database
        var aside = database + ".forgotten"
        var number = 1
        while access(aside, F_OK) == 0 {
            number += 1
            aside = database + ".forgotten-\(number)"
        }
        let commands = [ShellWord.command(["mv", "--", database, aside]), ShellWord.command(["git-credential-sqlite", "--db", database, "init", "--passphrase"])]
        return HelperError(.failure, "wrong passphrase for \(database)",
                           fix: "try again; a forgotten passphrase cannot be recovered: to start over with a new one (what the store holds is lost), "
                               + "move the store aside and make a new one that asks for a new passphrase: \(commands.joined(separator: " && "))")
    }

    /// The key, if it is the one the store's key check was made with; throws if it is,
    /// but the settings it authenticates were changed since.
    static func verified(_ key: [UInt8], for database: StoreDatabase) throws(HelperError) -> UnlockedKey? {
        let meta = database.meta
        guard let expected = meta[Meta.keyCheck] else { return nil }
        let keys = StoreKeys(dataKey: key, databaseID: meta[Meta.databaseID] ?? [])
        guard constantTimeEqual(keys.check, expected) else { return nil }
        if database.format >= 2 {
            guard let mac = meta[Meta.settingsMAC], constantTimeEqual(keys.settingsMAC(meta, format: database.format), mac) else {
                throw settingsAltered(database.path)
            }
        }
        return UnlockedKey(bytes: key, keys: keys)
    }

    /// Rows added or missing for the key mode the store claims: seen before any key is
    /// needed, so a key mode flipped back to "file" is reported as what it is. A wrapped
    /// key of a later format is refused here too, before anyone is asked for a passphrase.
    static func checkShape(_ database: StoreDatabase) throws(HelperError) {
        let names = Set(database.meta.keys)
        if names != Meta.names(mode: database.meta[Meta.keyMode], format: database.format) {
            throw settingsAltered(database.path)
        }
        if let blob = database.meta[Meta.passphraseWrap] { _ = try PassphraseWrap.read(blob, in: database.path) }
    }

    static func settingsAltered(_ path: String) -> HelperError {
        HelperError(.failure, "the store's settings were altered: the meta table of \(path) was edited outside git-credential-sqlite",
                    fix: "restore the database from a backup, and consider its key file or passphrase known to whoever edited it")
    }

    /// The meta of a new store whose key is in the key file (created if missing).
    static func keyFileMeta(location: StoreLocation) throws -> [String: [UInt8]] {
        let (key, created) = try KeyFile.readOrCreate(location.keyFile)
        // Inside the transaction that writes the settings: if a conversion wiped the key
        // file meanwhile, no store is left bound to it. A key file made with this store
        // starts a complete list of its stores.
        try KeyFileUsers.record(location.database, keyFile: location.keyFile, key: key, keyFileIsNew: created)
        return settings(key: key, mode: Meta.keyFileMode)
    }

    /// The meta rows of a store with data key `key`, authenticated with it.
    static func settings(key: [UInt8], mode: [UInt8], databaseID: [UInt8] = randomBytes(16),
                         extra: [String: [UInt8]] = [:]) -> [String: [UInt8]] {
        let keys = StoreKeys(dataKey: key, databaseID: databaseID)
        var meta = [Meta.databaseID: databaseID, Meta.keyMode: mode, Meta.keyCheck: keys.check].merging(extra) { $1 }
        meta[Meta.settingsMAC] = keys.settingsMAC(meta, format: StoreDatabase.formatVersion)
        return meta
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
