import CLibSecret
import CSecretService
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// The desktop Secret Service (gnome-keyring, KeePassXC...) through libsecret, with
/// items laid out as git-credential-libsecret lays them out (see `ItemLayout`). The service
/// finds candidates by schema and attributes, whichever program wrote them; only git's items
/// are kept (`ItemLayout.isGits`), and the one matching rule of CredentialCore decides among
/// them, so a missing port is never a wildcard and an erase with a password never touches
/// another user's item.
public final class SecretServiceStore: ManagedStore {
    let service: UnsafeMutablePointer<SecretService>
    let cancellable: UnsafeMutablePointer<GCancellable>
    let timeoutSeconds: UInt32
    /// The candidates newestItem found for a protocol, host and path (see replace).
    var lastSearch: (request: Credential, items: [Item])?
    /// The encrypted session secrets cross the bus in (SecretSession), once one was needed.
    var session: SecretSession?
    /// A prompt to unlock items was shown, no one answered it in time, and it was dismissed.
    var promptDismissed = false

    /// A person may need a while to answer an unlock prompt on a display; without one, a
    /// service that has not answered in a few seconds is not going to.
    public static var defaultTimeoutSeconds: UInt32 {
        PromptPlace.here.desktop ? 60 : 5
    }

    /// Connects to the Secret Service on the session bus. Each call, this one included,
    /// gives up when the service has not answered for `timeoutSeconds`, so a wedged
    /// service cannot block git (and a search of thousands of items, which is thousands
    /// of answers, can take longer).
    public static func connect(timeoutSeconds: UInt32 = defaultTimeoutSeconds) throws -> SecretServiceStore {
        csecretservice_silence_glib()
        let cancellable = g_cancellable_new()!
        csecretservice_watch(cancellable)
        csecretservice_arm(timeoutSeconds)
        var error: UnsafeMutablePointer<GError>?
        guard let service = csecretservice_connect(cancellable, &error) else {
            if let error, let refusal = ForeignBus.refusal(error) {
                g_error_free(error)
                g_object_unref(cancellable)
                throw refusal
            }
            var reason = take(error, cancellable: cancellable, timeoutSeconds: timeoutSeconds) ?? "no answer"
            // GLib's words for it ("Cannot autolaunch D-Bus without X11 $DISPLAY") say what it tried last.
            if SystemIO.environment("DBUS_SESSION_BUS_ADDRESS") == nil,
               !PrivateFiles.exists((SystemIO.environment("XDG_RUNTIME_DIR") ?? "/nonexistent") + "/bus") {
                reason = "there is none here (no DBUS_SESSION_BUS_ADDRESS, no $XDG_RUNTIME_DIR/bus: not a desktop session)"
            }
            g_object_unref(cancellable)
            throw HelperError(.unavailable, "cannot reach the Secret Service on the session bus: \(reason)",
                              fix: "log in to a desktop session or start gnome-keyring-daemon, or use git-credential-sqlite")
        }
        csecretservice_count_answers(service)
        Trace.note("connected to the Secret Service on the session bus")
        return SecretServiceStore(service: service, cancellable: cancellable, timeoutSeconds: timeoutSeconds)
    }

    init(service: UnsafeMutablePointer<SecretService>, cancellable: UnsafeMutablePointer<GCancellable>, timeoutSeconds: UInt32) {
        self.service = service
        self.cancellable = cancellable
        self.timeoutSeconds = timeoutSeconds
    }

    /// Starts the clock for the next call.
    func arm() { csecretservice_arm(timeoutSeconds) }

    deinit {
        g_object_unref(service)
        g_object_unref(cancellable)
    }

