import CredentialCore

/// What ssh would use for a host, as `ssh -G NAME` prints it (its configuration read, no
/// connection made): setup's remote user, doctor's RemoteForward lines.
enum SSHConfiguration {
    /// The values of `keyword` (lower case, as ssh -G writes it), in order; none when ssh
    /// does not run or fails.
    static func values(_ keyword: String, for name: String) -> [String] {
        guard let result = Subprocess.run("ssh", ["-G", name], input: [], collectErrors: true, limit: 1 << 20, timeoutSeconds: 10),
              result.succeeded else { return [] }
        return result.outputText.split(separator: "\n").filter { $0.hasPrefix(keyword + " ") }.map { String($0.dropFirst(keyword.count + 1)) }
    }
}
