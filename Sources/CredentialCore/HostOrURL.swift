/// The HOST-OR-URL that people give list, erase and which, read one way for all of them:
/// `github.com`, `github.com:8443`, `alice@github.com/org/repo`, `https://github.com`,
/// `https://alice@github.com:8443/org/repo`.
///
/// A URL means what git would send for it: its protocol, its host and port exactly
/// (`https://github.com` is the default port only, as git sees it), and its user and path
/// when it has them. A host alone means the host, whatever the protocol, path and user,
/// and on every port unless it names one: a person typing `github.com` means GitHub, and
/// would not guess that an item stored for `github.com:8443` is another host.
public struct HostOrURL: Equatable, Sendable {
    /// The fields to match exactly, as a request: those the text leaves out match anything.
    public var request: Credential
    /// A host given without a port (and without a protocol) matches it on any port too.
    public var anyPort: Bool

    public init(request: Credential, anyPort: Bool) {
        self.request = request
        self.anyPort = anyPort
    }

    /// What people type, or a usage error naming the text and what is wrong with it.
    public static func parse(_ text: String) throws -> HostOrURL {
        let shown = Trace.quoted(text)
        let isURL = text.contains("://")
        var request: Credential
        do {
            // A host alone is read as a URL without its protocol, so that a user, port
            // and path read the same way in both.
            request = try CredentialURL.parse(Value(isURL ? text : "x://" + text))
        } catch {
            throw HelperError(.usage, "\(shown) is not a host or a URL git would send: \(error.message)",
                              fix: "give a host (github.com, github.com:8443) or a URL (https://alice@github.com/org/repo)")
        }
        if !isURL { request.protocol = nil }
        // A password on the command line is seen by every user's ps: never ask for one there.
        guard request.password == nil else {
            throw HelperError(.usage, "\(Trace.redactingURLPasswords(shown)) holds a password",
                              fix: "leave the password out: a host or URL selects by protocol, host, port, path and user")
        }
        guard let host = request.host, !host.isEmpty || request.path != nil else {
            throw HelperError(.usage, "\(shown) names no host", fix: "give a host, or use erase-all to erase everything")
        }
        return HostOrURL(request: request, anyPort: !isURL && Self.port(of: host) == nil)
    }

    /// Whether a stored item is one this names.
    public func matches(_ item: Credential) -> Bool {
        if item.isMatched(by: request, for: .lookup) { return true }
        guard anyPort, let host = item.host, Self.port(of: host) != nil else { return false }
        var onDefaultPort = item
        onDefaultPort.host = Self.withoutPort(host)
        return onDefaultPort.isMatched(by: request, for: .lookup)
    }

    /// The exact requests that erase what this names from `items` (a store's list): one
    /// per host it matches, so that a host alone erases it on every port.
    public func requests(covering items: [Credential]) -> [Credential] {
        guard anyPort else { return [request] }
        var hosts: [Value] = []
        for item in items where matches(item) {
            if let host = item.host, !hosts.contains(host) { hosts.append(host) }
        }
        return hosts.map { host in
            var exact = request
            exact.host = host
            return exact
        }
    }

    /// The port of `host:port` (digits after the last colon, after any `]` of an IPv6
    /// address), or `nil`. Written as a number is written (no leading zero), so that
    /// host and port give back the very host stored (`list --format json` splits them).
    public static func port(of host: Value) -> UInt16? {
        guard let colon = host.bytes.lastIndex(of: 0x3A), !host.bytes[colon...].contains(0x5D) else { return nil }
        let digits = host.bytes[(colon + 1)...]
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ (0x30...0x39).contains($0) }),
              digits.first != 0x30 || digits.count == 1 else { return nil }
        return UInt16(exactly: digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
    }

    /// The host of `host:port` without its port.
    public static func withoutPort(_ host: Value) -> Value {
        guard port(of: host) != nil, let colon = host.bytes.lastIndex(of: 0x3A) else { return host }
        return Value(Array(host.bytes[..<colon]))
    }
}
