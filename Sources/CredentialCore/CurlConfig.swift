/// A string of a curl config file (curl -K), as basic-auth-header --curl-config and
/// credential-curl write the header and the write-out format: double quotes, backslash
/// and double quote escaped, a line break or carriage return (which would end the line,
/// and start another option) as \n and \r, which curl turns back.
public enum CurlConfig {
    public static func quoted(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for byte in bytes {
            switch byte {
            case 0x5C, 0x22: out += [0x5C, byte]
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            default: out.append(byte)
            }
        }
        return out + [0x22]
    }

    /// One `name = "value"` line.
    public static func line(_ name: String, _ value: [UInt8]) -> [UInt8] {
        Array((name + " = ").utf8) + quoted(value) + [0x0A]
    }
}
