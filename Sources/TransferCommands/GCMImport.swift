import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// One entry of a Git Credential Manager store, as it was read, and what it holds.
struct GCMEntry {
    enum Origin {
        case file(SourceFile, top: String)
        case item(KeyringItemRecord)
    }
    var origin: Origin
    var credential: Credential
    /// Entries carried in this one's credential (a Bitbucket refresh token): removed with it.
    var companions: [Origin] = []
}

/// `import --from gcm`: Git Credential Manager's credentials from each of its Linux stores
/// that holds any (its Secret Service items, its plaintext store, its gpg store), found
/// with GCM's own settings. The store GCM is set to use (credential.credentialStore,
/// GCM_CREDENTIAL_STORE) comes first: for a credential in two stores, its copy there is
/// the one GCM answers with now.
enum GCMImport {
    /// A GCM setting as its Settings.TryGetSetting reads it: the environment variable
    /// first, then git's configuration.
    static func setting(environment: String?, gitKey: String?) -> String? {
        if let environment, let value = SystemIO.environment(environment), !value.isEmpty { return value }
        guard let gitKey, let git = Subprocess.which("git"),
              let result = Subprocess.run(git, ["config", "--get", gitKey], input: []), result.succeeded else { return nil }
        let value = result.outputText.hasSuffix("\n") ? String(result.outputText.dropLast()) : result.outputText
        return value.isEmpty ? nil : value
    }

    static func sources() throws -> [ImportSource] {
        let home = SystemIO.environment("HOME")
        // Constants.cs: GCM_NAMESPACE / credential.namespace, default "git";
        // GCM_PLAINTEXT_STORE_PATH / credential.plaintextStorePath, default ~/.gcm/store;
        // PASSWORD_STORE_DIR, default ~/.password-store (ValidateGpgPass).
        let namespace = setting(environment: "GCM_NAMESPACE", gitKey: "credential.namespace") ?? "git"
        // A directory name in the file stores: never a way out of them.
        guard !namespace.contains("/"), namespace != ".", namespace != ".." else {
            throw HelperError(.usage, "GCM's namespace \(Trace.quoted(namespace)) is no directory name (credential.namespace, GCM_NAMESPACE)",
                              fix: "set it to the namespace GCM uses (git, unless you changed it)")
        }
        let configured = setting(environment: "GCM_CREDENTIAL_STORE", gitKey: "credential.credentialStore")?.lowercased()
        var sources: [(store: String, source: ImportSource)] = []
        var keyringRead = true
        if let source = try keyringSource(namespace: namespace, required: configured == "secretservice", read: &keyringRead) {
            sources.append(("secretservice", source))
        }
        let plaintextRoot = setting(environment: "GCM_PLAINTEXT_STORE_PATH", gitKey: "credential.plaintextStorePath")
            ?? home.map { $0 + "/.gcm/store" }
        let gpgRoot = setting(environment: "PASSWORD_STORE_DIR", gitKey: nil) ?? home.map { $0 + "/.password-store" }
        for (kind, given, name) in [(GCMFileStore.Kind.gpg, gpgRoot, "gpg"), (.plaintext, plaintextRoot, "plaintext")] {
            guard let given else { continue }
            // A relative setting is relative to where GCM ran, as here; its checks need the full path.
            let root = given.hasPrefix("/") ? given : (currentDirectory() ?? ".") + "/" + given
            let store = GCMFileStore(kind: kind, root: root, namespace: namespace)
            let source = try fileSource(store)
            if source.lines.count + source.skippedLines.count > 0 { sources.append((name, source)) }
        }
        guard !sources.isEmpty else {
            throw HelperError(.failure, "nothing to import: Git Credential Manager has no credentials \(keyringRead ? "in the Secret Service, " : "")in \(plaintextRoot ?? "~/.gcm/store") or in \(gpgRoot ?? "~/.password-store") (namespace \(namespace))\(keyringRead ? "" : ", and the Secret Service could not be read")",
                              fix: "check GCM's settings (credential.credentialStore, credential.namespace), or import from where its credentials are")
        }
        return (sources.filter { $0.store == configured } + sources.filter { $0.store != configured }).map(\.source)
    }

