import CredentialCore

/// The refusal of a caller's option, as the cause and fix of one line.
public enum CurlRefusal {
    /// `written`: the option as written (`--LOCATION-T`, `-u (in -sSu...)`); `name`: curl's
    /// name for it as written, the long name or the short letter.
    public static func of(_ written: String, named name: [UInt8]) -> HelperError {
        let long = name.count > 1
        // curl takes long names in any case (--LOCATION-T is --location-trusted): judged in
        // lower case, passed on only as written in lower case.
        let lower = name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        if long, lower != name, let option = CurlOptions.named(lower), option.refusal == nil {
            return HelperError(.usage, "\(written): credential-curl takes option names in lower case only", fix: "write --\(text(lower))")
        }
        // The option it is, or else the first one refused for a reason of its own that it
        // begins (curl's abbreviations).
        let exact = long ? CurlOptions.named(lower) : name.first.flatMap(CurlOptions.lettered)
        let prefix = long ? CurlOptions.table.first { $0.refusal != nil && $0.refusal != .notPassedOn && $0.name.utf8.starts(with: lower) } : nil
        if exact == nil, long {
            let abbreviated = CurlOptions.passedOn.filter { $0.name.utf8.starts(with: lower) && !$0.name.utf8.elementsEqual(lower) }
            if !abbreviated.isEmpty {
                return HelperError(.usage, "\(written) is an abbreviation, and credential-curl judges whole option names only (curl would take it for any option it begins)",
                                   fix: "write it in full: " + abbreviated.map { "--" + $0.name }.joined(separator: " or "))
            }
        }
        guard let option = exact ?? prefix, let reason = option.refusal else {
            return HelperError(.usage, "\(written) is not one of the curl options credential-curl passes on (see credential-curl --help)",
                               fix: "leave it out, or run plain curl with a credential of your own")
        }
        let subject = exact == nil ? "\(written) (--\(option.name) abbreviated)" : written
        let (cause, fix) = because(reason)
        return HelperError(.usage, subject + " " + cause, fix: fix)
    }

    /// What an option refused for `reason` would do, and the fix.
    public static func because(_ reason: CurlOption.Reason) -> (cause: String, fix: String) {
        switch reason {
        case .ownCredential:
            ("is curl's own authentication, which credential-curl would override with git's credential",
             "for your own credential run plain curl (curl -u USER URL)")
        case .showsHeader:
            ("would print or write the Authorization header",
             "leave it out (GIT_CREDENTIAL_TRACE=1 shows what credential-curl does), or debug with plain curl and a test credential")
        case .moreURLs:
            ("would make curl read more options or request more URLs, and send the credential to each",
             "give credential-curl one URL, last, and run it once per URL")
        case .locationTrusted:
            ("would send the credential to every host a redirect names", "use --location, which keeps it for URL's own host")
        case .requestTarget:
            ("would name another URL in the request line, where a proxy or a virtual host takes it, with the credential",
             "put the path in the URL")
        case .insecure:
            ("would let a man in the middle take the credential", "give the server's CA certificate with --cacert FILE")
        case .elsewhere:
            ("would send the connection, and the credential, elsewhere than URL's host",
             "run plain curl with a credential of your own for that")
        case .ours:
            ("is what credential-curl passes itself (curl -q --globoff: no ~/.curlrc, no URL globbing)", "leave it out")
        case .notPassedOn:
            ("is not one of the curl options credential-curl passes on (see credential-curl --help)",
             "leave it out, or run plain curl with a credential of your own")
        }
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
