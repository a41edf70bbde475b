import CredentialCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one URL credential-curl sends the credential to: the checks that make git's
/// credential lookup and curl read the same host, and its origin (scheme, host, port) as
/// curl compares origins before it sends the header again after a redirect.
public enum CurlURL {
    /// Refuses a URL that git and curl could read as two different hosts, or that names
    /// none curl could reach (a glob would be several).
    public static func check(_ url: [UInt8]) throws(HelperError) {
        let shown = shown(url)
        if url.contains(where: { CurlValues.isControl($0) || $0 == 0x20 }) {
            throw HelperError(.usage, "the URL '\(shown)' holds a space or a control character, which could change what git's credential lookup reads",
                              fix: "percent-encode it (%20, %0A)")
        }
        // The scheme in any case, as curl takes it (HTTP://host).
        guard let scheme = scheme(of: url), scheme == "http" || scheme == "https", url.count > scheme.utf8.count + 3 else {
            throw HelperError(.usage, "the URL must be http:// or https://, not '\(shown)'", fix: "credential-curl [curl options] URL")
        }
        guard origin(url) != nil else {
            throw HelperError(.usage, "'\(shown)' names no host and port curl could reach (a glob, {a,b} or [1-2], would be several; an IPv6 address takes no zone here)",
                              fix: "give one URL with a plain host name, and a port of digits")
        }
        // curl decodes a percent-encoded host name and maps a non-ASCII one (IDNA: ⓛocalhost
        // is localhost), git does neither: they would name two hosts.
        let authority = self.authority(url)
        if authority.contains(UInt8(ascii: "%")) {
            throw HelperError(.usage, "the host name in '\(shown)' is percent-encoded, which git and curl read differently",
                              fix: "write the host name plainly")
        }
        if authority.contains(where: { $0 >= 0x80 }) {
            throw HelperError(.usage, "the host name in '\(shown)' is not ASCII, which curl maps to another name (IDNA) and git does not",
                              fix: "write it in ASCII (punycode, xn--...)")
        }
        // Whatever else git reads otherwise (its user part ends at the first @, curl's at
        // the last): git would be asked for another host's credential, or prompt for it.
        let parsed: Credential
        do { parsed = try CredentialURL.parse(Value(forGit(url))) } catch {
            throw HelperError(.usage, "git's credential lookup cannot read '\(shown)': \(error.message)",
                              fix: "leave that out of the URL (git refuses a percent-encoded control character, %0A or %00, anywhere in it)")
        }
        let gitsHost = parsed.host?.bytes.map(lowercased) ?? []
        let cursHost = authority.map(lowercased)
        guard gitsHost.elementsEqual(cursHost) else {
            // A host git reads with an @ in it holds part of the user name, or of the
            // password when there is one (a : before curl's last @): redacted as shown() does.
            let password = shown.contains(Trace.redacted)
            let gits = gitsHost.lastIndex(of: UInt8(ascii: "@")).flatMap { at in password ? Trace.redacted + String(decoding: gitsHost[at...], as: UTF8.self) : nil }
                ?? String(decoding: gitsHost, as: UTF8.self)
            throw HelperError(.usage, "git reads the host of '\(shown)' as \(gits.isEmpty ? "none" : gits), curl as \(String(decoding: cursHost, as: UTF8.self)): the credential git gives would be for another host",
                              fix: "percent-encode an @ or : of the user name or password (%40, %3A), or leave them out of the URL")
        }
    }

    /// The URL as git's credential lookup is asked for it: the scheme in lower case, as
    /// git and its helpers compare protocols (`HTTP` would be a protocol of its own).
    public static func forGit(_ url: [UInt8]) -> [UInt8] {
        guard let scheme = scheme(of: url) else { return url }
        return Array(scheme.utf8) + url.dropFirst(scheme.utf8.count)
    }

    /// The scheme before `://`, in lower case; nil without one.
    static func scheme(of url: [UInt8]) -> String? {
        guard let end = find(Array("://".utf8), in: url[...]) else { return nil }
        return String(decoding: url[..<end].map(lowercased), as: UTF8.self)
    }

