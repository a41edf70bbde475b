import CredentialCore
import HelperCommand

/// The person's own helpers, as git runs them on their machine: `git credential fill`,
/// `approve` and `reject` outside any repository (GitConfig.runOutsideAnyRepository), so
/// the keyring, the SQLite store, pass or an OAuth helper answer as they do for git here.
/// Never a prompt: git's own username and password prompt would ask the person for a
/// credential the remote then gets; their helpers' own prompts (a keyring to unlock, a
/// pinentry) are theirs to show.
enum PersonsHelpers {
    static let seconds = 60.0
    static let environment: [String: String?] = [
        // GIT_ASKPASS set and empty: git then skips core.askPass and SSH_ASKPASS too, and,
        // with the terminal off, gives up instead of asking (prompt.c).
        "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": nil,
    ]

    static func git(_ action: String, _ request: Credential) -> Subprocess.Result? {
        GitConfig.runOutsideAnyRepository(["credential", action], input: WireFormat.request(request), collectErrors: true,
                                          environment: environment, timeoutSeconds: seconds)
    }

    /// What the person's helpers answer for `request`: only what git needs to authenticate
    /// (never an OAuth refresh token, the long-lived secret that makes new ones), and only
    /// for the protocol and host asked, whatever else the request holds (a password git
    /// would echo). nil when they have nothing, or why not.
    static func fill(_ request: Credential) -> (answer: Credential?, why: String) {
        guard let result = git("fill", request.lookup) else { return (nil, "git does not run: \(SystemIO.errorText())") }
        guard result.succeeded else {
            return (nil, result.timedOut ? "git credential fill gave no answer within \(Int(seconds)) seconds" : "no helper here has one" + said(result))
        }
        let filled: Credential
        do { filled = try WireFormat.parse(result.output) } catch {
            return (nil, "git credential fill answered something that is not git's credential format (\(error.message))")
        }
        guard filled.protocol == request.protocol, filled.host?.text.lowercased() == request.host?.text.lowercased() else {
            return (nil, "a helper here answered for another protocol or host: not passed on")
        }
        guard filled.password != nil || filled.credential != nil else { return (nil, "no helper here has one") }
        var answer = Credential()
        answer.username = filled.username
        answer.password = filled.password
        answer.passwordExpiryUTC = filled.passwordExpiryUTC
        answer.authtype = filled.authtype
        answer.credential = filled.credential
        return (answer, "answered" + (answer.username.map { " user " + Trace.quoted($0.bytes) } ?? ""))
    }

    /// What the helpers said on stderr, git's own lines aside (a store locked: "Fix: unlock"),
    /// for the log: else a locked store reads as one that holds nothing.
    static func said(_ result: Subprocess.Result) -> String {
        let lines = String(decoding: result.errors.prefix(4096), as: UTF8.self).split(separator: "\n")
            .filter { line in !["fatal:", "error:", "warning:"].contains { line.hasPrefix($0) } }
        guard let first = lines.first else { return "" }
        return " (a helper said: \(first.prefix(600))" + (lines.count > 1 ? " ...and \(lines.count - 1) more line\(lines.count == 2 ? "" : "s")" : "") + ")"
    }

    static let stored = "stored by your helpers"

    /// `git credential approve` (store) or `reject` (erase) of what the remote sent.
    static func tell(_ action: ForwardWire.Action, _ request: Credential) -> String {
        let verb = action == .store ? "approve" : "reject"
        guard let result = git(verb, request) else { return "git does not run: \(SystemIO.errorText())" }
        // git's reject does not say whether a helper held it (with that password) to erase.
        return result.succeeded ? (action == .store ? stored : "passed to your helpers to erase (each erases it if it holds it)")
            : "git credential \(verb) failed: \(result.lastErrorLine)"
    }
}

extension Credential {
    /// What names this credential, without what it holds: a request to fill.
    var lookup: Credential {
        var request = Credential(protocol: `protocol`, host: host, path: path, username: username)
        request.capabilities = capabilities
        return request
    }
}