    static func currentDirectory() -> String? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// GCM's Secret Service items, read through git-credential-secretservice; `nil` when
    /// it has none. GCM stores `service` as "NAMESPACE:URL" (SecretServiceCollection.
    /// CreateServiceName) and `account`, and labels the item with the service.
    static func keyringSource(namespace: String, required: Bool, read: inout Bool) throws -> ImportSource? {
        let name = "GCM's Secret Service items"
        let items: [KeyringItemRecord]
        do {
            items = try GCMKeyringItems.read()
        } catch let error as HelperError {
            if required { throw error }
            SystemIO.writeAll(2, error.message + "\n")
            read = false
            return nil
        }
        guard !items.isEmpty else { return nil }
        var source = ImportSource(name: name, credentials: [], unit: "entry")
        source.fromGCM = true
        source.skippedKind = "unusable"
        var read: [(number: Int, shown: String, entry: GCMEntry)] = []
        for (index, item) in items.enumerated() {
            let number = index + 1
            let shown = "entry \(number) (service \(GCMService.shown(item.attributes["service"] ?? "none")), account \(GCMService.shown(item.attributes["account"] ?? "none")))"
            let prefix = namespace + ":"
            guard let secret = item.secret else {
                skip(&source, number, shown, "the item is locked, and no one unlocked it")
                continue
            }
            guard let service = item.attributes["service"] else {
                skip(&source, number, shown, "the item has no service attribute, which GCM always writes")
                continue
            }
            guard service.hasPrefix(prefix) else {
                skip(&source, number, shown, "its service is not in GCM's namespace \(Trace.quoted(namespace)) (credential.namespace), so GCM does not use it")
                continue
            }
            let odd = Set(item.attributes.keys).subtracting(["service", "account", "xdg:schema"])
            guard odd.isEmpty else {
                skip(&source, number, shown, "the item has attributes GCM never writes (\(odd.sorted().prefix(5).map { GCMService.shown($0) }.joined(separator: ", "))): another program's")
                continue
            }
            switch GCMService.credential(service: Array(service.dropFirst(prefix.count).utf8),
                                         account: item.attributes["account"].map { Array($0.utf8) }, secret: secret) {
            case .success(let credential): read.append((number, shown, GCMEntry(origin: .item(item), credential: credential)))
            case .failure(let skip): self.skip(&source, number, shown, skip.reason)
            }
        }
        add(read, to: &source)
        return source
    }

    static func fileSource(_ store: GCMFileStore) throws -> ImportSource {
        var source = ImportSource(name: store.name, credentials: [], unit: "entry")
        source.fromGCM = true
        source.skippedKind = "unusable"
        var read: [(number: Int, shown: String, entry: GCMEntry)] = []
        for (index, found) in try store.files().enumerated() {
            let number = index + 1
            let shown = "entry \(number) (\(Trace.quoted(found.relative)))"
            guard let file = found.file else {
                skip(&source, number, shown, found.problem ?? "not read")
                continue
            }
            let text: [UInt8]
            do {
                text = store.kind == .gpg ? try GPG.decrypt(found.bytes, name: file.path) : found.bytes
            } catch let error as GPG.NotDecryptable {
                skip(&source, number, shown, error.reason)
                continue
            }
            let parsed = GCMFileStore.parse(text).flatMap { parsed in
                GCMService.credential(service: parsed.service, account: parsed.account, secret: parsed.password)
            }
            switch parsed {
            case .success(let credential):
                read.append((number, shown, GCMEntry(origin: .file(file, top: store.root + "/" + store.namespace), credential: credential)))
            case .failure(let skip): self.skip(&source, number, shown, skip.reason)
            }
        }
        add(read, to: &source)
        return source
    }

    /// The credentials read, into the source. Bitbucket's refresh tokens are not
    /// credentials of their own: GCM stores each under the service with the path
    /// `/refresh_token` ("The refresh token key never includes the path component. Instead
    /// we use the path component to specify this is the \"refresh_token\"",
    /// BitbucketOAuth2Client.GetRefreshTokenServiceName) and the account of the access
    /// token it renews; git carries it as that credential's oauth_refresh_token.
    static func add(_ read: [(number: Int, shown: String, entry: GCMEntry)], to source: inout ImportSource) {
        var entries = read
        var carried: Set<Int> = []
        for (index, refresh) in read.enumerated() where refresh.entry.credential.path == "refresh_token" {
            let token = refresh.entry.credential
            guard let owner = entries.firstIndex(where: { candidate in
                let credential = candidate.entry.credential
                return credential.path == nil && credential.protocol == token.protocol && credential.host == token.host
                    && credential.username == token.username && credential.oauthRefreshToken == nil
            }) else {
                skip(&source, refresh.number, refresh.shown, "a refresh token (Bitbucket's) without the access token it renews, so git has nothing to carry it with")
                carried.insert(index)
                continue
            }
            entries[owner].entry.credential.oauthRefreshToken = token.password
            entries[owner].entry.companions.append(refresh.entry.origin)
            carried.insert(index)
        }
        for (index, entry) in entries.enumerated() where !carried.contains(index) {
            source.add(entry.entry.credential, at: entry.number)
            source.gcmEntries[entry.number] = entry.entry
        }
    }

