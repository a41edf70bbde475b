/// HTTP Basic credentials per RFC 7617: base64 of the UTF-8 bytes of `user-id:password`.
public enum BasicAuth {
    /// `Basic <token>` with no trailing newline, or an error naming what is wrong.
    /// A `:` in the user-id cannot be encoded (the server would split there); control
    /// characters (CR, LF, NUL and the rest) could smuggle headers; both are refused.
    public static func headerValue(username: Value, password: Value) throws(BasicAuthError) -> String {
        try check(username, field: "username")
        try check(password, field: "password")
        if username.bytes.contains(UInt8(ascii: ":")) { throw BasicAuthError("the username contains ':', which Basic authentication cannot carry") }
        return "Basic " + Base64.encode(username.bytes + [UInt8(ascii: ":")] + password.bytes)
    }

    static func check(_ value: Value, field: String) throws(BasicAuthError) {
        guard let text = String(validating: value.bytes, as: UTF8.self) else {
            throw BasicAuthError("the \(field) is not valid UTF-8")
        }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw BasicAuthError("the \(field) contains a control character")
        }
    }
}

public struct BasicAuthError: Error, Equatable {
    public let message: String
    init(_ message: String) { self.message = message }
}
