/// The expiry as a store keeps it, as text: in a SQLite record, in a Secret Service
/// item's secret text. Read back one way in every backend, whoever wrote it.
///
/// We write, and git's own libsecret helper writes, the decimal digits of a time after
/// 1970 and nothing else. Anything else in a store was written by someone else, and its
/// meaning is a guess: git's parse_timestamp reads ` 1` as 1 (long expired) and `junk` as
/// no expiry, so a lenient reading here could answer a password whole that git, or the
/// program that wrote it, takes for expired. The conservative reading is the one rule:
/// what is not canonical digits is expired, and its password never answered.
public enum StoredExpiry {
    /// What an expiry that is there but cannot be read stands for: expired at the
    /// earliest time every reader takes for a time (git reads `0` as "no expiry"), so that
    /// an export and import, or a refresh answer git reads, keep it expired.
    public static let unreadable: UInt64 = 1

    /// The text to store for an expiry.
    public static func text(_ expiry: UInt64) -> [UInt8] { Array(String(expiry).utf8) }

    /// The expiry the stored text says: its time when it is written as `text` writes one
    /// (digits, no sign, space or leading zero, not 0, within 64 bits), else `unreadable`.
    public static func read(_ stored: some Collection<UInt8>) -> UInt64 {
        guard let first = stored.first, (0x31...0x39).contains(first) else { return unreadable }
        var result: UInt64 = 0
        for byte in stored {
            guard (0x30...0x39).contains(byte) else { return unreadable }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            if overflow1 || overflow2 { return unreadable }
            result = sum
        }
        return result
    }
}