    /// Whether a new item can go to the default collection now, and why: it exists and is
    /// unlocked, or the service unlocked it after a prompt someone answered.
    public func defaultCollectionWritability() -> (writable: Bool, reason: String) {
        // By path, two calls (ReadAlias, then its Locked property): libsecret's collection
        // proxy cost six, on every store of git-credential-keyring.
        var error: UnsafeMutablePointer<GError>?
        arm()
        guard let found = csecretservice_default_collection_path(service, cancellable, &error) else {
            return (false, take(error).map { "the Secret Service gave no default keyring: \($0)" }
                ?? "the Secret Service has no default keyring")
        }
        let path = String(cString: found)
        g_free(found)
        arm()
        switch csecretservice_locked(service, path, 1, cancellable, &error) {
        case 0: return (true, "the Secret Service answers and its default keyring is unlocked")
        case 1: break
        default:
            return (false, "the Secret Service gave no default keyring: \(take(error) ?? "unknown error")")
        }
        guard SecretPrompt.allowed else { return (false, "the default keyring is locked") }
        guard unlock([path]).isEmpty else {
            return (true, "the Secret Service answers and its default keyring was unlocked")
        }
        return (false, "the default keyring is locked and no one answered the prompt to unlock it")
    }

    // MARK: CredentialStore

    public func items(matching request: Credential, for purpose: MatchPurpose) throws -> [Credential] {
        try datedItems(matching: request, for: purpose).map(\.credential)
    }

    /// The items `items(matching:for:)` finds, each with when it was stored
    /// (`Item.storedNanoseconds`; a store creates a new item), newest first: what
    /// git-credential-keyring compares with its SQLite store's.
    public func datedItems(matching request: Credential, for purpose: MatchPurpose = .lookup) throws -> [(credential: Credential, stored: UInt64)] {
        let found = try candidates(for: request)
        let readable = found.compactMap { item in item.credential.map { (credential: $0, stored: item.storedNanoseconds) } }
            .filter { $0.credential.isMatched(by: request, for: purpose) }
        if readable.count < found.count && (purpose == .erase || readable.isEmpty) { throw lockedError(found) }
        return readable
    }

    /// The newest of git's items for the credential's protocol, host and path. Its secret
    /// is fetched only when it is the same user's: only then can it be identical. The items
    /// found are kept for the `replace` that usually follows (HelperActions.store), which
    /// then needs no search of its own.
    public func newestItem(storedLike credential: Credential) throws -> Credential? {
        let request = Credential(protocol: credential.protocol, host: credential.host, path: credential.path)
        let found = try candidates(for: request, secrets: false)
        lastSearch = (request, found)
        guard let newest = found.first else { return nil }
        guard newest.keyFields.hasSameKey(as: credential) else { return newest.keyFields }
        if newest.locked { throw lockedError([newest]) }
        // Only the same item in the collection a store writes to makes the store needless:
        // one in another collection (the session's, kept in memory) is gone at logout.
        guard isInDefaultCollection(newest) else { return nil }
        guard try !loadSecrets(of: [newest]).isEmpty else { return nil }
        if newest.locked { throw lockedError([newest]) }
        return newest.credential
    }

