/// One value of the credential protocol: any bytes but LF and NUL.
///
/// Not a `String`: git passes bytes, a password need not be valid UTF-8, and a helper
/// must hand back exactly the bytes it was given. `text` is for showing non-secret
/// fields to people; it repairs invalid UTF-8 and must never be used to store.
public struct Value: Hashable, Sendable, ExpressibleByStringLiteral {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(_ string: String) { self.bytes = Array(string.utf8) }
    public init(stringLiteral string: String) { self.init(string) }

    public var isEmpty: Bool { bytes.isEmpty }
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// True when the value can be written as one protocol line.
    public var isWritable: Bool { !bytes.contains(where: WireFormat.isForbiddenInValue) }
}
