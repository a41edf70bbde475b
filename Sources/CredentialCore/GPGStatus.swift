/// What gpg's status lines (`--status-fd 2`, machine-readable in any locale) say about a
/// decryption that failed, for the two programs that run `gpg --decrypt` (pass's and
/// GCM's gpg stores). Seen with gpg 2.2.40: NODATA for what is no OpenPGP message;
/// DECRYPTION_FAILED without KEY_CONSIDERED when no secret key of the user's is one it
/// was encrypted to (with one, KEY_CONSIDERED names it, and the failure is the passphrase's).
public struct GPGStatus: Sendable {
    /// The keywords of the status lines (`[GNUPG:] KEYWORD ...`).
    public let keywords: Set<String>
    /// gpg's other lines, its messages to a person.
    public let messages: [String]

    public init(stderr: [UInt8]) {
        let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n").map(String.init)
        let prefix = "[GNUPG:] "
        keywords = Set(lines.filter { $0.hasPrefix(prefix) }.compactMap { $0.dropFirst(prefix.count).split(separator: " ").first.map(String.init) })
        messages = lines.filter { !$0.hasPrefix(prefix) && !$0.isEmpty }
    }

    public enum Failure: Sendable { case noOpenPGPData, notForYou, keyNotUsable }

    /// Why the decryption failed.
    public var failure: Failure {
        if keywords.contains("NODATA") && !keywords.contains("BEGIN_DECRYPTION") { return .noOpenPGPData }
        if keywords.contains("DECRYPTION_FAILED") && !keywords.contains("KEY_CONSIDERED") { return .notForYou }
        return .keyNotUsable
    }
}
