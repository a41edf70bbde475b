import Testing
@testable import CredentialCore

/// `url=` as git's credential_from_url reads it.
@Suite("CredentialURL.parse")
struct CredentialURLTests {
    static func url(_ text: String) throws(ProtocolError) -> Credential {
        try CredentialURL.parse(Value(text))
    }

    @Test func schemeAndHost() throws {
        #expect(try Self.url("https://example.com") == Credential(protocol: "https", host: "example.com"))
    }

    @Test func userPasswordHostPortAndPath() throws {
        #expect(try Self.url("https://alice:s3cret@example.com:8443/org/repo.git") == Credential(
            protocol: "https", host: "example.com:8443", path: "org/repo.git", username: "alice", password: "s3cret"))
    }

    @Test func userWithoutPassword() throws {
        let credential = try Self.url("https://alice@example.com/repo")
        #expect(credential.username == "alice")
        #expect(credential.password == nil)
        #expect(credential.host == "example.com")
    }

    @Test func emptyUserAndPasswordAreEmptyNotAbsent() throws {
        let bare = try Self.url("https://@example.com")
        #expect(bare.username == "" && bare.password == nil)
        let noUser = try Self.url("https://:pw@example.com")
        #expect(noUser.username == "" && noUser.password == "pw")
        let noPassword = try Self.url("https://alice:@example.com")
        #expect(noPassword.username == "alice" && noPassword.password == "")
    }

    @Test func colonAfterTheAtIsThePort() throws {
        let credential = try Self.url("https://alice@example.com:8443")
        #expect(credential.username == "alice" && credential.password == nil)
        #expect(credential.host == "example.com:8443")
    }

    @Test func firstAtEndsTheUserinfo() throws {
        let credential = try Self.url("https://a:b@c@example.com/")
        #expect(credential.username == "a" && credential.password == "b")
        #expect(credential.host == "c@example.com")
    }

    @Test func atAfterTheSlashIsPartOfThePath() throws {
        let credential = try Self.url("https://example.com/user@repo")
        #expect(credential.username == nil)
        #expect(credential.host == "example.com")
        #expect(credential.path == "user@repo")
    }

    @Test func percentDecodingInUserPasswordHostAndPath() throws {
        let credential = try Self.url("https://al%69ce:p%40ss%3Aw%2fd%C2%A3@ex%61mple.com/a%20b/%7Erepo")
        #expect(credential.username == "alice")
        #expect(credential.password == "p@ss:w/d£")
        #expect(credential.host == "example.com")
        #expect(credential.path == "a b/~repo")
    }

    @Test func malformedEscapesStayAsTheyAre() throws {
        #expect(try Self.url("https://example.com/a%zzb%4").path == "a%zzb%4")
        #expect(try Self.url("https://example.com/100%").path == "100%")
        #expect(try Self.url("https://example.com/%g1%1g").path == "%g1%1g")
    }

    @Test func schemeIsNotDecoded() throws {
        #expect(try Self.url("ht%74ps://example.com").protocol == "ht%74ps")
    }

    @Test func certURLHasAnEmptyHost() throws {
        let credential = try Self.url("cert:///home/me/client.p12")
        #expect(credential.protocol == "cert")
        #expect(credential.host == "")
        #expect(credential.path == "home/me/client.p12")
    }

    @Test func leadingAndTrailingSlashesAreTrimmedFromThePath() throws {
        #expect(try Self.url("https://example.com///org/repo.git///").path == "org/repo.git")
        #expect(try Self.url("https://example.com/a//b/").path == "a//b")
    }

    @Test func pathOfOnlySlashesIsAbsent() throws {
        #expect(try Self.url("https://example.com/").path == nil)
        #expect(try Self.url("https://example.com///").path == nil)
        #expect(try Self.url("https://example.com").path == nil)
    }

    /// git trims the trailing slashes after url_decode (credential_from_url_1), so an
    /// encoded slash at the end goes too.
    @Test func trailingSlashesAreTrimmedAfterDecoding() throws {
        #expect(try Self.url("https://example.com/repo%2F").path == "repo")
        #expect(try Self.url("https://example.com/repo%2f/").path == "repo")
    }

    @Test func leadingSlashesAreTrimmedBeforeDecoding() throws {
        #expect(try Self.url("https://example.com/%2Frepo").path == "/repo")
    }

    @Test func queryOrFragmentEndsTheHost() throws {
        let query = try Self.url("https://example.com?user=x@evil")
        #expect(query.host == "example.com")
        #expect(query.username == nil)
        #expect(query.path == "?user=x@evil")
        let fragment = try Self.url("https://example.com#frag")
        #expect(fragment.host == "example.com")
        #expect(fragment.path == "#frag")
        #expect(try Self.url("https://example.com/repo?x#y").path == "repo?x#y")
    }

    @Test(arguments: ["example.com/repo", "://example.com", "https:/example.com", "https//example.com", ""])
    func schemeIsRequired(text: String) {
        #expect(throws: ProtocolError.self) { try Self.url(text) }
    }

    @Test(arguments: [
        "https://al%0Aice@example.com",  // username
        "https://alice:pw%0A@example.com",  // password
        "https://example.com%0A/repo",  // host
        "https://example.com/repo%0Ahost=evil",  // path
        "https://example.com/repo%0a",
        "https://example.com/repo%0D",  // CR
        "https://example.com/repo%0d%0a",
        "https://alice:pw%0d@example.com",
        "https://example.com/repo%00",  // NUL
        "https://al%00ice@example.com",
    ])
    func decodedNewlineCRAndNulAreRejected(text: String) {
        #expect(throws: ProtocolError.self) { try Self.url(text) }
    }

    @Test func urlLineErrorNamesTheLineButNotTheURL() {
        expectRejected("protocol=https\nurl=s3cret.example.com/repo\n", line: 2)
        expectRejected("protocol=https\nhost=x\nurl=https://alice:s3cret%0A@example.com\n", line: 3)
    }

    @Test func urlLineIsParsedLikeCredentialURL() throws {
        let viaLine = try parse("url=https://alice:s3cret@example.com:8443/org/repo.git/\n")
        #expect(viaLine == (try Self.url("https://alice:s3cret@example.com:8443/org/repo.git/")))
        #expect(try parse("url=cert:///etc/cert.p12\n").host == "")
    }
}