    /// After `://`, up to the path, query or fragment, after the last `@`: host and port.
    static func authority(_ url: [UInt8]) -> ArraySlice<UInt8> {
        guard let start = find(Array("://".utf8), in: url[...]) else { return [] }
        let rest = url[(start + 3)...]
        let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        let hostAndPort = rest[..<end]
        return hostAndPort.lastIndex(of: UInt8(ascii: "@")).map { hostAndPort[($0 + 1)...] } ?? hostAndPort
    }

    /// `scheme://host:port`, scheme and host in lower case, the port a number (the
    /// scheme's default when not given); nil when there is none: no scheme, no host, a
    /// port that is not digits, a host that is a glob ({a,b} or [1-2]).
    public static func origin(_ url: some Collection<UInt8>) -> String? {
        let url = Array(url)
        guard let scheme = scheme(of: url), !scheme.isEmpty else { return nil }
        let authority = self.authority(url)
        var host: ArraySlice<UInt8>, port: ArraySlice<UInt8>
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[...close]
            port = authority[(close + 1)...]
        } else if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            host = authority[..<colon]
            port = authority[colon...]
        } else {
            host = authority
            port = []
        }
        if !port.isEmpty {
            guard port.first == UInt8(ascii: ":"), port.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            port = port.dropFirst()
        }
        if host.first == UInt8(ascii: "[") {
            let inside = host.dropFirst().dropLast()
            guard host.count > 2, inside.allSatisfy({ Hex.value(of: $0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return nil }
        } else if host.contains(where: { "[]{}".utf8.contains($0) }) {
            return nil
        }
        guard !host.isEmpty else { return nil }
        var number: String
        if port.isEmpty {
            guard let defaultPort = scheme == "https" ? "443" : scheme == "http" ? "80" : nil else { return nil }
            number = defaultPort
        } else {
            number = String(decoding: port.drop { $0 == UInt8(ascii: "0") }, as: UTF8.self)
            if number.isEmpty { number = "0" }
        }
        return scheme + "://" + String(decoding: host.map(lowercased), as: UTF8.self) + ":" + number
    }

    /// An argument as an error line shows it: a URL's password redacted, then (never before:
    /// a ? would end the password early and show the rest) control characters as ?.
    public static func shown(_ text: [UInt8]) -> String {
        var text = text
        if let first = text.first, CurlValues.isLetter(first), let schemeEnd = find(Array("://".utf8), in: text[...]),
           text[..<schemeEnd].allSatisfy({ CurlValues.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || "+.-".utf8.contains($0) }) {
            // The password as either reads it: curl's user part ends at the authority's last
            // @, git's at its first, and both take the password from the first : in it.
            let after = text[(schemeEnd + 3)...]
            let authorityEnd = after.firstIndex { "/?#".utf8.contains($0) } ?? after.endIndex
            if let at = after[..<authorityEnd].lastIndex(of: UInt8(ascii: "@")),
               let colon = after[..<at].firstIndex(of: UInt8(ascii: ":")) {
                text = Array(text[...colon]) + Array(Trace.redacted.utf8) + Array(text[at...])
            }
        }
        return String(decoding: text.map { CurlValues.isControl($0) ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
    }

    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// Where `needle` starts in `haystack` (its index there), by libc's memchr and memcmp:
    /// curl's stderr is searched for the marker as it passes, whatever its size.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay -> Int? in
            needle.withUnsafeBytes { pin -> Int? in
                guard let base = hay.baseAddress, let wanted = pin.baseAddress else { return nil }
                let last = hay.count - pin.count
                var offset = 0
                while offset <= last, let found = memchr(base + offset, Int32(first), last - offset + 1) {
                    let at = UnsafeRawPointer(found) - base
                    if memcmp(found, wanted, pin.count) == 0 { return haystack.startIndex + at }
                    offset = at + 1
                }
                return nil
            }
        }
    }
}
