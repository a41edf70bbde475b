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
        default: break
        }
    }

    enum Outcome {
        case answer(Credential)
        case nothing
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
        if case .answer(let found)? = reply { return .answer(found) }
        return .nothing
    }
}
