import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// How a credential sits in a Secret Service item, as git's contrib
/// git-credential-libsecret lays it out, so that users switching keep everything:
/// attributes `protocol`, `server` (the host without its port), `port`, `user`, `object`
/// (the path); label `Git: proto://host[:port]/path` (`gitLabel`); the secret text holds
/// the password and, on lines of their own, the fields that attributes must not carry
/// (they are not secret-free or not fixed): expiry, refresh token, authtype and credential.
enum ItemLayout {
    /// The schemas where git's items are: ours (and git's own helper's), and the older one
    /// that git's helper also wrote and that other programs share (see `isGits`).
    static let schemas: Set<String> = [gitSchema, sharedSchema]
    static let gitSchema = "org.git.Password"
    static let sharedSchema = "org.gnome.keyring.NetworkPassword"

    /// Whether an item is git's: the one test that every item the service finds must pass
    /// before anything else is done with it (unlocked, its secret read, answered from,
    /// listed, exported, replaced or deleted). Items of git's schema are git's. The older
    /// schema is libsecret's generic "network password", shared by GVFS (smb, davs, ftp,
    /// sftp: label `user@server/object`), Dino (xmpp: `XMPP account user@server`) and
    /// others, so its items count only when they carry nothing but git's attributes, a
    /// protocol git uses, and exactly the label git's helper gave them: `Git: ` and the URL
    /// (git 2.39's make_label). `attributes` are without `xdg:schema`; the names a provider
    /// adds to every item of its own accord (`providerAttributes`) are passed over.
    static func isGits(schema: String?, attributes: [String: String], label: String?) -> Bool {
        switch schema {
        case gitSchema?: return true
        case sharedSchema?:
            guard Set(attributes.keys).subtracting(providerAttributes).isSubset(of: gitAttributes),
                  let scheme = attributes["protocol"], gitProtocols.contains(scheme) else { return false }
            return label == gitLabel(attributes)
        default: return false
        }
    }

    /// The attributes git's helper writes (make_attr_list).
    static let gitAttributes: Set<String> = ["protocol", "server", "port", "user", "object"]

    /// The attributes KeePassXC (2.7.4) shows on every item, whoever made it: its entry's
    /// fields (Title, the label; UserName, URL and Notes, empty on a client's item) and
    /// where the entry is (Uuid, Path; Item::attributes). No client wrote them, so they say
    /// nothing of whose the item is: without passing over them, no item of git's own helper
    /// would ever be found there. Other programs' items are still told apart by the rest:
    /// their protocols, attributes and labels are not git's. gnome-keyring adds none.
    static let providerAttributes: Set<String> = ["Title", "UserName", "URL", "Notes", "Uuid", "Path"]

    /// The one attribute ours have beyond git's helper's: when the item was stored, in
    /// nanoseconds since 1970. The service's Created is in whole seconds, and two items
    /// created in the same second are in no defined order: gnome-keyring numbers their
    /// object paths in order, KeePassXC makes them random, the specification promises
    /// nothing. Other clients find our items by their attributes all the same (a search
    /// matches a subset), and never search by this one.
    static let storedAttribute = "stored_ns"

    /// The attribute a new item gets with `storedAttribute`: the time now.
    static func storedNow() -> (String, String) { (storedAttribute, String(StoredTime.now())) }

    /// When the item says it was stored (`storedAttribute`), 0 when it does not (another
    /// program's item, or a value that is not a number: see SecretServiceStore.newestFirst).
    static func storedTime(_ attributes: [String: String]) -> UInt64 {
        attributes[storedAttribute].flatMap { UInt64($0) } ?? 0
    }

    /// The protocols git asks helpers about: its transports over curl (http, https, ftp,
    /// ftps), client certificates' passphrases (cert), send-email (smtp) and imap-send.
    static let gitProtocols: Set<String> = ["http", "https", "ftp", "ftps", "cert", "smtp", "imap", "imaps"]

    /// The label git's helper gives an item with these attributes: `Git: proto://server[:port]/object`.
    static func gitLabel(_ attributes: [String: String]) -> String {
        let port = attributes["port"].map { ":" + $0 } ?? ""
        return "Git: \(attributes["protocol"] ?? "")://\(attributes["server"] ?? "")\(port)/\(attributes["object"] ?? "")"
    }