    static func skip(_ source: inout ImportSource, _ number: Int, _ shown: String, _ reason: String) {
        source.skippedLines.append(number)
        source.note(number, "\(shown): \(reason)")
    }

    /// --remove-source for one GCM store: each entry imported goes once it reads back from
    /// the store, and only while it is what was read (a file as `SourceFile.wipe` checks
    /// it; an item with the same attributes and secret); so does one that only repeats an
    /// entry imported, holding the same. What was not imported stays. Returns a line for
    /// each thing kept.
    static func remove(_ source: ImportSource, store: ManagedStore) throws -> [HelperError] {
        var kept: [HelperError] = []
        var items: [(number: Int, item: KeyringItemRecord)] = []
        var emptied: [(directory: String, top: String)] = []
        let removable = (source.lines + source.repeated.filter(\.same).map(\.line)).sorted()
        for number in removable {
            guard let entry = source.gcmEntries[number] else { continue }
            let credential = entry.credential
            let key = Credential(protocol: credential.protocol, host: credential.host, path: credential.path, username: credential.username)
            guard try store.items(matching: key, for: .lookup).contains(credential.storable) else {
                kept.append(HelperError(.failure, "kept \(source.name) entry \(number): it does not read back from the store",
                                        fix: "check the store (list, doctor), then import again"))
                continue
            }
            for origin in [entry.origin] + entry.companions {
                switch origin {
                case .file(let file, let top):
                    do throws(SourceFile.Kept) {
                        try file.wipe()
                        SystemIO.writeAll(2, "removed \(file.path)\n")
                        emptied.append((PrivateFiles.directory(of: file.path), top))
                    } catch {
                        kept.append(HelperError(.failure, "kept \(file.path): \(error.reason)", fix: error.fix))
                    }
                case .item(let item): items.append((number, item))
                }
            }
        }
        if !items.isEmpty {
            let outcomes = try GCMKeyringItems.remove(items.map(\.item))
            for ((number, item), outcome) in zip(items, outcomes) {
                let shown = "\(source.name) entry \(number) (service \(GCMService.shown(item.attributes["service"] ?? "")))"
                if outcome == "removed" {
                    SystemIO.writeAll(2, "removed \(shown)\n")
                } else {
                    kept.append(HelperError(.failure, "kept \(shown): \(outcome.dropFirst("kept ".count))", fix: "check it, then import again"))
                }
            }
        }
        // GCM leaves a directory per host and path: those emptied go too, up to the namespace.
        for (directory, top) in emptied {
            var current = directory
            while current.hasPrefix(top + "/") && rmdir(current) == 0 { current = PrivateFiles.directory(of: current) }
        }
        let left = source.skippedLines + source.repeated.filter { !$0.same }.map(\.line)
        if !left.isEmpty {
            kept.append(HelperError(.failure, "kept \(left.count == 1 ? "1 entry" : "\(left.count) entries") of \(source.name): not imported (\(source.places(left.sorted())))",
                                    fix: "see why above; move them by hand, or remove them from GCM (git credential-manager erase)"))
        }
        return kept
    }
}

/// GCM's Secret Service items (schema com.microsoft.GitCredentialManager: "SchemaName",
/// "ServiceAttributeName = service", "AccountAttributeName = account" in its
/// SecretServiceCollection), read and removed through git-credential-secretservice, the
/// helper that links libsecret.
public enum GCMKeyringItems {
    public static let schema = "com.microsoft.GitCredentialManager"
    static let program = "git-credential-secretservice"

    static func run(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        guard let path = Sibling.path(program), let result = Subprocess.run(path, arguments, input: input) else {
            throw HelperError(.failure, "cannot run \(program), which reads the Secret Service", fix: "install it beside this helper or on PATH")
        }
        guard result.succeeded else {
            throw HelperError.relayed(result.lastErrorLine, from: program, doing: "cannot read GCM's Secret Service items",
                                      fix: "run \(program) doctor")
        }
        return result.output
    }

    static func read() throws -> [KeyringItemRecord] {
        guard let items = KeyringItemRecord.decode(try run(["gcm-items"], input: [])) else {
            throw HelperError(.failure, "\(program) wrote something that is not GCM's items", fix: "check that \(program) is of this release")
        }
        return items
    }

    /// For each item, in order: `removed` or `kept REASON`.
    static func remove(_ items: [KeyringItemRecord]) throws -> [String] {
        let lines = String(decoding: try run(["gcm-remove"], input: KeyringItemRecord.encode(items)), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        guard lines.count == items.count else {
            throw HelperError(.failure, "\(program) did not say what became of each GCM item", fix: "check them with secret-tool search --all xdg:schema \(schema)")
        }
        return lines
    }
}
