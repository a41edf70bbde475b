/// One option of curl 7.88, as its option table names it (tool_getparam.c: the long name
/// without `--`, `--no-` forms under the name they negate: `-N` is `buffer`), its short
/// letter, how it takes its value, and whether credential-curl passes it on.
public struct CurlOption: Equatable, Sendable {
    /// How an option takes its value, and which rule its value answers to.
    public enum Kind: Equatable, Sendable {
        /// No value; its `--no-NAME` form is taken too when it is passed on.
        case flag
        /// A value that holds no control character: a line break in a header or the
        /// request line would add headers, or whole requests carrying the credential.
        case value
        /// A value that may hold anything: it goes only into the request body, framed by
        /// curl, or into the output (--write-out).
        case body
    }

    /// Why an option is not passed on; each has its one line (`CurlRefusal`).
    public enum Reason: Equatable, Sendable {
        case ownCredential, showsHeader, moreURLs, ours, locationTrusted, requestTarget, insecure, elsewhere
        /// Nothing of its own: not among the options passed on.
        case notPassedOn
    }

    public let name: String
    public let letter: UInt8?
    public let kind: Kind
    /// nil: passed on.
    public let refusal: Reason?
    /// Whether curl takes `--no-NAME` of this flag: not of one that picks one of several
    /// (--http2, --ipv4, --tlsv1.3: "isn't a boolean", and curl fails).
    public let negatable: Bool

    init(_ name: String, _ letter: Unicode.Scalar?, _ kind: Kind, refused refusal: Reason? = nil, negatable: Bool = true) {
        self.name = name
        self.letter = letter.map { UInt8($0.value) }
        self.kind = kind
        self.refusal = refusal
        self.negatable = kind == .flag && negatable
    }

    /// `-s/--silent`, `--max-time V`: as --help lists an option passed on.
    public var listed: String {
        (letter.map { "-" + String(UnicodeScalar($0)) + "/" } ?? "") + "--" + name + (kind == .flag ? "" : " V")
    }
}

