import CredentialCore
import HelperCommand

#if canImport(Glibc)
import Glibc
#endif

/// The remote end: git's get, store and erase passed through the forwarded socket to the
/// person's machine, and its answer relayed. Nothing is kept: the request and the answer
/// live in this process's memory and the socket only.
enum ForwardClient {
    /// How long the serving end has to say anything: one round trip over ssh, and its
    /// `git credential fill` of a local store, take milliseconds.
    static let patience = 5.0

    static func run(_ action: ForwardWire.Action, socket option: String?) throws {
        Trace.enter(action.rawValue)
        let program = "git-credential-forward"
        if TerminalInput.isTerminal {
            guard action == .get else {
                throw HelperError(.usage, "\(action.rawValue) reads git's request on standard input, which is a terminal here",
                                  fix: "git runs it; to try it: printf 'protocol=https\\nhost=HOST\\n\\n' | \(program) get")
            }
            TerminalInput.sayWhatIsRead("get reads git's request from the terminal: key=value lines (protocol=https, host=example.com), then an empty line")
        }
        let request: Credential
        do { request = try WireFormat.read(from: 0) } catch {
            throw error.asInputError(action == .get ? "nothing was looked up" : action == .store ? "nothing was stored" : "nothing was erased")
        }
        Trace.note("request " + Trace.describe(request))
        if action == .get && !request.isCompleteLookup {
            Trace.note("the request names no protocol and host (or path): nothing asked")
            return
        }
        guard let sessions = ForwardSockets.remote(option: option) else {
            Trace.note("no socket: neither --socket, \(ForwardSockets.variableName) nor HOME is set")
            return
        }
        switch ask(action, request, through: sessions) {
        case .answer(var found) where action == .get:
            // What authenticates only, whatever the other end sent: a refresh token would
            // be stored by the helpers here (serve sends none).
            found.oauthRefreshToken = nil
            SystemIO.writeAll(1, WireFormat.response(found, for: request))
            Trace.note("answered " + Trace.describe(found.withoutSecrets))
        case .refused(let error):
            // One line, and git goes on to its next helper (a get) or on its way.
            if action == .get {
                SystemIO.writeAll(2, error.line(program: program) + "\n")
                return
            }
            throw error
        case .none(let reason):
            if let told = told(action, request, reason) { SystemIO.writeAll(2, told.line(program: program) + "\n") }
        default: break
        }
    }

    /// What the person on the remote is told of a refusal, in one line, where git would
    /// otherwise say only that authentication failed (or nothing), again and again.
    static func told(_ action: ForwardWire.Action, _ request: Credential, _ reason: String) -> HelperError? {
        let host = request.host.map { Trace.quoted($0.bytes) } ?? "this host"
        switch (ForwardWire.Refusal(rawValue: reason), action) {
        case (.pathNeeded?, _):
            return HelperError(.unavailable, "your machine picks the account for \(host) by the repository's path, and git here sends none, so it answered nothing",
                               fix: AccountsByPath.remoteFix)
        case (.actionNotAllowed?, .erase):
            return HelperError(.unavailable, "your machine did not erase the credential for \(host) that the server refused (its serve does not allow erase), so the next command gets it again",
                               fix: "change or remove it on your machine, or serve there with --allow-erase")
        case (.actionNotAllowed?, .store):
            return HelperError(.unavailable, "your machine did not store the credential for \(host) used here (its serve does not allow store)",
                               fix: "store it on your machine, or serve there with --allow-store")
        default: return nil
        }
    }

    enum Outcome {
        case answer(Credential)
        case nothing
        /// The serving end's `none REASON`.
        case none(String)
        case refused(HelperError)
    }

    /// The serving end's reply to one request, or why there is none (in the trace).
    static func ask(_ action: ForwardWire.Action, _ request: Credential, through sessions: RemoteSessions) -> Outcome {
        var connection: ForwardConnection
        switch sessions.connect() {
        case .connected(let opened, let path):
            Trace.note("asking through \(Trace.quoted(path))")
            connection = opened
        case .nobody(let why):
            Trace.note(why + ": nothing asked")
            return .nothing
        case .unbound(let error), .untrusted(let error): return .refused(error)
        }
        defer { connection.close() }
        guard connection.write(ForwardWire.request(action, request), until: ForwardConnection.now + patience) else {
            Trace.note("cannot send the request: the other end closed the connection")
            return .nothing
        }
        let (reply, why) = ForwardWire.reply(on: &connection, patience: patience)
        Trace.note("the serving end " + why)
        switch reply {
        case .answer(let found)?: return .answer(found)
        case .none(let reason)?: return .none(reason)
        default: return .nothing
        }
    }
}
