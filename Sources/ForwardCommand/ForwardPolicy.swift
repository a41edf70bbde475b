import CredentialCore

/// What one forward may ask: the serving end's choice, never the remote's. Only get unless
/// store or erase is allowed; only the hosts listed (none listed: nothing); and, if asked
/// for, the person's yes on their desktop for each request.
struct ForwardPolicy {
    /// The remote's name (`serve NAME`): in the socket's name, the log and the question.
    var name: String
    var hosts: [HostPattern] = []
    var allowStore = false
    var allowErase = false
    var confirm = false

    /// A host as `--host` gives it: HOST (every port of it) or HOST:PORT (that port only),
    /// compared without regard to case, as host names are.
    struct HostPattern: Equatable {
        let host: String
        let port: String?

        init(_ text: String) throws(HelperError) {
            let lowered = text.lowercased()
            let allowed = lowered.utf8.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || [0x2E, 0x2D, 0x5F, 0x3A, 0x5B, 0x5D].contains(byte)
            }
            guard !lowered.isEmpty, allowed, lowered.first != ":" else {
                throw HelperError(.usage, "--host \(Trace.quoted(text)) is not a host name or host:port",
                                  fix: "give the host as git names it, without scheme or path: --host github.com, --host git.example.com:8443")
            }
            // HOST, HOST:PORT, [IPV6] or [IPV6]:PORT.
            let hostEnd = lowered.hasPrefix("[") ? lowered.firstIndex(of: "]").map { lowered.index(after: $0) } : lowered.firstIndex(of: ":")
            let end = hostEnd ?? lowered.endIndex
            let rest = lowered[end...]
            let digits = rest.dropFirst()
            guard rest.isEmpty || (rest.first == ":" && !digits.isEmpty && digits.count <= 5 && digits.allSatisfy(\.isNumber) && Int(digits)! <= 65535),
                  end > lowered.startIndex else {
                throw HelperError(.usage, "--host \(Trace.quoted(text)) is not HOST or HOST:PORT", fix: "give the host as git names it: --host git.example.com:8443")
            }
            (host, port) = (String(lowered[..<end]), rest.isEmpty ? nil : String(rest.dropFirst()))
        }

        func matches(_ requestHost: String) -> Bool {
            let asked = requestHost.lowercased()
            if let port { return asked == host + ":" + port }
            if asked == host { return true }
            guard asked.hasPrefix(host + ":") else { return false }
            // A port as git writes one: 1 to 65535, no leading zero.
            let rest = String(asked.dropFirst(host.count + 1))
            return Int(rest).map { (1...65535).contains($0) && String($0) == rest } ?? false
        }

        var text: String { port.map { host + ":" + $0 } ?? host }
    }

    /// What the remote may ask: get, and store and erase where allowed.
    var actions: [String] { ["get"] + (allowStore ? ["store"] : []) + (allowErase ? ["erase"] : []) }

    /// RFC 3986's scheme, in lower case as git writes it: a letter, then letters, digits, '+', '-', '.'.
    static func isScheme(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, first >= 0x61 && first <= 0x7A else { return false }
        return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || [0x2B, 0x2D, 0x2E].contains($0) }
    }

    /// A NAME for a socket's file name and a log: letters, digits, '.', '-', '_'.
    static func checkName(_ name: String) throws(HelperError) {
        let fine = !name.isEmpty && name.count <= 64 && name.first != "." && name.first != "-"
            && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || [0x2E, 0x2D, 0x5F].contains($0) }
        guard fine else {
            throw HelperError(.usage, "\(Trace.quoted(name)) cannot name a forward: use letters, digits, '.', '-' and '_' (at most 64, not first '.' or '-')",
                              fix: "name it as you name the host in ssh: git-credential-forward serve build-server --host github.com")
        }
    }

    enum Decision: Equatable {
        case answer
        case refuse(ForwardWire.Refusal, why: String)

        var reason: ForwardWire.Refusal? {
            if case .refuse(let reason, _) = self { return reason }
            return nil
        }
    }

    /// Whether `action` on `request` may go to the person's helpers (before any
    /// confirmation): the host first (nothing is done for a host not listed), then the action.
    func decide(_ action: ForwardWire.Action, _ request: Credential) -> Decision {
        guard let scheme = request.protocol, let host = request.host?.text else {
            return .refuse(.notAllowed, why: "the request names no protocol and host")
        }
        // git matches credential.<url>.* against PROTOCOL://HOST as written: a protocol
        // holding "://" and a host of its own would choose another host's helpers.
        guard Self.isScheme(scheme.bytes) else {
            return .refuse(.badRequest, why: "the protocol \(ForwardLog.quoted(scheme)) is not a URL scheme (lower-case letters, digits, '+', '-', '.')")
        }
        guard hosts.contains(where: { $0.matches(host) }) else {
            let allow = (try? HostPattern(host)) != nil ? " (serve \(name) with --host \(ShellWord.quoted(host)) \(hosts.isEmpty ? "" : "added to its others ")allows it)" : ""
            return .refuse(.notAllowed, why: hosts.isEmpty ? "no host is allowed for \(name) yet" + allow
                : "\(ForwardLog.quoted(Value(host))) is not among the hosts allowed for \(name)" + allow)
        }
        switch action {
        case .store where !request.isStorable:
            return .refuse(.badRequest, why: "nothing to store: the request holds no username and password")
        case .store where !allowStore:
            return .refuse(.actionNotAllowed, why: "not stored: store is not allowed for \(name) (serve --allow-store allows it)")
        case .erase where (request.username?.isEmpty ?? true) || ((request.password?.isEmpty ?? true) && (request.credential?.isEmpty ?? true)):
            // git's reject names the credential the server refused; an erase without
            // one would erase every account of the host (an empty password too: a helper
            // that ignores it, as git's store does, would erase the user's).
            return .refuse(.badRequest, why: "not erased: the request names no username and password (git's reject names both)")
        case .erase where !allowErase:
            return .refuse(.actionNotAllowed, why: "not erased: erase is not allowed for \(name) (serve --allow-erase allows it)")
        default: return .answer
        }
    }
}
