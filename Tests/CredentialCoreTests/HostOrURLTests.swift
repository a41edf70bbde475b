import Testing
@testable import CredentialCore

@Suite("HostOrURL: what list, erase and which read as HOST-OR-URL")
struct HostOrURLTests {
    static func item(_ protocol: Value, _ host: Value, path: Value? = nil, user: Value = "alice") -> Credential {
        Credential(protocol: `protocol`, host: host, path: path, username: user)
    }

    @Test func eachFormReadsAsARequest() throws {
        let bare = try HostOrURL.parse("github.com")
        #expect(bare == HostOrURL(request: Credential(host: "github.com"), anyPort: true))
        #expect(try HostOrURL.parse("github.com:8443") == HostOrURL(request: Credential(host: "github.com:8443"), anyPort: false))
        #expect(try HostOrURL.parse("https://github.com") == HostOrURL(request: Credential(protocol: "https", host: "github.com"), anyPort: false))
        #expect(try HostOrURL.parse("https://user@github.com:8443/path/")
                == HostOrURL(request: Credential(protocol: "https", host: "github.com:8443", path: "path", username: "user"), anyPort: false))
        #expect(try HostOrURL.parse("alice@github.com/org/repo")
                == HostOrURL(request: Credential(host: "github.com", path: "org/repo", username: "alice"), anyPort: true))
        #expect(try HostOrURL.parse("[::1]").anyPort && !HostOrURL.parse("[::1]:8443").anyPort)
        #expect(try HostOrURL.parse("cert:///etc/cert.pem").request == Credential(protocol: "cert", host: "", path: "etc/cert.pem"))
    }

    @Test func aHostAloneCoversEveryPortAURLOnlyItsOwn() throws {
        let bare = try HostOrURL.parse("github.com"), url = try HostOrURL.parse("https://github.com")
        for host: Value in ["github.com", "github.com:8443", "github.com:1"] {
            #expect(bare.matches(Self.item("https", host)) && bare.matches(Self.item("http", host)), "\(host)")
        }
        #expect(url.matches(Self.item("https", "github.com")) && !url.matches(Self.item("https", "github.com:8443")))
        // Not a port: no digits, a port too long, another host with the same start.
        for host: Value in ["github.com:", "github.com:abc", "github.com:123456", "github.com:65536", "github.com:0443", "github.community", "github.com.evil", "evil.github.com"] {
            #expect(!bare.matches(Self.item("https", host)), "\(host)")
        }
        #expect(try HostOrURL.parse("[::1]").matches(Self.item("https", "[::1]:8443")))
        #expect(try !HostOrURL.parse("github.com:8443").matches(Self.item("https", "github.com")))
    }

    @Test func eraseRequestsAreOnePerHostCovered() throws {
        let items = [Self.item("https", "github.com"), Self.item("http", "github.com"), Self.item("https", "github.com:8443"),
                     Self.item("https", "gitlab.com"), Self.item("https", "github.com:8443", user: "bob")]
        let alice = try HostOrURL.parse("alice@github.com")
        #expect(alice.requests(covering: items) == [Credential(host: "github.com", username: "alice"), Credential(host: "github.com:8443", username: "alice")])
        let url = try HostOrURL.parse("https://github.com:8443")
        #expect(url.requests(covering: []) == [url.request], "an exact request needs no listing")
        #expect(try HostOrURL.parse("nothing.example").requests(covering: items).isEmpty)
    }

    @Test(arguments: [("", "\"\" names no host"), ("https://", "https:// names no host"), ("https:///", "https:/// names no host"),
                      ("a\nb", "is not a host or a URL git would send: url has a newline"),
                      ("https://alice:hunter2@github.com", "holds a password")])
    func refusedWithWhy(text: String, message: String) {
        #expect(throws: HelperError.self) { try HostOrURL.parse(text) }
        do {
            _ = try HostOrURL.parse(text)
        } catch let error as HelperError {
            #expect(error.kind == .usage && error.message.contains(message) && error.fix != nil, "\(error)")
            #expect(!error.line(program: "p").contains("hunter2"))
        } catch {
            Issue.record("\(error)")
        }
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
