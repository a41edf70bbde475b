import Testing
@testable import CredentialCore

@Suite("HostOrURL: what list, erase and which read as HOST-OR-URL")
struct HostOrURLTests {
    /// As list reads it.
    func parse(_ text: String) throws -> HostOrURL { try HostOrURL.parse(text, everything: "leave it out to list everything") }

    static func item(_ protocol: Value, _ host: Value, path: Value? = nil, user: Value = "alice") -> Credential {
        Credential(protocol: `protocol`, host: host, path: path, username: user)
    }

    @Test func eachFormReadsAsARequest() throws {
        let bare = try parse("github.com")
        #expect(bare == HostOrURL(request: Credential(host: "github.com"), anyPort: true))
        #expect(try parse("github.com:8443") == HostOrURL(request: Credential(host: "github.com:8443"), anyPort: false))
        #expect(try parse("https://github.com") == HostOrURL(request: Credential(protocol: "https", host: "github.com"), anyPort: false))
        // git sends no path for http(s) (credential.useHttpPath aside): a clone URL selects its
        // host, and of the items stored with a path (useHttpPath), only its own (httpPath).
        #expect(try parse("https://user@github.com:8443/path/")
                == HostOrURL(request: Credential(protocol: "https", host: "github.com:8443", username: "user"), anyPort: false, httpPath: "path"))
        #expect(try parse("http://github.com/org/repo.git").request == Credential(protocol: "http", host: "github.com"))
        #expect(try parse("ssh://github.com/org/repo.git").request == Credential(protocol: "ssh", host: "github.com", path: "org/repo.git"))
        #expect(try parse("alice@github.com/org/repo")
                == HostOrURL(request: Credential(host: "github.com", path: "org/repo", username: "alice"), anyPort: true))
        #expect(try parse("[::1]").anyPort && !parse("[::1]:8443").anyPort)
        #expect(try parse("cert:///etc/cert.pem").request == Credential(protocol: "cert", host: "", path: "etc/cert.pem"))
    }

    @Test func aHostAloneCoversEveryPortAURLOnlyItsOwn() throws {
        let bare = try parse("github.com"), url = try parse("https://github.com")
        for host: Value in ["github.com", "github.com:8443", "github.com:1"] {
            #expect(bare.matches(Self.item("https", host)) && bare.matches(Self.item("http", host)), "\(host)")
        }
        #expect(url.matches(Self.item("https", "github.com")) && !url.matches(Self.item("https", "github.com:8443")))
        // Not a port: no digits, a port too long, another host with the same start.
        for host: Value in ["github.com:", "github.com:abc", "github.com:123456", "github.com:65536", "github.com:0443", "github.com:0", "github.community", "github.com.evil", "evil.github.com"] {
            #expect(!bare.matches(Self.item("https", host)), "\(host)")
        }
        #expect(try parse("[::1]").matches(Self.item("https", "[::1]:8443")))
        #expect(try !parse("github.com:8443").matches(Self.item("https", "github.com")))
    }

    @Test func eraseRequestsAreOnePerHostCovered() throws {
        let items = [Self.item("https", "github.com"), Self.item("http", "github.com"), Self.item("https", "github.com:8443"),
                     Self.item("https", "gitlab.com"), Self.item("https", "github.com:8443", user: "bob")]
        let alice = try parse("alice@github.com")
        #expect(alice.requests(covering: items) == [Credential(host: "github.com", username: "alice"), Credential(host: "github.com:8443", username: "alice")])
        let url = try parse("https://github.com:8443")
        #expect(url.requests(covering: []) == [url.request], "an exact request needs no listing")
        #expect(try parse("nothing.example").requests(covering: items).isEmpty)
    }

    @Test(arguments: [("", "\"\" names no host"), ("https://", "https:// names no host"), ("https:///", "https:/// names no host"),
                      ("a\nb", "is not a host or a URL git would send: url has a newline"),
                      ("https://alice:hunter2@github.com", "holds a password")])
    func refusedWithWhy(text: String, message: String) {
        #expect(throws: HelperError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch let error as HelperError {
            #expect(error.kind == .usage && error.message.contains(message) && error.fix != nil, "\(error)")
            #expect(!error.line(program: "p").contains("hunter2"))
        } catch {
            Issue.record("\(error)")
        }
    }

    /// Each command's own way to say "every host" is the fix of a text naming none: only
    /// erase points to erase-all.
    @Test(arguments: ["", "https://", ":8443", "https://:8443", "alice@:443"])
    func namingNoHostGivesTheCommandsFix(text: String) throws {
        for everything in ["use erase-all to erase everything", "leave it out to list everything"] {
            #expect(throws: HelperError(.usage, "\(Trace.quoted(text)) names no host", fix: "give a host, or \(everything)")) {
                try HostOrURL.parse(text, everything: everything)
            }
        }
    }

    /// After a host's last colon comes a port (1 to 65535, as a number is written), or the
    /// text is refused, in both forms: a typo would select nothing.
    @Test(arguments: [("k1.test:99999", "99999"), ("k1.test:65536", "65536"), (":0", "0"), ("k1.test:0", "0"),
                      ("k1.test:0443", "0443"), ("inv.test:abc", "abc"), ("inv.test:", "\"\""), ("https://k1.test:99999", "99999"),
                      ("alice@inv.test:8o8o/org", "8o8o"), ("[::1]:x", "x")])
    func whatIsNoPortIsRefused(text: String, port: String) throws {
        #expect(throws: HelperError(.usage, "\(text) is not a host[:port]: \(port) is no port (1 to 65535, without a leading zero)",
                                    fix: "give a host (github.com, github.com:8443) or a URL (https://alice@github.com/org/repo)")) {
            try parse(text)
        }
        #expect(try parse("k1.test:65535").request.host == "k1.test:65535")
        #expect(try parse("[::1]").request.host == "[::1]" && parse("[::1]:1").request.host == "[::1]:1")
    }

    /// The port rule alone: digits after the last colon outside an IPv6 address's
    /// brackets, 1 to 65535, written without a leading zero.
    @Test(arguments: [("github.com:8443", 8443), ("github.com:1", 1), ("github.com:65535", 65535), ("[::1]:443", 443),
                      ("a:b:22", 22)] as [(Value, UInt16)])
    func aPortIsRead(host: Value, port: UInt16) {
        #expect(HostOrURL.port(of: host) == port)
        #expect(HostOrURL.withoutPort(host) == Value(Array(host.bytes[..<host.bytes.lastIndex(of: 0x3A)!])))
    }

    @Test(arguments: ["github.com", "github.com:", "github.com:0", "github.com:0443", "github.com:65536", "github.com:123456",
                      "github.com:8o8o", "[::1]", "[::1:443]", "github.com:+443", "github.com: 443", ""] as [Value])
    func noPortIsNoPort(host: Value) {
        #expect(HostOrURL.port(of: host) == nil)
        #expect(HostOrURL.withoutPort(host) == host, "a host without a port is kept whole")
    }

    /// A user or a path in the text narrows what it names; a host alone names every user.
    @Test func aUserOrAPathNarrows() throws {
        let alice = try parse("alice@github.com")
        #expect(alice.matches(Self.item("https", "github.com")) && alice.matches(Self.item("https", "github.com:8443")))
        #expect(!alice.matches(Self.item("https", "github.com", user: "bob")))
        let repo = try parse("ssh://github.com/org/repo.git")
        #expect(repo.matches(Self.item("ssh", "github.com", path: "org/repo.git")))
        #expect(!repo.matches(Self.item("ssh", "github.com", path: "org/other.git")) && !repo.matches(Self.item("https", "github.com")))
        // http(s) URLs drop the path: an item stored with one (credential.useHttpPath) is still named.
        #expect(try parse("https://github.com/org/repo.git").matches(Self.item("https", "github.com", path: "org/repo.git")))
    }

    /// The protocol of a URL is matched exactly; a host alone names every protocol.
    @Test func aURLsProtocolIsExact() throws {
        #expect(try !parse("http://github.com").matches(Self.item("https", "github.com")))
        #expect(try parse("github.com").matches(Self.item("ssh", "github.com", path: "org/repo")))
    }

    /// A host alone erases on every port: one request per port it finds, with the user and
    /// path given kept.
    @Test func eraseRequestsKeepTheUserAndPath() throws {
        let items = [Self.item("ssh", "h.example:22", path: "p"), Self.item("ssh", "h.example", path: "p"), Self.item("ssh", "h.example:22", path: "q")]
        #expect(try parse("alice@h.example/p").requests(covering: items)
                == [Credential(host: "h.example:22", path: "p", username: "alice"), Credential(host: "h.example", path: "p", username: "alice")])
    }

    @Test func relayedErrorsKeepOneFix() {
        let relayed = HelperError.relayed("git-credential-sqlite: the store is locked. Fix: run unlock", from: "git-credential-sqlite",
                                          doing: "git-credential-sqlite could not export", fix: "run doctor")
        #expect(relayed.line(program: "git-credential-secretservice")
                == "git-credential-secretservice: git-credential-sqlite could not export: the store is locked. Fix: run unlock")
        let plain = HelperError.relayed("Segmentation fault", from: "git-credential-sqlite", doing: "it could not export", fix: "run doctor")
        #expect(plain.line(program: "p") == "p: it could not export: Segmentation fault. Fix: run doctor")
    }
}
