import CredentialCore

/// What the two ends say to each other, one request per connection (docs/ARCHITECTURE.md,
/// "Forwarding"). The remote sends `git-credential-forward/1 ACTION`, then git's request in
/// git's own format; the serving end may first say how long it may take (`wait SECONDS`:
/// a person confirms, or their own helper asks them), then answers `answer` and git's
/// lines, `none REASON` or `pong NAME`. Credentials cross only in git's format, read on
/// both ends by the strict codec (WireFormat), never in these framing lines.
enum ForwardWire {
    static let version = "git-credential-forward/1"
    /// A framing line is short; a longer one is not ours.
    static let lineLimit = 256
    /// A request carries a few short fields (wwwauth[] at most a few kilobytes).
    static let requestLimit = 1 << 20
    /// How long the serving end says it may take, at most: the remote waits no longer.
    static let longestWait = 150

    enum Action: String, CaseIterable {
        case get, store, erase, ping
    }

    /// Why nothing was answered (the remote's trace and doctor show it; git sees a miss).
    enum Refusal: String {
        case nothing, notAllowed = "not-allowed", actionNotAllowed = "action-not-allowed", declined, busy, badRequest = "bad-request"
        /// The person's git picks the host's account by the repository's path, and the
        /// request names none (git there sends it with credential.useHttpPath).
        case pathNeeded = "path-needed"
    }

    enum Reply: Equatable {
        case answer(Credential)
        case none(String)
        case pong(String)
    }

    static func request(_ action: Action, _ credential: Credential) -> [UInt8] {
        Array("\(version) \(action.rawValue)\n".utf8) + WireFormat.request(credential)
    }

    /// The action of a request's first line; nil for anything else.
    static func action(of line: [UInt8]) -> Action? {
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix(version + " ") else { return nil }
        return Action(rawValue: String(text.dropFirst(version.count + 1)))
    }

    static func answer(_ credential: Credential, for request: Credential) -> [UInt8] {
        Array("answer\n".utf8) + WireFormat.response(credential, for: request) + [0x0A]
    }

    static func none(_ reason: Refusal) -> [UInt8] { Array("none \(reason.rawValue)\n".utf8) }
    static func wait(_ seconds: Int) -> [UInt8] { Array("wait \(seconds)\n".utf8) }
    static func pong(_ name: String) -> [UInt8] { Array("pong \(name)\n".utf8) }

    /// The reply on `connection`, read strictly: the first `patience` seconds for the first
    /// line, as long as a `wait` line says after it (never past `longestWait`). nil when
    /// nothing whole came in time or it is not this protocol (`why` says which).
    static func reply(on connection: inout ForwardConnection, patience: Double) -> (reply: Reply?, why: String) {
        let start = ForwardConnection.now
        var deadline = start + patience
        while let line = connection.line(until: deadline, limit: lineLimit) {
            let words = String(decoding: line, as: UTF8.self).split(separator: " ", maxSplits: 1).map(String.init)
            switch (words.first ?? "", words.count) {
            case ("wait", 2):
                guard let seconds = Int(words[1]), seconds > 0 else { return (nil, "a wait line that is not a number of seconds") }
                deadline = min(ForwardConnection.now + Double(seconds), start + Double(longestWait))
            case ("answer", 1):
                guard let block = connection.block(until: deadline, limit: requestLimit) else { return (nil, "an answer that did not come whole in time") }
                do { return (.answer(try WireFormat.parse(block)), "answered") } catch {
                    return (nil, "an answer that is not git's credential format (\(error.message))")
                }
            case ("none", 2): return (.none(words[1]), "answered nothing (\(Trace.quoted(words[1])))")
            case ("pong", 2): return (.pong(words[1]), "answered")
            default: return (nil, "a line that is not this protocol")
            }
        }
        return (nil, connection.ended ? "the connection closed without an answer" : "no answer within \(Int(deadline - start)) seconds")
    }
}
