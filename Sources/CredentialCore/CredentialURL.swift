/// `url=` as git's credential_from_url reads it:
/// `proto://[user[:password]@]host[:port][/path]`, percent-decoded, leading and trailing
/// slashes of the path trimmed. The host stays empty (not absent) in `cert:///file`.
public enum CredentialURL {
    public static func parse(_ url: Value) throws(ProtocolError) -> Credential {
        let bytes = url.bytes
        guard let schemeEnd = find(Array("://".utf8), in: bytes), schemeEnd > 0 else {
            throw ProtocolError("url has no scheme")
        }
        var result = Credential()
        result.protocol = Value(Array(bytes[..<schemeEnd]))
        let rest = bytes[(schemeEnd + 3)...]
        // A query or fragment marker before the slash ends the host, as in git.
        let slash = rest.firstIndex(where: { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 }) ?? rest.endIndex
        var hostStart = rest.startIndex
        if let at = rest[..<slash].firstIndex(of: 0x40) {  // '@' before the slash
            let userinfo = rest[rest.startIndex..<at]
            if let colon = userinfo.firstIndex(of: 0x3A) {
                result.username = decode(userinfo[..<colon])
                result.password = decode(userinfo[(colon + 1)...])
            } else {
                result.username = decode(userinfo)
            }
            hostStart = at + 1
        }
        result.host = decode(rest[hostStart..<slash])
        let path = rest[slash...].drop(while: { $0 == 0x2F })
        if !path.isEmpty {
            // Trailing slashes go after decoding, as in git: `repo%2F` is `repo`.
            var decoded = decode(path).bytes
            while decoded.count > 1, decoded.last == 0x2F { decoded.removeLast() }
            result.path = Value(decoded)
        }

        for (name, value) in [("protocol", result.protocol), ("username", result.username),
                              ("password", result.password), ("host", result.host), ("path", result.path)] {
            if let value, value.bytes.contains(where: WireFormat.isForbiddenInValue) {
                throw ProtocolError("url has a newline, carriage return or NUL in its \(name)")
            }
        }
        return result
    }

    /// %XX decoding; a malformed escape stays as it is, like git's url_decode.
    static func decode(_ part: ArraySlice<UInt8>) -> Value {
        var out: [UInt8] = []
        out.reserveCapacity(part.count)
        var index = part.startIndex
        while index < part.endIndex {
            let byte = part[index]
            if byte == 0x25, index + 2 < part.endIndex,
                let high = Hex.value(of: part[index + 1]), let low = Hex.value(of: part[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return Value(out)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
