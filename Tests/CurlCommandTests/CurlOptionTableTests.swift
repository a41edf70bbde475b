import CredentialCore
import CurlCommand
import Foundation
import Testing

/// credential-curl's option table, one test case per row (every option of curl 7.88), read
/// through CurlArguments as a call would read it: no process.
@Suite struct CurlOptionTableTests {
    static let url = Array("http://127.0.0.1/x".utf8)

    static func read(_ arguments: [String]) -> Result<CurlRequest, HelperError> {
        do throws(HelperError) {
            return .success(try CurlArguments.read(arguments.map { Array($0.utf8) } + [url]))
        } catch {
            return .failure(error)
        }
    }

    static func refusal(_ arguments: [String]) -> String? {
        if case .failure(let error) = read(arguments) { return error.line(program: "credential-curl") }
        return nil
    }

    static func passed(_ arguments: [String]) -> [String]? {
        if case .success(let request) = read(arguments) { return request.options.map { String(decoding: $0, as: UTF8.self) } }
        return nil
    }

    /// curl 7.88's own list (`curl --help all`, Tests/Fixtures): each of its options is a
    /// row, with its letter and whether it takes a value; and the table has no other row
    /// but the aliases curl keeps without help.
    @Test func theTableIsCurl788sOptions() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/curl-7.88-help-all.txt")
        let help = try String(contentsOf: fixture, encoding: .utf8)
        var listed: Set<String> = []
        for line in help.split(separator: "\n") {
            guard let match = line.firstMatch(of: /^ *(?:-(.), )?--([a-z0-9.-]+)( <)?/) else { continue }
            var name = String(match.2)
            let negated = ["no-alpn", "no-buffer", "no-clobber", "no-keepalive", "no-npn", "no-progress-meter", "no-sessionid"]
            if negated.contains(name) { name.removeFirst(3) }
            listed.insert(name)
            let row = try #require(CurlOptions.named(Array(name.utf8)), "--\(name) is no row of the table")
            #expect(row.letter.map { String(UnicodeScalar($0)) } == match.1.map(String.init), "--\(name)'s letter")
            #expect((row.kind != .flag) == (match.3 != nil), "--\(name) takes a value: \(match.3 != nil)")
        }
        let unlisted = Set(CurlOptions.table.map(\.name)).subtracting(listed)
        #expect(unlisted == ["ftp-ssl", "ftp-ssl-reqd", "krb4", "test-event"], "\(unlisted)")
        #expect(CurlOptions.table.count == Set(CurlOptions.table.map(\.name)).count, "a row twice")
    }

    /// Each row as a caller writes it: passed on as written (its value next), or refused in
    /// one line with its reason's cause and fix, by long name and by letter.
    @Test(arguments: CurlOptions.table)
    func eachRow(option: CurlOption) throws {
        let long = "--" + option.name
        let letter = option.letter.map { "-" + String(UnicodeScalar($0)) }
        let value = option.name == "request" ? "PUT" : option.name == "header" ? "X-A: 1" : "1"
        guard let reason = option.refusal else {
            switch option.kind {
            case .flag:
                #expect(Self.passed([long]) == [long])
                if option.negatable {
                    #expect(Self.passed(["--no-" + option.name]) == ["--no-" + option.name], "--no-NAME of a flag")
                } else {
                    // curl: "used '--no-' for option that isn't a boolean" (credential-curl attack round).
                    #expect(Self.refusal(["--no-" + option.name])?.contains("is not one of the curl options") == true, "--no- of a version")
                }
                if let letter { #expect(Self.passed([letter]) == [letter]) }
            case .value, .body:
                let expected = option.name == "write-out" ? [] : [long, value]
                #expect(Self.passed([long, value]) == expected)
                if let letter {
                    #expect(Self.passed([letter, value]) == (option.name == "write-out" ? [] : [letter, value]))
                    // The value in the rest of the word, after a cluster of flags.
                    #expect(Self.passed(["-s" + letter.dropFirst() + value]) == ["-s"] + (option.name == "write-out" ? [] : [letter, value]))
                }
                // The URL taken for the value (no method: -X's own rule says so first).
                let noURL = option.name == "request" ? "credential-curl: -X 'http://127.0.0.1/x' is not an HTTP method"
                    : "credential-curl: no URL given: the last argument is the value of \(long)"
                #expect(Self.refusal([long]).map { $0.hasPrefix(noURL) } == true, "\(Self.refusal([long]) ?? "")")
                #expect(Self.refusal(["--no-" + option.name])?.contains("is not one of the curl options") == true, "--no- of a value")
                // A control character: in a body only.
                let control = Self.refusal([long, value + "\r\nX-B: 1"])
                if option.kind == .body {
                    #expect(control == nil, "\(control ?? "")")
                } else {
                    #expect(control?.hasPrefix("credential-curl: the \(long) value holds a control character") == true, "\(control ?? "")")
                }
            }
            #expect(Self.refusal([long + "=" + value]) == "credential-curl: \(long)=...: curl takes no --option=value, and would fail on it. Fix: give the value as the next argument: \(long) VALUE")
            #expect(Self.refusal(["--" + option.name.uppercased()]) == "credential-curl: --\(option.name.uppercased()): credential-curl takes option names in lower case only. Fix: write \(long)")
            return
        }
        let (cause, fix) = CurlRefusal.because(reason)
        #expect(Self.refusal([long]) == "credential-curl: \(long) \(cause). Fix: \(fix)")
        if let letter {
            #expect(Self.refusal([letter]) == "credential-curl: \(letter) \(cause). Fix: \(fix)")
            #expect(Self.refusal(["-sS" + letter.dropFirst()]) == "credential-curl: \(letter) (in -sS\(letter.dropFirst())) \(cause). Fix: \(fix)")
        }
        // In capitals: judged as the lower-case name, still refused.
        #expect(Self.refusal(["--" + option.name.uppercased()]) != nil)
    }

    // MARK: Abbreviations, capitals, clusters

    @Test(arguments: [
        (["--loc"], "--loc is an abbreviation, and credential-curl judges whole option names only (curl would take it for any option it begins). Fix: write it in full: --location"),
        (["--sil"], "--sil is an abbreviation, and credential-curl judges whole option names only (curl would take it for any option it begins). Fix: write it in full: --silent"),
        (["--location-t"], "--location-t (--location-trusted abbreviated) would send the credential to every host a redirect names. Fix: use --location, which keeps it for URL's own host"),
        (["--LOCATION-T"], "--LOCATION-T (--location-trusted abbreviated) would send the credential to every host a redirect names. Fix: use --location, which keeps it for URL's own host"),
        (["--verb"], "--verb (--verbose abbreviated) would print or write the Authorization header. Fix: leave it out (GIT_CREDENTIAL_TRACE=1 shows what credential-curl does), or debug with plain curl and a test credential"),
        (["--conf"], "--conf (--config abbreviated) would make curl read more options or request more URLs, and send the credential to each. Fix: give credential-curl one URL, last, and run it once per URL"),
        (["--SILENT"], "--SILENT: credential-curl takes option names in lower case only. Fix: write --silent"),
        (["--no-globoff"], "--no-globoff is not one of the curl options credential-curl passes on (see credential-curl --help). Fix: leave it out, or run plain curl with a credential of your own"),
        (["-sSv"], "-v (in -sSv) would print or write the Authorization header. Fix: leave it out (GIT_CREDENTIAL_TRACE=1 shows what credential-curl does), or debug with plain curl and a test credential"),
        (["-sSualice:x"], "-u (in -sSu...) is curl's own authentication, which credential-curl would override with git's credential. Fix: for your own credential run plain curl (curl -u USER URL)"),
        (["-"], "- alone is not an option curl takes. Fix: leave it out"),
        (["-X", "GET /x"], "-X 'GET /x' is not an HTTP method (one word: letters, digits, -), and would change the request line, where a proxy reads where to send the credential. Fix: give a method such as -X PUT"),
        (["-H", "@file"], "-H @file reads headers from a file, which credential-curl cannot check. Fix: give each header as -H 'NAME: VALUE'"),
        (["-H", " Authorization : x"], "-H authorization: credential-curl sends the Authorization header itself. Fix: for your own credential run plain curl"),
        (["-H", "Host: a"], "-H host would send the credential to another site served at URL's address. Fix: put that host in the URL"),
        (["-H", "transfer-encoding;"], "-H transfer-encoding would let the body pass for another request, which could take the credential elsewhere. Fix: leave it out: curl frames the body itself"),
        (["-H", " X-A: 1"], "the -H value starts with a space or a tab, which makes a server read it as the end of the header before it (the credential's). Fix: start it with the header's name"),
        (["-H", "X A: 1"], "-H 'X A: 1' does not start with a header name (letters, digits, -). Fix: give each header as -H 'NAME: VALUE'"),
        (["-w", "@f"], "credential-curl cannot combine with --write-out @FILE. Fix: give the format inline"),
        (["-w", "x%"], "the -w format ends inside a %-sequence (a lone %, or %{ or %NAME{ without its }), which would swallow what credential-curl adds after it to see the answer. Fix: finish it, or write a literal % as %%"),
        (["-sw%{header_json"], "the -w format ends inside a %-sequence (a lone %, or %{ or %NAME{ without its }), which would swallow what credential-curl adds after it to see the answer. Fix: finish it, or write a literal % as %%"),
        (["-s", "-w", "%%%header{x"], "the -w format ends inside a %-sequence (a lone %, or %{ or %NAME{ without its }), which would swallow what credential-curl adds after it to see the answer. Fix: finish it, or write a literal % as %%"),
        // Re-test: a format too long for curl's config line made curl fail with its own two lines.
        (["-w", String(repeating: "w", count: 102_300)], "the -w format is too long for the curl config line credential-curl hands it in (100 KiB, escaped). Fix: shorten it, or write the format to a file and give it to plain curl as -w @FILE"),
        // Attack round: a trailing \ made curl read ours as \%, and print our line on stdout.
        (["-w", "ok\\"], "the -w format ends in a lone \\, which would swallow what credential-curl adds after it to see the answer. Fix: write a literal \\ as \\\\"),
        (["-w", "%{url}\\\\\\"], "the -w format ends in a lone \\, which would swallow what credential-curl adds after it to see the answer. Fix: write a literal \\ as \\\\"),
        (["--url-query", "+a b"], "the --url-query value '+a b' would put a space or a byte that is not ASCII in the request line as it is (curl encodes only what follows = or @, and nothing after a leading +). Fix: percent-encode that part yourself (%20), or put it after ="),
        (["--url-query", "+é=1"], "the --url-query value '+é=1' would put a space or a byte that is not ASCII in the request line as it is (curl encodes only what follows = or @, and nothing after a leading +). Fix: percent-encode that part yourself (%20), or put it after ="),
        (["--url-query", "a b=1"], "the --url-query value 'a b=1' would put a space or a byte that is not ASCII in the request line as it is (curl encodes only what follows = or @, and nothing after a leading +). Fix: percent-encode that part yourself (%20), or put it after ="),
        (["--url-query", "é@file"], "the --url-query value 'é@file' would put a space or a byte that is not ASCII in the request line as it is (curl encodes only what follows = or @, and nothing after a leading +). Fix: percent-encode that part yourself (%20), or put it after ="),
        (["--url-query", "a=b\r\nX: 1"], "the --url-query value holds a control character, which would add headers or whole requests to what curl sends (with the credential). Fix: leave it out; only a body (-d, --data-*, --json, -F, --form-string) or --write-out may hold one"),
    ] as [([String], String)])
    func refusedAsTheScriptRefusedThem(arguments: [String], line: String) {
        #expect(Self.refusal(arguments) == "credential-curl: " + line)
    }

    /// Clusters and values in the same word, rewritten one option a word; --url-query's
    /// values that curl encodes (or that need none); the write-out format kept apart.
    @Test(arguments: [
        (["-sSo", "FILE"], ["-s", "-S", "-o", "FILE"]),
        (["-XPOST"], ["-X", "POST"]),
        (["-sSfXPUT", "-Hx-test: 1"], ["-s", "-S", "-f", "-X", "PUT", "-H", "x-test: 1"]),
        (["-sSN#", "--no-buffer"], ["-s", "-S", "-N", "-#", "--no-buffer"]),
        (["--url-query", "a=b é&c=d"], ["--url-query", "a=b é&c=d"]),
        (["--url-query", "=a b"], ["--url-query", "=a b"]),
        (["--url-query", "a b"], ["--url-query", "a b"]),
        (["--url-query", "+a=%20"], ["--url-query", "+a=%20"]),
        (["-d", "a\r\nb", "--", ], ["-d", "a\r\nb"]),
        // Finished escapes: \\ is one, and %\ is curl's % and \ as they are.
        (["-w", "a\\\\"], []),
        (["-w", "100%\\"], []),
        // curl 7.88 knows %{...} and %header{...} only: %a{ is % and a, then text.
        (["-w", "%a{"], []),
        (["-w", "%theader{"], []),
    ] as [([String], [String])])
    func passedOnRewritten(arguments: [String], options: [String]) {
        #expect(Self.passed(arguments) == options)
    }

    @Test func theWriteOutFormatIsKeptApart() throws {
        let request = try CurlArguments.read(["-sSw[%{http_code}]", "http://h/"].map { Array($0.utf8) })
        #expect(request.writeOut == Array("[%{http_code}]".utf8) && request.options == [Array("-s".utf8), Array("-S".utf8)])
        #expect(request.url == Array("http://h/".utf8))
    }

    @Test func oneURLOnly() {
        do throws(HelperError) {
            _ = try CurlArguments.read([Self.url, Array("http://alice:pw\u{1}x@127.0.0.2/".utf8)])
            Issue.record("two URLs were taken")
        } catch {
            #expect(error.line(program: "credential-curl") == "credential-curl: http://alice:<redacted>@127.0.0.2/ is a second URL, and curl would send the credential to each. Fix: give one URL, and run credential-curl once per URL")
        }
        #expect(Self.refusal(["-e"]).map { $0.hasPrefix("credential-curl: no URL given: the last argument is the value of -e.") } == true)
        do throws(HelperError) {
            _ = try CurlArguments.read([Array("-s".utf8)])
            Issue.record("no URL was taken")
        } catch {
            #expect(error.line(program: "credential-curl") == "credential-curl: no URL given. Fix: credential-curl [curl options] URL")
        }
        // After --, everything is a URL: -v there is the one URL.
        #expect((try? CurlArguments.read(["--", "-v"].map { Array($0.utf8) }))?.url == Array("-v".utf8))
    }

    /// A header name is judged as bytes: an invalid UTF-8 byte after it changes nothing.
    @Test func headerNamesAreBytes() {
        do throws(HelperError) {
            _ = try CurlArguments.read([Array("-H".utf8), Array("Host: a".utf8) + [0xFF], Self.url])
            Issue.record("a Host header passed")
        } catch {
            #expect(error.message.hasPrefix("-H host would"))
        }
    }

    /// The URL's origin as curl compares them, and the URL checks: a scheme in any case;
    /// what git and curl would read as two hosts is refused.
    @Test(arguments: [
        ("HTTP://Example.COM/x", "http://example.com:80"), ("https://h:0443/", "https://h:443"), ("http://[::1]:8/", "http://[::1]:8"),
        ("http://a:b@h:1/p?q#f", "http://h:1"), ("ftp://h/", nil), ("http://{a,b}/", nil), ("http://h:x/", nil), ("http:///x", nil),
    ] as [(String, String?)])
    func origins(url: String, origin: String?) {
        #expect(CurlURL.origin(Array(url.utf8)) == origin)
    }

    @Test(arguments: [
        ("HTTPS://h/x", nil),
        ("http://h/a b", "the URL 'http://h/a b' holds a space or a control character"),
        ("ftp://h/", "the URL must be http:// or https://"),
        ("http://", "the URL must be http:// or https://"),
        ("http://[1-2]/", "'http://[1-2]/' names no host and port"),
        ("http://%68/", "the host name in 'http://%68/' is percent-encoded"),
        ("http://\u{24DB}/", "the host name in 'http://\u{24DB}/' is not ASCII"),
        ("http://a@b@h/", "git reads the host of 'http://a@b@h/' as b@h, curl as h"),
        // Attack round: an unencoded @ in a password showed its tail, in the URL and as git's host.
        ("http://bob:p@ssw0rd@h/", "git reads the host of 'http://bob:<redacted>@h/' as <redacted>@h, curl as h"),
        ("http://bob@SECRET10:x@h/", "git reads the host of 'http://bob@SECRET10:<redacted>@h/' as "),
        // A percent-encoded line break: git's lookup refuses it, said as such.
        ("http://h/%0a", "git's credential lookup cannot read 'http://h/%0a': "),
        ("http://[::1%25lo]:1/", "'http://[::1%25lo]:1/' names no host and port curl could reach (a glob, {a,b} or [1-2], would be several; an IPv6 address takes no zone here)"),
    ] as [(String, String?)])
    func urlChecks(url: String, refusal: String?) {
        do throws(HelperError) {
            try CurlURL.check(Array(url.utf8))
            #expect(refusal == nil)
        } catch {
            #expect(refusal.map { error.message.hasPrefix($0) } == true, "\(error.message)")
            #expect(!error.message.contains("ssw0rd") && !error.message.contains(":x@"), "\(error.message)")
        }
    }

    /// Which flags curl takes as booleans (`--no-NAME`), asked of the curl installed here
    /// (Debian 12's 7.88): a flag the table calls negatable must not make curl fail with
    /// "isn't a boolean", and one it does not must (the attack round found --no-http2
    /// passed on, and curl failing with two lines of its own).
    @Test func theTableNegatesTheFlagsCurlNegates() throws {
        let curl = try #require(Subprocess.which("curl"), "curl is not installed")
        for option in CurlOptions.table where option.kind == .flag && option.refusal == nil {
            // Port 9 on loopback: refused at once, after curl has read its options.
            let result = try #require(Subprocess.run(curl, ["-q", "--no-" + option.name, "--max-time", "5", "-sS", "-o", "/dev/null", "http://127.0.0.1:9/"]))
            #expect(String(decoding: result.errors, as: UTF8.self).contains("isn't a boolean") == !option.negatable, "--no-\(option.name): \(result.lastErrorLine)")
        }
    }
}
