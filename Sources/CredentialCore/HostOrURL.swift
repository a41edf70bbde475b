/// The HOST-OR-URL that people give list, erase and which, read one way for all of them:
/// `github.com`, `github.com:8443`, `alice@github.com/org/repo`, `https://github.com`,
/// `https://alice@github.com:8443/org/repo`.
///
/// A URL means what git would send for it: its protocol, its host and port exactly
/// (`https://github.com` is the default port only, as git sees it), its user, and its
/// path except for http and https, for which git sends none by default. A host alone means the host, whatever the protocol, path and user,
/// and on every port unless it names one: a person typing `github.com` means GitHub, and
/// would not guess that an item stored for `github.com:8443` is another host.
public struct HostOrURL: Equatable, Sendable {
    /// The fields to match exactly, as a request: those the text leaves out match anything.
    public var request: Credential
    /// A host given without a port (and without a protocol) matches it on any port too.
    public var anyPort: Bool
    /// An http(s) URL's path: git sends none by default, so items stored without a path
    /// are the URL's; an item stored with another path (credential.useHttpPath) is another
    /// repository's, never selected.
    public var httpPath: Value?

    public init(request: Credential, anyPort: Bool, httpPath: Value? = nil) {
        self.request = request
        self.anyPort = anyPort
        self.httpPath = httpPath
    }

    /// What people type, or a usage error naming the text and what is wrong with it.
    /// `everything` is how the command says "every host" instead (`leave it out to list
    /// everything`), for the fix of a text that names none: the fix fits the command.
    public static func parse(_ text: String, everything: String) throws -> HostOrURL {
        let shown = Trace.quoted(text)
        let isURL = text.contains("://")
        let examples = "give a host (github.com, github.com:8443) or a URL (https://alice@github.com/org/repo)"
        var request: Credential
        do {
            // A host alone is read as a URL without its protocol, so that a user, port
            // and path read the same way in both.
            request = try CredentialURL.parse(Value(isURL ? text : "x://" + text))
        } catch {
            throw HelperError(.usage, "\(shown) is not a host or a URL git would send: \(error.message)", fix: examples)
        }
        if !isURL { request.protocol = nil }
        // git sends no path for http and https (unless credential.useHttpPath is set), so
        // what it stores has none: the URL a repository was cloned with selects its host.
        var httpPath: Value?
        if isURL, let scheme = request.protocol, scheme == Value("http") || scheme == Value("https") { (httpPath, request.path) = (request.path, nil) }
        // A password on the command line is seen by every user's ps: never ask for one there.
        guard request.password == nil else {
            throw HelperError(.usage, "\(Trace.redactingURLPasswords(shown)) holds a password",
                              fix: "leave the password out: a host or URL selects by protocol, host, port, path and user")
        }
        guard let host = request.host else { throw noHost(shown, everything: everything) }
        // After a colon (outside an IPv6 address's brackets) comes a port, and only a port
        // as `port(of:)` reads one: `host:99999`, `host:0443` or `host:abc` is a typo that
        // would select nothing, or (`:8443`) no host at all.
        if let colon = host.bytes.lastIndex(of: 0x3A), !host.bytes[colon...].contains(0x5D) {
            guard port(of: host) != nil else {
                throw HelperError(.usage, "\(shown) is not a host[:port]: \(Trace.quoted(Array(host.bytes[(colon + 1)...]))) is no port"
                                  + " (1 to 65535, without a leading zero)", fix: examples)
            }
            guard colon > 0 else { throw noHost(shown, everything: everything) }
        }
        guard !host.isEmpty || request.path != nil else { throw noHost(shown, everything: everything) }
        return HostOrURL(request: request, anyPort: !isURL && Self.port(of: host) == nil, httpPath: httpPath)
    }

    static func noHost(_ shown: String, everything: String) -> HelperError {
        HelperError(.usage, "\(shown) names no host", fix: "give a host, or \(everything)")
    }

    /// Whether a stored item is one this names.
    public func matches(_ item: Credential) -> Bool {
        if let httpPath, let path = item.path, path != httpPath { return false }
        if item.isMatched(by: request, for: .lookup) { return true }
        guard anyPort, let host = item.host, Self.port(of: host) != nil else { return false }
        var onDefaultPort = item
        onDefaultPort.host = Self.withoutPort(host)
        return onDefaultPort.isMatched(by: request, for: .lookup)
    }

    /// The exact requests that erase what this names from `items` (a store's list): one
    /// per host it matches, so that a host alone erases it on every port.
    public func requests(covering items: [Credential]) -> [Credential] {
        if httpPath != nil {
            // Each item's own key: a request without the path would erase the other
            // repositories' items too. An item stored without a path can only be erased by
            // such a request: it is left when another path's item has the same key.
            var requests: [Credential] = []
            for item in items where matches(item) {
                var exact = request
                (exact.protocol, exact.host, exact.path, exact.username) = (item.protocol, item.host, item.path, item.username)
                if items.contains(where: { !matches($0) && $0.isMatched(by: exact, for: .lookup) }) { continue }
                if !requests.contains(exact) { requests.append(exact) }
            }
            return requests
        }
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
    /// address), or `nil`. A port is 1 to 65535 (0 is "no port" to git's libsecret helper),
    /// written as a number is written (no leading zero), so that host and port give back
    /// the very host stored (`list --format json` splits them).
    public static func port(of host: Value) -> UInt16? {
        guard let colon = host.bytes.lastIndex(of: 0x3A), !host.bytes[colon...].contains(0x5D) else { return nil }
        let digits = host.bytes[(colon + 1)...]
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ (0x30...0x39).contains($0) }),
              digits.first != 0x30 else { return nil }
        return UInt16(exactly: digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
    }

    /// The host of `host:port` without its port.
    public static func withoutPort(_ host: Value) -> Value {
        guard port(of: host) != nil, let colon = host.bytes.lastIndex(of: 0x3A) else { return host }
        return Value(Array(host.bytes[..<colon]))
    }
}
