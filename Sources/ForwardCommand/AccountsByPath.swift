import CredentialCore
import HelperCommand

/// Whether the person's git picks the account of a protocol and host by the repository's
/// path: a `credential.<url>.*` line whose URL has a path (the README's username per
/// organisation), or `useHttpPath` true there (a credential per repository). A request
/// without a path would then be answered with the account git here uses for no
/// repository in particular, and git's reject of it there (the server refused it for
/// that repository) would erase that other account here. git on the remote sends the
/// path with `credential.useHttpPath true` (setup prints it).
enum AccountsByPath {
    /// The line the remote is told when it matters.
    static let remoteFix = "git config --global credential.useHttpPath true"

    static func matter(for request: Credential) -> Bool {
        // An empty path, or slashes alone, names no repository either.
        guard request.path?.bytes.allSatisfy({ $0 == 0x2F }) ?? true, let scheme = request.protocol?.text, let host = request.host?.text else { return false }
        let found = configured()
        return found.everywhere || found.places.contains { ($0.scheme.map { $0 == scheme.lowercased() } ?? true) && hostMatches($0.host, host.lowercased()) }
    }

    /// Where the person's git picks accounts by path: everywhere (useHttpPath true for
    /// every URL), or the URLs' places.
    static func configured() -> (everywhere: Bool, places: [(scheme: String?, host: String)]) {
        guard let listed = GitConfig.runOutsideAnyRepository(["config", "-z", "--get-regexp", #"^credential\."#], timeoutSeconds: 10),
              listed.succeeded else { return (false, []) }
        return configured(in: listed.output)
    }

    /// `listing`: `git config -z --get-regexp`'s entries, each the key, then a newline and
    /// the value (none for a bare boolean), each ended by a NUL.
    static func configured(in listing: [UInt8]) -> (everywhere: Bool, places: [(scheme: String?, host: String)]) {
        var everywhere = false
        var places: [(scheme: String?, host: String)] = []
        for entry in listing.split(separator: 0, omittingEmptySubsequences: true) {
            let parts = entry.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(decoding: parts[0], as: UTF8.self)
            let value = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
            // credential.<url>.<variable>: the URL is what lies between the first and last dot.
            guard key.hasPrefix("credential."), let last = key.lastIndex(of: ".") else { continue }
            let variable = key[key.index(after: last)...].lowercased()
            let start = key.index(key.startIndex, offsetBy: "credential.".count)
            let url = last > start ? String(key[start..<last]) : ""
            let byPath = variable == "usehttppath" && isTrue(value)
            if url.isEmpty {
                everywhere = everywhere || byPath
            } else if let place = place(of: url), !place.path.isEmpty || byPath {
                places.append((place.scheme, place.host))
            }
        }
        return (everywhere, places)
    }

    /// A configuration URL's scheme (nil: git's older form, a host alone), host (with its
    /// port, without a user) and path (without its slashes at either end).
    static func place(of url: String) -> (scheme: String?, host: String, path: String)? {
        var rest = Substring(url)
        var scheme: String?
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(colon, offsetBy: 3)...]
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count).split(separator: "/").joined(separator: "/")
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last.map { $0.lowercased() } ?? ""
        return host.isEmpty ? nil : (scheme, host, path)
    }

    /// git's host match: the same host and port, or `*.` standing for one label.
    static func hostMatches(_ pattern: String, _ host: String) -> Bool {
        guard pattern.hasPrefix("*.") else { return pattern == host }
        guard let dot = host.firstIndex(of: ".") else { return false }
        return host[dot...] == pattern.dropFirst()
    }

    /// git's boolean: a bare key, true, yes, on, or a number other than 0.
    static func isTrue(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return true }
        return ["true", "yes", "on"].contains(value) || (Int(value).map { $0 != 0 } ?? false)
    }
}
