/// How git decides that `credential.<pattern>.*` applies to a request (urlmatch.c
/// match_urls, and credential.c's fallback for a pattern that is not a whole URL): the
/// one rule, so that what status, doctor and list say git runs for a URL is what git runs.
enum URLPattern {
    /// A URL's parts as urlmatch.c normalises them: scheme and host lowercased, the
    /// scheme's default port made explicit, an empty path made `/`.
    struct Parts: Equatable {
        var scheme: String
        var user: String?
        var host: String
        var port: String
        var path: String

        /// `nil` for what is not `scheme://host...` (git's partial patterns, below).
        init?(_ url: String) {
            guard let colon = url.firstIndex(of: ":"), colon != url.startIndex, url[colon...].hasPrefix("://") else { return nil }
            scheme = url[..<colon].lowercased()
            var rest = url[url.index(colon, offsetBy: 3)...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<slash]
            rest = rest[slash...]
            if let at = authority.lastIndex(of: "@") {
                // A password never takes part in the match.
                user = String(authority[..<at].prefix { $0 != ":" })
                authority = authority[authority.index(after: at)...]
            }
            if let colon = authority.lastIndex(of: ":"), !authority.contains("]") || authority.last != "]" {
                host = authority[..<colon].lowercased()
                port = String(authority[authority.index(after: colon)...])
            } else {
                host = authority.lowercased()
                port = ""
            }
            if port.isEmpty { port = ["http": "80", "https": "443", "ftp": "21", "ftps": "990"][scheme] ?? "" }
            path = rest.isEmpty ? "/" : String(rest)
            guard !host.isEmpty else { return nil }
        }
    }

    /// Whether the key `credential.<pattern>.*` applies to a request for `url`. A `url`
    /// without `scheme://` (`configure --url github.com`, a partial pattern as git reads
    /// it) stands for the https requests to it: what git asks there.
    static func matches(_ pattern: String, _ url: String) -> Bool {
        guard let request = Parts(url) ?? Parts("https://" + url) else { return false }
        guard let want = Parts(pattern) else { return matchesPartial(pattern, request) }
        return want.scheme == request.scheme && (want.user == nil || want.user == request.user)
            && hostMatches(want.host, request.host) && want.port == request.port && pathMatches(want.path, request.path)
    }

    /// urlmatch.c url_match_prefix: the pattern's path, without a trailing `/`, is the
    /// request's path or a whole-segment prefix of it (`/a` covers `/a/b`, not `/ab`).
    static func pathMatches(_ prefix: String, _ path: String) -> Bool {
        let prefix = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        guard path.hasPrefix(prefix) else { return false }
        let rest = path.dropFirst(prefix.count)
        return rest.isEmpty || rest.first == "/"
    }

    /// urlmatch.c match_host: as many dot-separated labels, each a glob where `*` stands
    /// for any characters but a dot.
    static func hostMatches(_ pattern: String, _ host: String) -> Bool {
        let patterns = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return patterns.count == labels.count && zip(patterns, labels).allSatisfy { glob(Array($0), Array($1)) }
    }

    static func glob(_ pattern: [Character], _ text: [Character]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" { return (0...text.count).contains { glob(Array(pattern.dropFirst()), Array(text.dropFirst($0))) } }
        return text.first == first && glob(Array(pattern.dropFirst()), Array(text.dropFirst()))
    }

    /// credential.c match_partial_url: a pattern without `scheme://` (`example.com`,
    /// `example.com/repo.git`) names a host and maybe a path, each compared whole.
    static func matchesPartial(_ pattern: String, _ request: Parts) -> Bool {
        let slash = pattern.firstIndex(of: "/") ?? pattern.endIndex
        let host = pattern[..<slash], path = pattern[slash...].drop { $0 == "/" }
        let requestHost = ["80", "443", "21", "990", ""].contains(request.port) ? request.host : request.host + ":" + request.port
        return (host.isEmpty || host.lowercased() == requestHost) && (path.isEmpty || path == request.path.drop { $0 == "/" })
    }
}
