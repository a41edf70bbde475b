import CredentialCore

/// `list --format json`: one object per item, never a secret, written by hand (production
/// code stays off Foundation). The output is plain ASCII: every value a hostile item may
/// hold (quotes, control and format characters, invalid UTF-8) is escaped, so a script
/// reads it back exactly and a terminal shows no tricks.
enum CredentialJSON {
    static func render(_ items: [StoredItem]) -> String {
        let objects = items.sorted(by: CredentialTable.order).map { stored -> String in
            let item = stored.credential
            let port = item.host.flatMap(HostOrURL.port(of:))
            let fields: [(String, String)] = [
                ("protocol", string(item.protocol)),
                ("host", string(item.host.map(HostOrURL.withoutPort))),
                ("port", port.map { String($0) } ?? "null"),
                ("path", string(item.path)),
                ("username", string(item.username)),
                ("password_expiry_utc", item.passwordExpiryUTC.map { String($0) } ?? "null"),
                ("expires", string(item.passwordExpiryUTC.flatMap(CredentialTable.isoTime).map { Value($0) })),
                ("backend", string(Value(stored.backend))),
            ] + (stored.unreadable.map { [("unreadable", string(Value($0)))] } ?? [])
                + exactBytes(["protocol": item.protocol, "host": item.host.map(HostOrURL.withoutPort), "path": item.path, "username": item.username])
            return "  {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }
        return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// For each value that is not valid UTF-8, a field `NAME_hex` with its bytes: JSON holds
    /// only Unicode text, where such a value reads as U+FFFD, and two hosts that differ in
    /// an invalid byte would look the same.
    static func exactBytes(_ values: KeyValuePairs<String, Value?>) -> [(String, String)] {
        values.compactMap { name, value in
            guard let value, String(validating: value.bytes, as: UTF8.self) == nil else { return nil }
            return (name + "_hex", "\"" + Hex.encode(value.bytes) + "\"")
        }
    }

    /// A JSON string, or `null` for an absent field. Invalid UTF-8 becomes U+FFFD (and
    /// `exactBytes` gives the bytes): JSON holds only Unicode text.
    static func string(_ value: Value?) -> String {
        guard let value else { return "null" }
        var out = "\""
        for scalar in String(decoding: value.bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case " "..."~": out.unicodeScalars.append(scalar)
            default:
                // Outside printable ASCII: \uXXXX, as a surrogate pair above the BMP.
                for unit in String(scalar).utf16 { out += "\\u" + hex4(unit) }
            }
        }
        return out + "\""
    }

    static func hex4(_ unit: UInt16) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<4).reversed().map { digits[Int(unit >> (UInt16($0) * 4) & 0xF)] })
    }
}
