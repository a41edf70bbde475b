@testable import ForwardCommand
import CredentialCore
import Testing

/// What a forward may ask: the serving end's rules, without a process.
@Suite struct ForwardPolicyTests {
    func request(_ host: String, protocol: String = "https", user: String? = "alice") -> Credential {
        Credential(protocol: Value(`protocol`), host: Value(host), username: user.map { Value($0) }, password: "s3cret")
    }

    @Test func aHostAloneCoversItsPortsAndHostPortOnlyThatPort() throws {
        let any = try ForwardPolicy.HostPattern("GitHub.com")
        #expect(any.matches("github.com") && any.matches("GITHUB.COM:8443"))
        #expect(!any.matches("github.com.evil.example") && !any.matches("evilgithub.com") && !any.matches("github.com:") && !any.matches("github.com:x"))
        let port = try ForwardPolicy.HostPattern("127.0.0.1:8080")
        #expect(port.matches("127.0.0.1:8080") && !port.matches("127.0.0.1") && !port.matches("127.0.0.1:80800"))
        let v6 = try ForwardPolicy.HostPattern("[::1]:8443")
        #expect(v6.matches("[::1]:8443") && !v6.matches("[::1]"))
    }

    @Test(arguments: ["", "https://github.com", "github.com/org", "host:", ":80", "host:8x", "host:99999", "host:0000080", "a b", "*.example.com"])
    func notAHostIsRefusedWithItsFix(_ text: String) {
        #expect(throws: HelperError.self) { try ForwardPolicy.HostPattern(text) }
        do { _ = try ForwardPolicy.HostPattern(text) } catch { #expect(error.fix?.contains("--host") == true) }
    }

    @Test func onlyGetAndOnlyListedHostsByDefault() throws {
        var policy = ForwardPolicy(name: "build")
        #expect(policy.decide(.get, request("github.com")) == .refuse(.notAllowed, why: "no host is allowed for build yet (serve build with --host github.com allows it)"))
        policy.hosts = [try .init("github.com")]
        #expect(policy.decide(.get, request("github.com")) == .answer)
        #expect(policy.decide(.get, request("gitlab.com")) == .refuse(.notAllowed, why: "gitlab.com is not among the hosts allowed for build (serve build with --host gitlab.com added to its others allows it)"))
        #expect(policy.decide(.store, request("github.com")) == .refuse(.actionNotAllowed, why: "not stored: store is not allowed for build (serve --allow-store allows it)"))
        #expect(policy.decide(.erase, request("github.com")) == .refuse(.actionNotAllowed, why: "not erased: erase is not allowed for build (serve --allow-erase allows it)"))
        policy.allowStore = true
        policy.allowErase = true
        #expect(policy.decide(.store, request("github.com")) == .answer && policy.decide(.erase, request("github.com")) == .answer)
        // An erase names the credential the server refused: one without would erase every
        // account of the host (found by the second attack round).
        #expect(policy.decide(.erase, request("github.com", user: nil)) == .refuse(.badRequest, why: "not erased: the request names no username and password (git's reject names both)"))
        #expect(policy.decide(.erase, Credential(protocol: "https", host: "github.com", username: "alice")) != .answer)
        // A port as git writes one, or none: the remote's 99999, 0 and 0443 match nothing.
        for port in ["99999", "0", "0443", "-1", "+443"] { #expect(policy.decide(.get, request("github.com:" + port)) != .answer, "\(port)") }
        #expect(policy.decide(.get, request("github.com:443")) == .answer)
        // A store for a host not listed is refused as a get is; one with nothing to store too.
        #expect(policy.decide(.store, request("gitlab.com")) != .answer)
        #expect(policy.decide(.store, request("github.com", user: nil)) != .answer)
        var noHost = Credential()
        noHost.protocol = "https"
        #expect(policy.decide(.get, noHost) == .refuse(.notAllowed, why: "the request names no protocol and host"))
    }

    @Test(arguments: ["build", "build-server.example_1", "ci"])
    func namesOfForwards(_ name: String) throws { try ForwardPolicy.checkName(name) }

    @Test(arguments: ["", ".hidden", "-x", "a/b", "../up", "a b", String(repeating: "a", count: 65)])
    func namesThatCannotNameASocket(_ name: String) {
        #expect(throws: HelperError.self) { try ForwardPolicy.checkName(name) }
    }

    @Test func theFirstLineNamesVersionAndAction() {
        #expect(ForwardWire.action(of: Array("git-credential-forward/1 get".utf8)) == .get)
        #expect(ForwardWire.action(of: Array("git-credential-forward/1 ping".utf8)) == .ping)
        #expect(ForwardWire.action(of: Array("git-credential-forward/2 get".utf8)) == nil)
        #expect(ForwardWire.action(of: Array("git-credential-forward/1 get ".utf8)) == nil)
        #expect(ForwardWire.action(of: Array("protocol=https".utf8)) == nil)
    }

    @Test func anAnswerNeverCarriesARefreshToken() throws {
        var found = Credential()
        found.username = "alice"
        found.password = "s3cret"
        let bytes = ForwardWire.answer(found, for: request("github.com"))
        #expect(String(decoding: bytes, as: UTF8.self) == "answer\nusername=alice\npassword=s3cret\n\n")
    }
}

@Suite struct ForwardSchemeTests {
    @Test(arguments: ["https", "http", "git+ssh", "smtp", "a1.b-c"])
    func schemes(_ text: String) { #expect(ForwardPolicy.isScheme(Array(text.utf8))) }

    @Test(arguments: ["", "HTTPS", "https:", "https://corp.internal/?", "1http", "ht tp", "https\u{0}"])
    func notSchemes(_ text: String) { #expect(!ForwardPolicy.isScheme(Array(text.utf8))) }
}
