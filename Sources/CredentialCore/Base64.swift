/// Standard base64 (RFC 4648 section 4) with padding, without Foundation.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 {
                group = group << 8 | UInt32(offset < count ? bytes[index + offset] : 0)
            }
            for position in 0..<4 {
                if position <= count {
                    out.append(alphabet[Int(group >> UInt32(18 - 6 * position) & 63)])
                } else {
                    out.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Strict decoding: padded, no whitespace. `nil` for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var index = 0
        while index < chars.count {
            var group: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let char = chars[index + offset]
                if char == UInt8(ascii: "=") && index + 4 == chars.count && offset >= 2 {
                    padding += 1
                    group <<= 6
                } else if padding == 0, let digit = alphabet.firstIndex(of: char) {
                    group = group << 6 | UInt32(digit)
                } else {
                    return nil
                }
            }
            // Strict: the bits that padding leaves over must be zero (RFC 4648, 3.5).
            if padding > 0 && group & ((1 << UInt32(8 * padding)) - 1) != 0 { return nil }
            for offset in 0..<(3 - padding) { out.append(UInt8(group >> UInt32(16 - 8 * offset) & 0xFF)) }
            index += 4
        }
        return out
    }
}
