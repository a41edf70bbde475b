/// Secret Service items as git-credential-secretservice hands them to another helper
/// over a pipe (its hidden gcm-items and gcm-remove commands): the helpers that do not
/// link libsecret read Git Credential Manager's items through it, as `import --from`
/// reads another backend. Each field is `KIND KEYLENGTH VALUELENGTH\n` and then its key
/// and value bytes, so that nothing in an attribute another program wrote (a newline, a
/// space) or in a secret (any byte) can end a field early; `E 0 0\n` ends an item.
public struct KeyringItemRecord: Equatable, Sendable {
    public var path: String
    public var attributes: [String: String]
    /// `nil` while the item is locked.
    public var secret: [UInt8]?

    public init(path: String, attributes: [String: String], secret: [UInt8]?) {
        self.path = path
        self.attributes = attributes
        self.secret = secret
    }

    public static func encode(_ items: [KeyringItemRecord]) -> [UInt8] {
        var out: [UInt8] = []
        func field(_ kind: String, _ key: [UInt8], _ value: [UInt8]) {
            out += Array("\(kind) \(key.count) \(value.count)\n".utf8) + key + value
        }
        for item in items {
            field("P", [], Array(item.path.utf8))
            for (key, value) in item.attributes.sorted(by: { $0.key < $1.key }) { field("A", Array(key.utf8), Array(value.utf8)) }
            if let secret = item.secret { field("S", [], secret) }
            field("E", [], [])
        }
        return out
    }

    struct Malformed: Error {}

    public static func decode(_ bytes: [UInt8]) -> [KeyringItemRecord]? {
        var items: [KeyringItemRecord] = []
        var current = KeyringItemRecord(path: "", attributes: [:], secret: nil)
        var index = 0
        while index < bytes.count {
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            let header = String(decoding: bytes[index..<newline], as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
            guard header.count == 3, let keyLength = Int(header[1]), let valueLength = Int(header[2]), keyLength >= 0, valueLength >= 0,
                  keyLength <= bytes.count - newline - 1 - valueLength else { return nil }
            let key = Array(bytes[(newline + 1)..<(newline + 1 + keyLength)])
            let value = Array(bytes[(newline + 1 + keyLength)..<(newline + 1 + keyLength + valueLength)])
            index = newline + 1 + keyLength + valueLength
            switch header[0] {
            case "P": current.path = String(decoding: value, as: UTF8.self)
            case "A": current.attributes[String(decoding: key, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
            case "S": current.secret = value
            case "E":
                items.append(current)
                current = KeyringItemRecord(path: "", attributes: [:], secret: nil)
            default: return nil
            }
        }
        return current == KeyringItemRecord(path: "", attributes: [:], secret: nil) ? items : nil
    }
}