    /// The attributes of the key fields the credential has; `nil` when one is not text,
    /// which D-Bus cannot carry (such a credential can be neither stored nor found here).
    static func attributes(of credential: Credential) -> [String: String]? {
        var attributes: [String: String] = [:]
        for (name, value) in [("protocol", credential.protocol), ("user", credential.username), ("object", credential.path)] {
            guard let value else { continue }
            guard let text = String(validating: value.bytes, as: UTF8.self) else { return nil }
            attributes[name] = text
        }
        if let host = credential.host {
            guard let text = String(validating: host.bytes, as: UTF8.self) else { return nil }
            let (server, port) = split(host: text)
            attributes["server"] = server
            attributes["port"] = port
        }
        return attributes
    }

    /// `example.com:8443` is server `example.com`, port 8443. Only a canonical port
    /// (1-65535, no leading zero) is split off, so that joining gives back the same host.
    static func split(host: String) -> (server: String, port: String?) {
        guard let colon = host.lastIndex(of: ":") else { return (host, nil) }
        let digits = host[host.index(after: colon)...]
        guard let port = UInt16(digits), port > 0, String(port) == digits else { return (host, nil) }
        return (String(host[..<colon]), String(digits))
    }

    /// The key fields of an item, from its attributes. Port 0 is git's "no port".
    static func keyFields(from attributes: [String: String]) -> Credential {
        var credential = Credential()
        credential.protocol = attributes["protocol"].map { Value($0) }
        credential.username = attributes["user"].map { Value($0) }
        credential.path = attributes["object"].map { Value($0) }
        if let server = attributes["server"] {
            let port = attributes["port"].flatMap { $0 == "0" ? nil : $0 }
            credential.host = Value(port.map { "\(server):\($0)" } ?? server)
        }
        return credential
    }

    static let extraFields = ["password_expiry_utc", "oauth_refresh_token", "authtype", "credential"]

    /// The password, then `key=value` lines for the other secrets.
    static func secretText(of credential: Credential) -> [UInt8] {
        var text = credential.password?.bytes ?? []
        let extras: [Value?] = [credential.passwordExpiryUTC.map { Value(StoredExpiry.text($0)) }, credential.oauthRefreshToken,
                                credential.authtype, credential.credential]
        for (name, value) in zip(extraFields, extras) {
            if let value { text += [0x0A] + Array(name.utf8) + [0x3D] + value.bytes }
        }
        return text
    }

    /// Fills the secrets into `credential` from the secret text. An empty first line with
    /// a `credential=` line is an item without a password; otherwise it is the password.
    /// The expiry is read as every store reads it (`StoredExpiry`).
    ///
    /// A text that gives one of these fields twice says two things, and which one its
    /// writer meant is a guess: it is not split at all. The whole text is the password,
    /// which no protocol line can hold (it has line breaks), so the item is listed but
    /// never answered (`Credential.isAnswerable`) nor exported as lines; its expiry is
    /// unreadable, so the listing shows it expired.
    static func read(secretText: [UInt8], into credential: inout Credential) {
        let lines = secretText.split(separator: 0x0A, omittingEmptySubsequences: false)
        var read = credential
        var seen: Set<String> = []
        for line in lines.dropFirst() {
            guard let equals = line.firstIndex(of: 0x3D) else { continue }
            let name = String(decoding: line[..<equals], as: UTF8.self)
            guard extraFields.contains(name) else { continue }
            guard seen.insert(name).inserted else {
                credential.password = Value(secretText)
                credential.passwordExpiryUTC = StoredExpiry.unreadable
                return
            }
            let value = Value(Array(line[(equals + 1)...]))
            switch name {
            case "password_expiry_utc": read.passwordExpiryUTC = StoredExpiry.read(value.bytes)
            case "oauth_refresh_token": read.oauthRefreshToken = value
            case "authtype": read.authtype = value
            default: read.credential = value
            }
        }
        let first = Value(Array(lines.first ?? []))
        if !(first.isEmpty && read.credential != nil) { read.password = first }
        credential = read
    }
}