    /// Whether the item is in the collection new items go to; false when that is not known.
    func isInDefaultCollection(_ item: Item) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        arm()
        guard let path = csecretservice_default_collection_path(service, cancellable, &error) else {
            Trace.note("cannot tell which collection is the default one: \(take(error) ?? "no answer")")
            return false
        }
        defer { g_free(path) }
        return item.path.hasPrefix(String(cString: path) + "/")
    }

    public func replace(with credentials: [Credential], progress: Progress?) throws {
        // What newestItem found, good for one replace of a credential with those key fields.
        let searched = lastSearch
        lastSearch = nil
        for credential in credentials {
            guard let attributes = ItemLayout.attributes(of: credential) else {
                throw HelperError(.failure, "the Secret Service keeps only text, and this credential's protocol, host, path or username is not valid UTF-8",
                                  fix: "use git-credential-sqlite for it")
            }
            let known = searched.flatMap { searched in
                credentials.count == 1 && searched.request.protocol == credential.protocol && searched.request.host == credential.host
                    && searched.request.path == credential.path ? searched.items : nil
            }
            let previous = try (known ?? search(credential, secrets: false)).filter { $0.keyFields.hasSameKey(as: credential) }
            if previous.contains(where: \.locked) { throw lockedError(previous) }
            // Create first, then delete the old ones: a failure never loses a credential.
            try create(credential, attributes: attributes)
            for item in previous { try delete(item) }
            progress?.advance()
        }
    }

    @discardableResult
    public func remove(matching request: Credential) throws -> Int {
        lastSearch = nil
        // Secrets are fetched only to compare them: an erase naming none needs none.
        let comparesSecrets = request.password != nil || request.credential != nil
        let found = try candidates(for: request, secrets: comparesSecrets)
        if found.contains(where: { $0.locked || (comparesSecrets && $0.credential == nil) }) { throw lockedError(found) }
        let doomed = comparesSecrets ? found.filter { $0.credential?.isMatched(by: request, for: .erase) == true } : found
        for item in doomed { try delete(item) }
        return doomed.count
    }

    public func list() throws -> [StoredItem] {
        try everything(secrets: true).map(Self.listed)
    }

    public func list(host: String) throws -> [StoredItem] {
        // Every port: an item's `server` is its host without the port (ItemLayout).
        try search(attributes: ["server": ItemLayout.split(host: host).server], secrets: true).map(Self.listed)
    }

    /// The secret text holds the expiry; a locked item is listed by its attributes.
    static func listed(_ item: Item) -> StoredItem {
        StoredItem(backend: "secretservice", credential: item.credential?.withoutSecrets ?? item.keyFields)
    }

    public func all() throws -> [Credential] {
        let items = try everything(secrets: true)
        if items.contains(where: \.locked) { throw lockedError(items) }
        return items.compactMap(\.credential)
    }

    @discardableResult
    public func removeAll() throws -> Int {
        lastSearch = nil
        let items = try everything(secrets: false)
        if items.contains(where: \.locked) { throw lockedError(items) }
        for item in items { try delete(item) }
        return items.count
    }

    /// Every git item. An empty search finds nothing, so ask for each of git's schemas by name.
    /// Newest first across them too: export writes the items in the order `get` answers them.
    func everything(secrets: Bool) throws -> [Item] {
        Self.newestFirst(try ItemLayout.schemas.sorted().flatMap { schema in
            try search(attributes: ["xdg:schema": schema], secrets: secrets)
        })
    }

    /// The items whose key fields match the request (secrets are compared later, on the
    /// items that could be unlocked).
    func candidates(for request: Credential, secrets: Bool = true) throws -> [Item] {
        try search(request, secrets: secrets).filter { $0.keyFields.isMatched(by: request, for: .lookup) }
    }

    // MARK: libsecret

    /// An item as the service describes it, in one call (Properties.GetAll).
    struct ItemProperties {
        let path: String
        let attributes: [String: String]
        let label: String?
        let created: UInt64
        var locked: Bool
    }

    /// One of git's items found: its key fields, and (when its secrets were loaded and it
    /// is not locked) the whole credential.
    final class Item {
        let keyFields: Credential
        let created: UInt64
        /// `ItemLayout.storedAttribute`: 0 on an item that has none.
        let stored: UInt64
        let path: String
        private(set) var locked: Bool
        private(set) var credential: Credential?

        /// `nil` for an item that is not git's (`ItemLayout.isGits`): it is dropped before
        /// anything else happens to it, so no path can unlock, read, list or delete it.
        init?(_ properties: ItemProperties) {
            var attributes = properties.attributes
            let schema = attributes.removeValue(forKey: "xdg:schema")
            guard ItemLayout.isGits(schema: schema, attributes: attributes, label: properties.label) else { return nil }
            keyFields = ItemLayout.keyFields(from: attributes)
            created = properties.created
            stored = ItemLayout.storedTime(attributes)
            path = properties.path
            locked = properties.locked
        }

        /// When it was stored, in nanoseconds since 1970, as newestFirst orders: our time
        /// when the item has it, else the end of the second the service says it was created
        /// (the newest of that second). git-credential-keyring compares it with the SQLite
        /// store's time.
        var storedNanoseconds: UInt64 { stored != 0 ? stored : created &* 1_000_000_000 &+ 999_999_999 }

        /// Someone answered the prompt: the service unlocked it.
        func unlocked() { locked = false }
        /// Locked since it was found.
        func relocked() { locked = true }

        /// The credential, from the item's secret (none while it is locked).
        func take(secret: [UInt8]?) {
            guard !locked, let secret else { return }
            var credential = keyFields
            ItemLayout.read(secretText: secret, into: &credential)
            self.credential = credential
        }
    }

    /// The git items whose attributes fit the request's key fields, newest first. Locked
    /// items are unlocked when someone can answer the prompt; otherwise they stay locked.
    func search(_ request: Credential, secrets: Bool) throws -> [Item] {
        guard let attributes = ItemLayout.attributes(of: request) else { return [] }
        return try search(attributes: attributes, secrets: secrets)
    }

    /// The service finds items by attributes alone, whoever wrote them; only git's are kept,
    /// and only theirs are unlocked and have their secrets loaded.
    func search(attributes: [String: String], secrets: Bool) throws -> [Item] {
        // Asked for by schema: only items of git's schemas can be git's (ItemLayout.isGits),
        // and another program's thousands of items with the same attributes (server=github.com)
        // would each cost a GetAll (attack finding: a get took 5.8 s).
        let schemas = attributes["xdg:schema"].map { [$0] } ?? ItemLayout.schemas.sorted()
        var items = try schemas.flatMap { schema in
            try properties(ofItemsWith: attributes.merging(["xdg:schema": schema]) { $1 })
        }.compactMap(Item.init)
        let unlocked = unlock(items.filter(\.locked).map(\.path))
        for item in items where unlocked.contains(item.path) { item.unlocked() }
        if secrets {
            let readable = items.filter { !$0.locked }
            let gone = Set(readable.map(\.path)).subtracting(try loadSecrets(of: readable).map(\.path))
            items.removeAll { gone.contains($0.path) }
        }
        return Self.newestFirst(items)
    }

    /// What the service says of each item whose attributes include `attributes`: one search
    /// (the paths), then one call per item. An item deleted in between (by another process:
    /// an erase, a store replacing it) is left out.
    func properties(ofItemsWith attributes: [String: String]) throws -> [ItemProperties] {
        let table = Self.hashTable(attributes)
        defer { g_hash_table_unref(table) }
        var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?, locked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        var error: UnsafeMutablePointer<GError>?
        arm()
        guard csecretservice_search_paths(service, table, &unlocked, &locked, cancellable, &error) != 0 else {
            throw Self.failure("search the Secret Service", take(error) ?? "unknown error")
        }
        return try (Self.strings(unlocked) + Self.strings(locked)).compactMap(properties(ofItemAt:))
    }

    /// What the service says of the item at `path`; nil when it is gone.
    func properties(ofItemAt path: String) throws -> ItemProperties? {
        var attributes: OpaquePointer?, label: UnsafeMutablePointer<gchar>?, created: guint64 = 0, locked: gboolean = 1
        var error: UnsafeMutablePointer<GError>?
        arm()
        guard csecretservice_item_properties(service, path, &attributes, &label, &created, &locked, cancellable, &error) != 0 else {
            if let error, csecretservice_is_gone(error) != 0 {
                g_error_free(error)
                return nil
            }
            throw Self.failure("read from the Secret Service", take(error) ?? "unknown error")
        }
        defer { g_free(label) }
        return ItemProperties(path: path, attributes: Self.dictionary(attributes), label: label.map { String(cString: $0) },
                              created: UInt64(created), locked: locked != 0)
    }

    /// The strings of a NULL-terminated array, which it frees.
    static func strings(_ array: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
        guard let array else { return [] }
        defer { g_strfreev(array) }
        var result: [String] = []
        var index = 0
        while let string = array[index] {
            result.append(String(cString: string))
            index += 1
        }
        return result
    }

    /// Newest first, by the service's creation time (whole seconds), then within a second
    /// by the time our store wrote in the item (`ItemLayout.storedAttribute`): never by
    /// object path or the order a search lists (KeePassXC's paths are random, and the
    /// specification promises no order). Both times grow with the order of the stores, so
    /// comparing them in turn is that order. An item without our time (another program's,
    /// git's own helper's) cannot be placed within its second: it counts as the newest of
    /// it, as the one stored by hand after ours (and git's helper configured after ours
    /// stores after it). Only between such items do the paths decide, which gives at least
    /// the same answer every time.
    static func newestFirst(_ items: [Item]) -> [Item] {
        func key(_ item: Item) -> (UInt64, UInt64, String) { (item.created, item.storedNanoseconds, item.path) }
        return items.sorted { key($0) > key($1) }
    }

    /// Asks the service to unlock the items (or collection) at these paths (it prompts, if
    /// anyone can see a prompt); returns those it unlocked. The others stay locked: never guessed at.
    func unlock(_ paths: [String]) -> Set<String> {
        guard !paths.isEmpty, SecretPrompt.allowed else { return [] }
        let copies = paths.map { strdup($0) } + [nil]
        defer { copies.forEach { free($0) } }
        // Its own time limit: the watchdog's cancellation would dismiss the prompt.
        csecretservice_arm(UInt32.max / 2)
        var dismissed: gboolean = 0
        let unlocked = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            csecretservice_unlock_paths_within(service, $0.baseAddress, timeoutSeconds, &dismissed)
        }
        if dismissed != 0 { promptDismissed = true }
        return Set(Self.strings(unlocked))
    }

    /// Loads the secrets of these items, in one call; returns those still there. The service
    /// leaves out an item locked or deleted since the search: asked which, one by one.
    @discardableResult
    func loadSecrets(of items: [Item]) throws -> [Item] {
        let secrets = try secrets(of: items.map(\.path))
        return try items.filter { item in
            if let secret = secrets[item.path] {
                item.take(secret: secret)
                return true
            }
            var error: UnsafeMutablePointer<GError>?
            arm()
            switch csecretservice_locked(service, item.path, 0, cancellable, &error) {
            case 1: item.relocked()
            case 0: throw Self.failure("read from the Secret Service", "it sent no secret for \(item.path), which is not locked")
            default:
                if let error, csecretservice_is_gone(error) != 0 {
                    g_error_free(error)
                    return false
                }
                throw Self.failure("read from the Secret Service", take(error) ?? "unknown error")
            }
            return true
        }
    }

    /// A new item in the default collection. Never libsecret's "replace": the service
    /// replaces any item whose attributes include the new ones, so storing for
    /// `example.com` would overwrite the item of `example.com:8443` or of a path.
    func create(_ credential: Credential, attributes: [String: String]) throws {
        let stored = ItemLayout.storedNow()
        let table = Self.hashTable(attributes.merging([stored]) { $1 })
        defer { g_hash_table_unref(table) }
        let session = try openSession()
        let secret = try session.encrypt(ItemLayout.secretText(of: credential))
        var error: UnsafeMutablePointer<GError>?
        arm()
        if csecretservice_create_item(service, table, ItemLayout.gitLabel(attributes), session.path, secret.parameters,
                                      gsize(secret.parameters.count), secret.value, gsize(secret.value.count), timeoutSeconds, cancellable, &error) == 0 {
            throw Self.failure("store in the default keyring of the Secret Service", take(error) ?? "unknown error")
        }
    }

    /// Deletes the item; one that another process deleted first is as good as deleted.
    func delete(_ item: Item) throws {
        try delete(path: item.path)
    }

    func delete(path: String) throws {
        var error: UnsafeMutablePointer<GError>?
        arm()
        guard csecretservice_delete_path(service, path, timeoutSeconds, cancellable, &error) == 0, let error else { return }
        // "No such object" and "unknown method" are also what a service that cannot delete
        // would answer: the item counts as deleted only if it is really gone.
        if csecretservice_is_gone(error) != 0 {
            var stillThere: UnsafeMutablePointer<GError>?
            arm()
            let locked = csecretservice_locked(service, path, 0, cancellable, &stillThere)
            if locked < 0, let stillThere, csecretservice_is_gone(stillThere) != 0 {
                g_error_free(stillThere)
                g_error_free(error)
                Trace.note("\(path) was deleted already")
                return
            }
            g_clear_error(&stillThere)
        }
        throw Self.failure("delete \(path) from the Secret Service", take(error) ?? "unknown error")
    }

    static let locked = HelperError(
        .unavailable, "the keyring is locked, and no one could answer the prompt to unlock it",
        fix: "unlock it (log in to the desktop, or run: secret-tool lookup any thing, at the desktop), then try again")

    /// A service may keep an item locked in an unlocked collection until someone at its
    /// screen allows this program to read it: KeePassXC does by default. Saying the keyring
    /// is locked then sends the person to unlock what is unlocked.
    static func accessNotConfirmed(dismissed: Bool) -> HelperError {
        HelperError(.unavailable, "the Secret Service asked at its screen whether git may read the item (an access confirmation, "
                        + "as KeePassXC asks by default; the keyring itself is unlocked), and "
                        + (dismissed ? "no one answered; the question was dismissed" : "git was not allowed"),
                    fix: "allow git when the question shows, or in KeePassXC untick Tools > Settings > Secret Service Integration > "
                        + "\"Confirm when passwords are retrieved by clients\", then try again")
    }

    /// Why some of these items are locked: their collection is locked (the keyring), or it
    /// is unlocked and the service wants an access confirmation for them.
    func lockedError(_ items: [Item]) -> HelperError {
        guard let item = items.first(where: \.locked) else { return Self.locked }
        return waitsForAccessConfirmation(item) ? Self.accessNotConfirmed(dismissed: promptDismissed) : Self.locked
    }

    /// Whether the item is locked in an unlocked collection: the service wants someone at
    /// its screen to allow this program before it reads the item. KeePassXC answers each
    /// client for itself (Item::locked: its collection is locked, or this client was not
    /// allowed the item), so asking shows nothing.
    func waitsForAccessConfirmation(_ item: Item) -> Bool {
        guard item.locked, let slash = item.path.lastIndex(of: "/") else { return false }
        var error: UnsafeMutablePointer<GError>?
        arm()
        let collectionLocked = csecretservice_locked(service, String(item.path[..<slash]), 1, cancellable, &error)
        g_clear_error(&error)
        return collectionLocked == 0
    }

    /// For doctor, which asks for nothing: whether git's items already stored wait for an
    /// access confirmation (`waitsForAccessConfirmation`), told from their properties alone
    /// (no unlock, no secret read, so no dialog); `nil` when there is no item of git's to
    /// tell by. Another process's items, not doctor's own: a client may read what it made.
    public func storedItemsWaitForAccessConfirmation() throws -> Bool? {
        let items = try ItemLayout.schemas.sorted().flatMap { try properties(ofItemsWith: ["xdg:schema": $0]) }.compactMap(Item.init)
        guard !items.isEmpty else { return nil }
        return items.contains(where: waitsForAccessConfirmation)
    }

    static func failure(_ action: String, _ reason: String) -> HelperError {
        HelperError(.unavailable, "cannot \(action): \(reason)",
                    fix: "check that the keyring daemon runs and is unlocked (secret-tool search --all x y)")
    }

    /// The message of a GError, which it frees; `nil` for no error. A call cancelled by
    /// the watchdog is said to have timed out, which is what happened.
    static func take(_ error: UnsafeMutablePointer<GError>?, cancellable: UnsafeMutablePointer<GCancellable>? = nil,
                     timeoutSeconds: UInt32 = 0) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        if let cancellable, g_cancellable_is_cancelled(cancellable) != 0 {
            return "no answer within \(TimeSpan(seconds: timeoutSeconds))"
        }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    func take(_ error: UnsafeMutablePointer<GError>?) -> String? {
        Self.take(error, cancellable: cancellable, timeoutSeconds: timeoutSeconds)
    }

    static func hashTable(_ attributes: [String: String]) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        for (key, value) in attributes { g_hash_table_insert(table, g_strdup(key), g_strdup(value)) }
        return table
    }

    /// A GHashTable of strings as a dictionary; releases the table.
    static func dictionary(_ table: OpaquePointer?) -> [String: String] {
        guard let table else { return [:] }
        defer { g_hash_table_unref(table) }
        var result: [String: String] = [:]
        var iterator = GHashTableIter()
        g_hash_table_iter_init(&iterator, table)
        var key: gpointer?
        var value: gpointer?
        while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
            guard let key, let value else { continue }
            result[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(cString: value.assumingMemoryBound(to: CChar.self))
        }
        return result
    }
}
