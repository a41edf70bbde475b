/// A duration as a person writes it (`30s`, `5m`, `8h`, `30d`, or plain seconds) and
/// reads it (`for 30 days`): the one place where options are parsed and messages say how
/// long. Whole seconds, as the kernel keyring keeps its timeouts.
public struct TimeSpan: Equatable, Sendable {
    public let seconds: UInt32

    public init(seconds: UInt32) { self.seconds = seconds }

    public static let zero = TimeSpan(seconds: 0)

    /// The longest accepted. The kernel keyring would take 136 years (a UInt32 of
    /// seconds); a key left unlocked for longer than a year is a key never locked.
    public static let maximum = TimeSpan(seconds: 365 * 86400)

    static let units: [(letter: Character, seconds: UInt32, name: String)] = [
        ("d", 86400, "day"), ("h", 3600, "hour"), ("m", 60, "minute"), ("s", 1, "second"),
    ]

    /// `text` as a duration; `option` names it in the messages (`nil`: where the message
    /// goes after one that names it already, the argument parser's). Zero only when
    /// `allowsZero` (where zero means "never", not "forever").
    public init(parsing text: String, option: String?, allowsZero: Bool = false) throws(HelperError) {
        let subject = option.map { "\($0) \(text) is " } ?? ""
        var digits = Substring(text)
        var unit: UInt64 = 1
        if let last = digits.last, let found = Self.units.first(where: { $0.letter == last }) {
            unit = UInt64(found.seconds)
            digits = digits.dropLast()
        }
        // Digits only: UInt64 alone would take "+5".
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            throw HelperError(.usage, subject + "not a duration",
                              fix: "give seconds, or a number followed by s, m, h or d, such as 90, 30s, 5m, 8h or 30d")
        }
        // Too many digits for UInt64 is as much beyond the limit as any other.
        let number = UInt64(digits)
        guard let number, number <= UInt64(Self.maximum.seconds) / unit else {
            throw HelperError(.usage, subject + "longer than the limit of \(Self.maximum)",
                              fix: "give at most \(Self.maximum.seconds / 86400)d")
        }
        if number == 0 && !allowsZero {
            throw HelperError(.usage, subject + "no time at all", fix: "give at least 1s")
        }
        seconds = UInt32(number * unit)
    }

    /// "for 30 days", "for 8 hours", "for 90 seconds": the largest unit that says it
    /// exactly (90 seconds is not rounded to 2 minutes).
    public var phrase: String { "for \(self)" }
}

extension TimeSpan: CustomStringConvertible {
    /// "30 days", "1 hour", "90 seconds".
    public var description: String {
        // Seconds divide everything: the last unit always fits.
        let unit = Self.units.first { seconds % $0.seconds == 0 && seconds >= $0.seconds } ?? Self.units[Self.units.count - 1]
        let count = seconds / unit.seconds
        return "\(count) \(unit.name)" + (count == 1 ? "" : "s")
    }
}
