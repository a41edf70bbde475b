import CredentialCore

/// What ssh would use for a host, as `ssh -G NAME` prints it (its configuration read, no
/// connection made): setup's remote user, doctor's RemoteForward lines.
enum SSHConfiguration {
    /// The values of `keyword` (lower case, as ssh -G writes it), in order. Throws when
    /// ssh does not run, or refuses the configuration (then `ssh NAME` fails too): its
    /// first line, which names the file and line.
    static func values(_ keyword: String, for name: String) throws(HelperError) -> [String] {
        // -T: no "Pseudo-terminal will not be allocated" line before the one that matters.
        guard let result = Subprocess.run("ssh", ["-T", "-G", name], input: [], collectErrors: true, limit: 1 << 20, timeoutSeconds: 10) else {
            throw HelperError(.failure, "ssh does not run: \(SystemIO.errorText())", fix: "install OpenSSH's client (apt install openssh-client)")
        }
        guard result.succeeded else {
            let said = result.errors.split(separator: 0x0A).first.map { ": " + Trace.quoted(Array($0)) }
            throw HelperError(.failure, "ssh -G \(name) fails" + (result.timedOut ? " (no answer within 10 seconds)" : said ?? " (exit status \(result.status))"),
                              fix: "correct what it names in your ssh configuration (~/.ssh/config), so that ssh \(name) works")
        }
        return result.outputText.split(separator: "\n").filter { $0.hasPrefix(keyword + " ") }.map { String($0.dropFirst(keyword.count + 1)) }
    }
}