/// curl's options, one row each: those passed on first, then those refused for a reason
/// of their own, then every other one. None of those passed on can add a URL, read curl
/// options, send the connection or the request elsewhere, replace the credential or show
/// it. Order matters in one place: an abbreviation (`--location-t`) is judged as the
/// first option refused for a reason of its own that it begins, as curl would read it.
/// Lookups are a walk of the array: no dictionary to hash at every start.
public enum CurlOptions {
    public static let table: [CurlOption] = [
        CurlOption("silent", "s", .flag),
        CurlOption("show-error", "S", .flag),
        CurlOption("fail", "f", .flag),
        CurlOption("fail-with-body", nil, .flag),
        CurlOption("fail-early", nil, .flag),
        CurlOption("location", "L", .flag),
        CurlOption("max-redirs", nil, .value),
        CurlOption("post301", nil, .flag),
        CurlOption("post302", nil, .flag),
        CurlOption("post303", nil, .flag),
        CurlOption("include", "i", .flag),
        CurlOption("head", "I", .flag),
        CurlOption("output", "o", .value),
        CurlOption("remote-name", "O", .flag),
        CurlOption("remote-header-name", "J", .flag),
        CurlOption("output-dir", nil, .value),
        CurlOption("create-dirs", nil, .flag),
        CurlOption("create-file-mode", nil, .value),
        CurlOption("clobber", nil, .flag),
        CurlOption("dump-header", "D", .value),
        CurlOption("write-out", "w", .body),
        CurlOption("progress-bar", "#", .flag),
        CurlOption("progress-meter", nil, .flag),
        CurlOption("request", "X", .value),
        CurlOption("header", "H", .value),
        CurlOption("user-agent", "A", .value),
        CurlOption("referer", "e", .value),
        CurlOption("cookie", "b", .value),
        CurlOption("cookie-jar", "c", .value),
        CurlOption("junk-session-cookies", "j", .flag),
        CurlOption("get", "G", .flag),
        CurlOption("data", "d", .body),
        CurlOption("data-binary", nil, .body),
        CurlOption("data-raw", nil, .body),
        CurlOption("data-ascii", nil, .body),
        CurlOption("data-urlencode", nil, .body),
        CurlOption("json", nil, .body),
        CurlOption("form", "F", .body),
        CurlOption("form-string", nil, .body),
        CurlOption("upload-file", "T", .value),
        CurlOption("range", "r", .value),
        CurlOption("continue-at", "C", .value),
        CurlOption("time-cond", "z", .value),
        CurlOption("remote-time", "R", .flag),
        CurlOption("etag-save", nil, .value),
        CurlOption("etag-compare", nil, .value),
        CurlOption("max-filesize", nil, .value),
        CurlOption("max-time", "m", .value),
        CurlOption("connect-timeout", nil, .value),
        CurlOption("expect100-timeout", nil, .value),
        CurlOption("keepalive-time", nil, .value),
        CurlOption("retry", nil, .value),
        CurlOption("retry-delay", nil, .value),
        CurlOption("retry-max-time", nil, .value),
        CurlOption("retry-connrefused", nil, .flag),
        CurlOption("retry-all-errors", nil, .flag),
        CurlOption("speed-limit", "Y", .value),
        CurlOption("speed-time", "y", .value),
        CurlOption("limit-rate", nil, .value),
        CurlOption("compressed", nil, .flag),
        CurlOption("tr-encoding", nil, .flag),
        CurlOption("http1.0", "0", .flag, negatable: false),
        CurlOption("http1.1", nil, .flag, negatable: false),
        CurlOption("http2", nil, .flag, negatable: false),
        CurlOption("http2-prior-knowledge", nil, .flag, negatable: false),
        CurlOption("ipv4", "4", .flag, negatable: false),
        CurlOption("ipv6", "6", .flag, negatable: false),
        CurlOption("noproxy", nil, .value),
        CurlOption("cacert", nil, .value),
        CurlOption("capath", nil, .value),
        CurlOption("cert", "E", .value),
        CurlOption("cert-type", nil, .value),
        CurlOption("key", nil, .value),
        CurlOption("key-type", nil, .value),
        CurlOption("crlfile", nil, .value),
        CurlOption("pinnedpubkey", nil, .value),
        CurlOption("ciphers", nil, .value),
        CurlOption("tls13-ciphers", nil, .value),
        CurlOption("curves", nil, .value),
        CurlOption("tls-max", nil, .value),
        CurlOption("tlsv1", "1", .flag, negatable: false),
        CurlOption("tlsv1.2", nil, .flag, negatable: false),
        CurlOption("tlsv1.3", nil, .flag, negatable: false),
        CurlOption("ssl-reqd", nil, .flag),
        CurlOption("proto", nil, .value),
        CurlOption("proto-redir", nil, .value),
        CurlOption("path-as-is", nil, .flag),
        CurlOption("raw", nil, .flag),
        CurlOption("buffer", "N", .flag),
        CurlOption("keepalive", nil, .flag),
        CurlOption("tcp-nodelay", nil, .flag),
        CurlOption("sessionid", nil, .flag),
        CurlOption("alpn", nil, .flag),
        CurlOption("url-query", nil, .value),
        // Refused for a reason of their own; an abbreviation is judged as the first of these it begins.
        CurlOption("user", "u", .value, refused: .ownCredential),
        CurlOption("verbose", "v", .flag, refused: .showsHeader),
        CurlOption("trace", nil, .value, refused: .showsHeader),
        CurlOption("trace-ascii", nil, .value, refused: .showsHeader),
        CurlOption("trace-time", nil, .flag, refused: .showsHeader),
        CurlOption("libcurl", nil, .value, refused: .showsHeader),
        CurlOption("stderr", nil, .value, refused: .showsHeader),
        CurlOption("url", nil, .value, refused: .moreURLs),
        CurlOption("next", ":", .flag, refused: .moreURLs),
        CurlOption("config", "K", .value, refused: .moreURLs),
        CurlOption("disable", "q", .flag, refused: .ours),
        CurlOption("parallel", "Z", .flag, refused: .moreURLs),
        CurlOption("remote-name-all", nil, .flag, refused: .moreURLs),
        CurlOption("location-trusted", nil, .flag, refused: .locationTrusted),
        CurlOption("request-target", nil, .value, refused: .requestTarget),
        CurlOption("insecure", "k", .flag, refused: .insecure),
        CurlOption("proxy-insecure", nil, .flag, refused: .insecure),
        CurlOption("doh-insecure", nil, .flag, refused: .insecure),
        CurlOption("proxy", "x", .flag, refused: .elsewhere),
        CurlOption("preproxy", nil, .flag, refused: .elsewhere),
        CurlOption("socks4", nil, .value, refused: .elsewhere),
        CurlOption("socks4a", nil, .value, refused: .elsewhere),
        CurlOption("socks5", nil, .value, refused: .elsewhere),
        CurlOption("socks5-hostname", nil, .value, refused: .elsewhere),
        CurlOption("resolve", nil, .value, refused: .elsewhere),
        CurlOption("connect-to", nil, .value, refused: .elsewhere),
        CurlOption("unix-socket", nil, .value, refused: .elsewhere),
        CurlOption("abstract-unix-socket", nil, .value, refused: .elsewhere),
        CurlOption("doh-url", nil, .value, refused: .elsewhere),
        CurlOption("dns-servers", nil, .value, refused: .elsewhere),
        CurlOption("interface", nil, .value, refused: .elsewhere),
        CurlOption("proxy-user", "U", .value, refused: .ownCredential),
        CurlOption("basic", nil, .flag, refused: .ownCredential),
        CurlOption("digest", nil, .flag, refused: .ownCredential),
        CurlOption("ntlm", nil, .flag, refused: .ownCredential),
        CurlOption("negotiate", nil, .flag, refused: .ownCredential),
        CurlOption("anyauth", nil, .flag, refused: .ownCredential),
        CurlOption("netrc", "n", .flag, refused: .ownCredential),
        CurlOption("netrc-file", nil, .value, refused: .ownCredential),
        CurlOption("netrc-optional", nil, .flag, refused: .ownCredential),
        CurlOption("oauth2-bearer", nil, .value, refused: .ownCredential),
        CurlOption("aws-sigv4", nil, .value, refused: .ownCredential),
        CurlOption("delegation", nil, .value, refused: .ownCredential),
        CurlOption("globoff", "g", .flag, refused: .ours),
        // Every other option of curl 7.88 (its --help all, and the aliases it keeps without help): not passed on.
        CurlOption("alt-svc", nil, .value, refused: .notPassedOn),
        CurlOption("append", "a", .flag, refused: .notPassedOn),
        CurlOption("cert-status", nil, .flag, refused: .notPassedOn),
        CurlOption("compressed-ssh", nil, .flag, refused: .notPassedOn),
        CurlOption("crlf", nil, .flag, refused: .notPassedOn),
        CurlOption("disable-eprt", nil, .flag, refused: .notPassedOn),
        CurlOption("disable-epsv", nil, .flag, refused: .notPassedOn),
        CurlOption("disallow-username-in-url", nil, .flag, refused: .notPassedOn),
        CurlOption("dns-interface", nil, .value, refused: .notPassedOn),
        CurlOption("dns-ipv4-addr", nil, .value, refused: .notPassedOn),
        CurlOption("dns-ipv6-addr", nil, .value, refused: .notPassedOn),
        CurlOption("doh-cert-status", nil, .flag, refused: .notPassedOn),
        CurlOption("egd-file", nil, .value, refused: .notPassedOn),
        CurlOption("engine", nil, .value, refused: .notPassedOn),
        CurlOption("false-start", nil, .flag, refused: .notPassedOn),
        CurlOption("form-escape", nil, .flag, refused: .notPassedOn),
        CurlOption("ftp-account", nil, .value, refused: .notPassedOn),
        CurlOption("ftp-alternative-to-user", nil, .value, refused: .notPassedOn),
        CurlOption("ftp-create-dirs", nil, .flag, refused: .notPassedOn),
        CurlOption("ftp-method", nil, .value, refused: .notPassedOn),
        CurlOption("ftp-pasv", nil, .flag, refused: .notPassedOn),
        CurlOption("ftp-port", "P", .value, refused: .notPassedOn),
        CurlOption("ftp-pret", nil, .flag, refused: .notPassedOn),
        CurlOption("ftp-skip-pasv-ip", nil, .flag, refused: .notPassedOn),
        CurlOption("ftp-ssl", nil, .flag, refused: .notPassedOn),
        CurlOption("ftp-ssl-ccc", nil, .flag, refused: .notPassedOn),
        CurlOption("ftp-ssl-ccc-mode", nil, .value, refused: .notPassedOn),
        CurlOption("ftp-ssl-control", nil, .flag, refused: .notPassedOn),
        CurlOption("ftp-ssl-reqd", nil, .flag, refused: .notPassedOn),
        CurlOption("happy-eyeballs-timeout-ms", nil, .value, refused: .notPassedOn),
        CurlOption("haproxy-protocol", nil, .flag, refused: .notPassedOn),
        CurlOption("help", "h", .value, refused: .notPassedOn),
        CurlOption("hostpubmd5", nil, .value, refused: .notPassedOn),
        CurlOption("hostpubsha256", nil, .value, refused: .notPassedOn),
        CurlOption("hsts", nil, .value, refused: .notPassedOn),
        CurlOption("http0.9", nil, .flag, refused: .notPassedOn),
        CurlOption("http3", nil, .flag, refused: .notPassedOn),
        CurlOption("http3-only", nil, .flag, refused: .notPassedOn),
        CurlOption("ignore-content-length", nil, .flag, refused: .notPassedOn),
        CurlOption("krb", nil, .value, refused: .notPassedOn),
        CurlOption("krb4", nil, .value, refused: .notPassedOn),
        CurlOption("list-only", "l", .flag, refused: .notPassedOn),
        CurlOption("local-port", nil, .value, refused: .notPassedOn),
        CurlOption("login-options", nil, .value, refused: .notPassedOn),
        CurlOption("mail-auth", nil, .value, refused: .notPassedOn),
        CurlOption("mail-from", nil, .value, refused: .notPassedOn),
        CurlOption("mail-rcpt", nil, .value, refused: .notPassedOn),
        CurlOption("mail-rcpt-allowfails", nil, .flag, refused: .notPassedOn),
        CurlOption("manual", "M", .flag, refused: .notPassedOn),
        CurlOption("metalink", nil, .flag, refused: .notPassedOn),
        CurlOption("npn", nil, .flag, refused: .notPassedOn),
        CurlOption("ntlm-wb", nil, .flag, refused: .notPassedOn),
        CurlOption("parallel-immediate", nil, .flag, refused: .notPassedOn),
        CurlOption("parallel-max", nil, .value, refused: .notPassedOn),
        CurlOption("pass", nil, .value, refused: .notPassedOn),
        CurlOption("proto-default", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-anyauth", nil, .flag, refused: .notPassedOn),
        CurlOption("proxy-basic", nil, .flag, refused: .notPassedOn),
        CurlOption("proxy-cacert", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-capath", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-cert", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-cert-type", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-ciphers", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-crlfile", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-digest", nil, .flag, refused: .notPassedOn),
        CurlOption("proxy-header", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-key", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-key-type", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-negotiate", nil, .flag, refused: .notPassedOn),
        CurlOption("proxy-ntlm", nil, .flag, refused: .notPassedOn),
        CurlOption("proxy-pass", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-pinnedpubkey", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-service-name", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-ssl-allow-beast", nil, .flag, refused: .notPassedOn),
        CurlOption("proxy-ssl-auto-client-cert", nil, .flag, refused: .notPassedOn),
        CurlOption("proxy-tls13-ciphers", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-tlsauthtype", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-tlspassword", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-tlsuser", nil, .value, refused: .notPassedOn),
        CurlOption("proxy-tlsv1", nil, .flag, refused: .notPassedOn),
        CurlOption("proxy1.0", nil, .value, refused: .notPassedOn),
        CurlOption("proxytunnel", "p", .flag, refused: .notPassedOn),
        CurlOption("pubkey", nil, .value, refused: .notPassedOn),
        CurlOption("quote", "Q", .value, refused: .notPassedOn),
        CurlOption("random-file", nil, .value, refused: .notPassedOn),
        CurlOption("rate", nil, .value, refused: .notPassedOn),
        CurlOption("remove-on-error", nil, .flag, refused: .notPassedOn),
        CurlOption("sasl-authzid", nil, .value, refused: .notPassedOn),
        CurlOption("sasl-ir", nil, .flag, refused: .notPassedOn),
        CurlOption("service-name", nil, .value, refused: .notPassedOn),
        CurlOption("socks5-basic", nil, .flag, refused: .notPassedOn),
        CurlOption("socks5-gssapi", nil, .flag, refused: .notPassedOn),
        CurlOption("socks5-gssapi-nec", nil, .flag, refused: .notPassedOn),
        CurlOption("socks5-gssapi-service", nil, .value, refused: .notPassedOn),
        CurlOption("ssl", nil, .flag, refused: .notPassedOn),
        CurlOption("ssl-allow-beast", nil, .flag, refused: .notPassedOn),
        CurlOption("ssl-auto-client-cert", nil, .flag, refused: .notPassedOn),
        CurlOption("ssl-no-revoke", nil, .flag, refused: .notPassedOn),
        CurlOption("ssl-revoke-best-effort", nil, .flag, refused: .notPassedOn),
        CurlOption("sslv2", "2", .flag, refused: .notPassedOn),
        CurlOption("sslv3", "3", .flag, refused: .notPassedOn),
        CurlOption("styled-output", nil, .flag, refused: .notPassedOn),
        CurlOption("suppress-connect-headers", nil, .flag, refused: .notPassedOn),
        CurlOption("tcp-fastopen", nil, .flag, refused: .notPassedOn),
        CurlOption("telnet-option", "t", .value, refused: .notPassedOn),
        CurlOption("test-event", nil, .flag, refused: .notPassedOn),
        CurlOption("tftp-blksize", nil, .value, refused: .notPassedOn),
        CurlOption("tftp-no-options", nil, .flag, refused: .notPassedOn),
        CurlOption("tlsauthtype", nil, .value, refused: .notPassedOn),
        CurlOption("tlspassword", nil, .value, refused: .notPassedOn),
        CurlOption("tlsuser", nil, .value, refused: .notPassedOn),
        CurlOption("tlsv1.0", nil, .flag, refused: .notPassedOn),
        CurlOption("tlsv1.1", nil, .flag, refused: .notPassedOn),
        CurlOption("use-ascii", "B", .flag, refused: .notPassedOn),
        CurlOption("version", "V", .flag, refused: .notPassedOn),
        CurlOption("xattr", nil, .flag, refused: .notPassedOn),
    ]

    /// The option of that whole long name (as curl 7.88 names it, lower case), nil for none.
    public static func named(_ name: some Collection<UInt8>) -> CurlOption? {
        table.first { $0.name.utf8.elementsEqual(name) }
    }

    /// The option of that short letter (case matters: -v is not -V), nil for none.
    public static func lettered(_ letter: UInt8) -> CurlOption? {
        table.first { $0.letter == letter }
    }

    /// The options passed on, in the table's order.
    public static var passedOn: [CurlOption] { table.filter { $0.refusal == nil } }

    /// The long options passed on, as a shell completes them.
    public static var completions: [String] { passedOn.map { "--" + $0.name } }
}
