/// A format with a version number that a release writes and later releases must read: the
/// SQLite store, its key file, a wrapped key, a sealed record, an export. Each place that
/// reads a version asks its format, so that a file of a later release is refused the same
/// way wherever it is met: before anything is asked, decrypted or written, in one line
/// that names the version found and the versions this release reads.
public struct FileFormat: Sendable {
    /// What people call it, in "store format 3".
    public let name: String
    /// The versions this release reads, oldest first; it writes the last.
    public let reads: [Int64]

    public init(_ name: String, reads: [Int64]) {
        precondition(!reads.isEmpty)
        self.name = name
        self.reads = reads
    }

    public var current: Int64 { reads.last! }

    /// Throws unless this release reads version `found` of the format, found in `place`
    /// (a file, or "record 5 of FILE": made only for the message, as get checks each record).
    public func check(_ found: Int64, in place: @autoclosure () -> String) throws(HelperError) {
        guard reads.contains(found) else { throw refusal(found, in: place()) }
    }

    public func refusal(_ found: Int64, in place: String) -> HelperError {
        let versions = reads.count == 1 ? "format \(current)"
            : "formats " + reads.dropLast().map(String.init).joined(separator: ", ") + " and \(current)"
        let fix = found > current
            ? "use a newer release of the git credential helpers, which reads it; this one changed nothing"
            : "it was not written by the git credential helpers: restore it from a backup"
        return HelperError(.failure, "\(place) has \(name) format \(found), and this release (\(Version.number)) reads \(name) \(versions)",
                           fix: fix)
    }

    /// The version number written in `bytes` right after `prefix` (ASCII digits, as in
    /// "... export 2" or "GCSP1"), and where the digits end; `nil` when `bytes` do not
    /// start with `prefix` and a digit.
    public static func number(after prefix: [UInt8], in bytes: some Collection<UInt8>) -> (version: Int64, end: Int)? {
        let bytes = Array(bytes.prefix(prefix.count + 18))  // 18 digits cannot overflow
        guard bytes.starts(with: prefix) else { return nil }
        let digits = bytes.dropFirst(prefix.count).prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty else { return nil }
        return (digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }, prefix.count + digits.count)
    }
}
