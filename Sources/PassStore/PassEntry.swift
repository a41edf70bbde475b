import CredentialCore

/// How a credential sits in the password store: one entry per credential under `git/`,
/// named as Git Credential Manager's gpg store names its entries, so that `pass ls` reads
/// as a list of hosts and users and GCM's entries are found where GCM puts them:
///
///     git/PROTOCOL/HOST[:PORT][/PATH...]/USERNAME
///
/// Each part is percent-encoded where it holds a byte that is not plainly safe in a file
/// name (`/`, `%`, space, control, non-ASCII, a leading `.`), so that different
/// credentials never share an entry; an empty part is `%`, an absent host or username `%none`
/// (neither can come out of encoding a value). The entry's first line is the password
/// (`pass show -c` copies it); `key: value` lines follow with every field, the key fields
/// too: they, not the name, say what the entry holds.
public enum PassEntry {
    /// The subtree of the password store that holds git's credentials.
    public static let root = "git"
    static let emptyPart = "%"
    static let absent = "%none"

    /// The entry's name (without `.gpg`); `nil` for a credential without protocol.
    public static func name(of credential: Credential) -> String? {
        guard let scheme = credential.protocol else { return nil }
        var parts = [root, encode(scheme), credential.host.map(encode) ?? absent]
        if let path = credential.path {
            parts += path.bytes.split(separator: 0x2F, omittingEmptySubsequences: false).map { encode(Value(Array($0))) }
        }
        parts.append(credential.username.map(encode) ?? absent)
        return parts.joined(separator: "/")
    }

    /// What an entry's name says it holds (`name(of:)` read back): for an entry that cannot
    /// be read, so that list can name it and erase find it. `nil` for a name `name(of:)`
    /// never makes.
    public static func credential(named name: String) -> Credential? {
        var parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, parts.removeFirst() == root else { return nil }
        func decoded(_ part: String) -> Value?? {
            if part == absent { return .some(nil) }
            if part == emptyPart { return .some(Value("")) }
            let text = Array(part.utf8)
            var bytes: [UInt8] = [], index = 0
            while index < text.count {
                guard text[index] == UInt8(ascii: "%") else {
                    bytes.append(text[index])
                    index += 1
                    continue
                }
                guard index + 2 < text.count, let high = Hex.value(of: text[index + 1]), let low = Hex.value(of: text[index + 2]) else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            }
            return .some(Value(bytes))
        }
        guard let scheme = decoded(parts[0]), let scheme, let host = decoded(parts[1]), let username = decoded(parts.last!) else { return nil }
        var credential = Credential(protocol: scheme)
        credential.host = host
        credential.username = username
        if parts.count > 3 {
            var path: [UInt8] = []
            for (index, part) in parts[2..<(parts.count - 1)].enumerated() {
                guard let value = decoded(part), let value else { return nil }
                path += (index == 0 ? [] : [0x2F]) + value.bytes
            }
            credential.path = Value(path)
        }
        return credential
    }

    /// The directory (below the store) that holds every entry of this protocol and host.
    public static func hostDirectory(protocol scheme: Value, host: Value) -> String {
        [root, encode(scheme), encode(host)].joined(separator: "/")
    }

    /// Bytes kept as they are in a name part; everything else is %XX.
    static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "+"),
             UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "="): true
        default: false
        }
    }

    static func encode(_ value: Value) -> String {
        guard !value.isEmpty else { return emptyPart }
        var text = ""
        for (index, byte) in value.bytes.enumerated() {
            // A leading dot would hide the entry (or name . or ..).
            if isSafe(byte) && !(index == 0 && byte == UInt8(ascii: ".")) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + Hex.encode([byte]).uppercased()
            }
        }
        return text
    }

    // MARK: Contents

    /// The fields after the password, in the order they are written.
    static let fieldNames = ["protocol", "host", "path", "username", "password_expiry_utc", "oauth_refresh_token", "authtype", "credential"]

    /// The decrypted text of the entry for `credential`.
    public static func contents(of credential: Credential) -> [UInt8] {
        var text = credential.password?.bytes ?? []
        let values: [Value?] = [credential.protocol, credential.host, credential.path, credential.username,
                                credential.passwordExpiryUTC.map { Value(StoredExpiry.text($0)) },
                                credential.oauthRefreshToken, credential.authtype, credential.credential]
        for (name, value) in zip(fieldNames, values) {
            if let value { text += [0x0A] + Array(name.utf8) + Array(": ".utf8) + value.bytes }
        }
        return text + [0x0A]
    }

    /// The credential an entry's decrypted text holds; `nil` when it is not git's: neither
    /// ours (a `protocol:` line) nor GCM's (`service=URL`, `account=USER`). A field given
    /// twice says two things: the whole text is then the password, which no protocol line
    /// can hold, so the entry is listed but never answered, its expiry unreadable (as
    /// ItemLayout reads a keyring item).
    public static func credential(from text: [UInt8]) -> Credential? {
        var lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { return nil }
        var fields: [String: Value] = [:]
        var twice = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            guard fieldNames.contains(name) else { continue }
            var value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
            if fields.updateValue(Value(Array(value)), forKey: name) != nil { twice = true }
        }
        guard var credential = fields["protocol"].map({ Credential(protocol: $0) }) ?? gcmKeyFields(lines.dropFirst()) else {
            return nil
        }
        if fields["protocol"] != nil {
            credential.host = fields["host"]
            credential.path = fields["path"]
            credential.username = fields["username"]
        }
        if twice {
            credential.password = Value(text)
            credential.passwordExpiryUTC = StoredExpiry.unreadable
            return credential
        }
        credential.passwordExpiryUTC = fields["password_expiry_utc"].map { StoredExpiry.read($0.bytes) }
        credential.oauthRefreshToken = fields["oauth_refresh_token"]
        credential.authtype = fields["authtype"]
        credential.credential = fields["credential"]
        let password = Value(Array(first))
        if !(password.isEmpty && credential.credential != nil) { credential.password = password }
        return credential
    }

    /// GCM's entry: `service=https://host[:port][/path]` and `account=USER` after the
    /// password (GpgPassCredentialStore.SerializeCredential).
    static func gcmKeyFields(_ lines: ArraySlice<ArraySlice<UInt8>>) -> Credential? {
        var service: Value?, account: Value?
        for line in lines {
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: line[..<equals], as: UTF8.self).lowercased()
            let value = Value(Array(line[(equals + 1)...]))
            if name == "service" { service = value } else if name == "account" { account = value }
        }
        guard let service, var credential = try? CredentialURL.parse(service), credential.password == nil else { return nil }
        if let account { credential.username = account }
        return credential
    }
}
