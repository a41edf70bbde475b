import ArgumentParser
import CredentialCore
import HelperCommand
import KeyringStore

/// `git-credential-keyring which [HOST-OR-URL]`: where a get would be answered from now,
/// and where a store would go, and why. Asks no one (no passphrase, no unlock prompt) and
/// prints no secret.
struct WhichCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which",
        abstract: "Say where a get for a host would be answered from now, and where a store would go, and why.",
        discussion: """
            Given a host or URL, the first line says which store a get for it would be \
            answered from (the newest of the two stores; a SQLite store that would ask for \
            its passphrase is read only when the keyring has no answer), with the \
            protocol, user, host and path of the credential found, never a secret. The last line says where a store would go, and why. It asks no \
            one: a locked keyring or passphrase store is reported as locked, not unlocked.

            Examples:
              git-credential-keyring which
              git-credential-keyring which github.com
              git-credential-keyring which https://alice@github.com
            """)

    @OptionGroup var options: KeyringOptions
    @Argument(help: ArgumentHelp("A host or URL to say where a get for it would be answered from.", valueName: "host-or-url"))
    var target: String?

    func run() throws {
        // The same reading as list's and erase's, so all understand a HOST-OR-URL alike.
        let request = try target.map { try HostOrURL.parse($0, everything: "leave it out to see only where a store would go").request }
        // Asked before prompts are turned off: whether a get from here could ask someone.
        let someoneToAsk = SecretPrompt.canAsk
        SecretPrompt.allowed = false
        let store = try options.managedSettings().open()
        var lines: [String] = []
        if let target, let request { lines.append("get \(target): " + Self.answer(to: request, in: store, someoneToAsk: someoneToAsk)) }
        let choice = store.choice()
        lines.append("store: \(choice.backend.rawValue): \(choice.reason)")
        if let note = ConfiguredPass.note(for: KeyringSettings.helperName) { lines.append("pass: " + note) }
        // Reasons may carry a service's own error text, values another program's: one
        // printable line each; a password typed into the URL is not echoed.
        SystemIO.writeAll(1, lines.map { Trace.redactingURLPasswords(Trace.printable($0)) + "\n" }.joined())
    }

    /// Where HelperActions.lookup, the look-up of get itself, finds the answer.
    static func answer(to request: Credential, in store: KeyringStore, someoneToAsk: Bool) -> String {
        // A source that cannot be read without asking: locked. From a terminal (or with
        // an askpass program) get would ask to unlock it; which does not.
        let unread = someoneToAsk ? "is locked, and which asks no one (a get from here would ask to unlock it)" : nil
        let found: HelperActions.Lookup
        do { found = try HelperActions.lookup(request, now: now(), in: store) } catch let error as HelperError {
            let source = store.lookupSources.first?.name ?? "the store"
            return "nothing can be read now: " + (error.kind == .unavailable ? unread.map { "\(source) " + $0 } ?? error.message : error.message)
        } catch {
            return "nothing can be read now: \(error)"
        }
        var parts: [String] = []
        if let answer = found.answer, let source = store.origin(of: answer) ?? found.source {
            parts.append(answer.password == nil && answer.credential == nil
                ? "\(source) has only an expired token for \(location(of: answer)): a get answers with its username and refresh token, for the next helper to refresh"
                : "\(source) answers, with \(location(of: answer))")
        } else {
            parts.append("nothing found that a get would answer with")
        }
        for (source, reason) in found.passedOver { parts.append("\(source) was not read: " + (unread.map { "it " + $0 } ?? reason)) }
        return parts.joined(separator: "; ")
    }

    /// protocol://user@host/path of a credential, without any secret.
    static func location(of credential: Credential) -> String {
        let user = credential.username.map { $0.isEmpty ? "" : $0.text + "@" } ?? ""
        let path = credential.path.map { "/" + $0.text } ?? ""
        return "\(credential.protocol?.text ?? "")://\(user)\(credential.host?.text ?? "")\(path)"
    }
}
