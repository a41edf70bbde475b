import ArgumentParser
import CredentialCore

/// credential-curl as the argument parser sees it: for --help, --version, the man page and
/// the shells' completions only (CredentialCurl.start runs everything else). Its text is
/// made from the option table, so that what --help lists is what is passed on.
public struct CredentialCurlCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "credential-curl",
        abstract: "Run curl with the credential git would use for the URL.",
        discussion: """
            The credential comes from `git credential fill` (so every credential.helper of \
            your global and system git configuration works, never a repository's, and git \
            asks when nothing is stored), made into an Authorization header (Basic, or the \
            helper's own authtype and credential, such as a Bearer token, when git passes \
            them on) and handed to curl on a pipe, never in arguments, the environment or a \
            file. Standard input stays the caller's (-d @-, -T -). After a 2xx from URL's own \
            origin (scheme, host and port) the credential is approved (stored), after a 401 \
            from it rejected (erased), which one line on stderr says, even with -s (it \
            silences curl, not credential-curl). Exits with curl's status.

            The credential goes to exactly one origin, URL's: curl runs as `curl -q --globoff` \
            (no ~/.curlrc, no URL globbing) with that one URL, and keeps the header for URL's \
            host, port and scheme across redirects. The scheme may be written in any case \
            (HTTP://), as curl takes it. Only the curl options listed below are passed on; \
            any other is refused (exit 2), abbreviations and capitals too (curl takes both): \
            write options in full, in lower case.

            Refused, and why: -u/--user (credential-curl's credential would override yours: \
            run plain curl -u); -v/--verbose, --trace*, --libcurl, --stderr (they print or \
            write the header); --url, -:/--next, -K/--config, -q, a second URL (the header \
            would go to every URL); --location-trusted (it would go to every host a redirect \
            names); -k/--insecure (a man in the middle would get it); proxies, --resolve, \
            --connect-to, --unix-socket, --doh-url (the connection would go elsewhere); \
            --request-target (a proxy or a virtual host would take the URL it names); curl's \
            own authentication and netrc options; a -H naming Authorization, Host, \
            Content-Length or Transfer-Encoding, starting with a space or tab, or -H @FILE; a \
            -X that is not one word; a --url-query whose part curl leaves unencoded (a name \
            before = or @, or all after a leading +) holds a space or a byte that is not \
            ASCII; a control character (a line break would add \
            headers or requests) in any value but a body's (-d, --data-*, --json, -F, \
            --form-string) or --write-out's.

            The environment's http_proxy, https_proxy and all_proxy are honoured, as git \
            honours them: to an https:// URL a proxy sees only a tunnel; a plain http:// URL \
            shows the credential to the proxy, as to every hop on the way.

            The curl options credential-curl passes on (V: takes a value), and --no-NAME of \
            those without a value but the HTTP, IP and TLS versions:
            \(optionLines)

            Examples:
              credential-curl -s https://api.example.com/v1/things
              echo '{"a":1}' | credential-curl -d @- https://api.example.com/v1/things
              credential-curl -fsS -D headers.txt -o body.json https://example.com/api
            """,
        version: Version.line("credential-curl"))

    /// The options passed on, a few to a line (each line short of 80 columns: the parser
    /// wraps a longer one at a space, which would split `-H/--header V`).
    static var optionLines: String {
        var lines: [String] = [], line = ""
        for item in CurlOptions.passedOn.map(\.listed) {
            if !line.isEmpty && line.count + item.count + 2 > 76 {
                lines.append(line)
                line = ""
            }
            line += "  " + item
        }
        return (lines + [line]).joined(separator: "\n")
    }

    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("curl options (those listed above), then the one URL, http:// or https://.", valueName: "curl-options-and-url"),
              completion: .list(CurlOptions.completions))
    var words: [String] = []

    public init() {}

    /// Never reached: CredentialCurl.start runs a request without the parser.
    public func run() throws {
        throw HelperError(.usage, "credential-curl runs a request only as credential-curl [curl options] URL", fix: "see credential-curl --help")
    }
}
