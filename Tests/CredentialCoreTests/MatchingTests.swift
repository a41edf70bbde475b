import Testing
@testable import CredentialCore

@Suite("Matching: isMatched, hasSameKey, isCompleteLookup, hasAnyKeyField, isStorable")
struct MatchingTests {
    static let item = Credential(
        protocol: "https", host: "example.com", path: "org/repo.git", username: "alice", password: "s3cret",
        authtype: "Bearer", credential: "token")

    static func request(
        protocol: Value? = "https", host: Value? = "example.com", path: Value? = nil, username: Value? = nil,
        password: Value? = nil, credential: Value? = nil
    ) -> Credential {
        Credential(protocol: `protocol`, host: host, path: path, username: username, password: password, credential: credential)
    }

    static func matches(_ request: Credential, _ item: Credential = item, for purpose: MatchPurpose = .lookup) -> Bool {
        item.isMatched(by: request, for: purpose)
    }

    // MARK: isMatched

    @Test(arguments: [MatchPurpose.lookup, .erase])
    func fieldsTheRequestLacksMatchAnything(purpose: MatchPurpose) {
        #expect(Self.matches(Credential(), for: purpose))
        #expect(Self.matches(Self.request(), for: purpose))
        #expect(Self.matches(Self.request(protocol: nil), for: purpose))
        #expect(Self.matches(Self.request(host: nil, username: "alice"), for: purpose))
        #expect(Self.matches(Self.request(path: "org/repo.git", username: "alice"), for: purpose))
    }

    @Test(arguments: [MatchPurpose.lookup, .erase])
    func everyFieldTheRequestHasMustBeEqual(purpose: MatchPurpose) {
        #expect(!Self.matches(Self.request(protocol: "http"), for: purpose))
        #expect(!Self.matches(Self.request(host: "example.org"), for: purpose))
        #expect(!Self.matches(Self.request(path: "org/other.git"), for: purpose))
        #expect(!Self.matches(Self.request(username: "bob"), for: purpose))
    }

    @Test func comparisonIsExactBytes() {
        #expect(!Self.matches(Self.request(protocol: "HTTPS")))
        #expect(!Self.matches(Self.request(host: "Example.com")))
        #expect(!Self.matches(Self.request(host: "example.com.")))
        #expect(!Self.matches(Self.request(username: "Alice")))
        #expect(!Self.matches(Self.request(path: "org/repo.git/")))
        #expect(!Self.matches(Self.request(path: "org/repo")))
    }

    @Test func emptyIsNotAbsent() {
        #expect(!Self.matches(Self.request(username: "")))
        #expect(!Self.matches(Self.request(path: "")))
        let anonymous = Credential(protocol: "https", host: "example.com", username: "", password: "pw")
        #expect(Self.matches(Self.request(username: ""), anonymous))
        #expect(!Self.matches(Self.request(username: "alice"), anonymous))
        #expect(Self.matches(Self.request(), anonymous))
    }

    @Test func storedFieldThatIsAbsentOnlyMatchesAnAbsentRequestField() {
        let noPath = Credential(protocol: "https", host: "example.com", username: "alice", password: "pw")
        #expect(Self.matches(Self.request(), noPath))
        #expect(!Self.matches(Self.request(path: "repo"), noPath))
        #expect(!Self.matches(Self.request(path: ""), noPath))
    }

    @Test func hostMatchesWithItsWholePort() {
        let plain = Credential(protocol: "https", host: "example.com", username: "alice", password: "pw")
        let withPort = Credential(protocol: "https", host: "example.com:8443", username: "alice", password: "pw")
        #expect(!Self.matches(Self.request(host: "example.com"), withPort))
        #expect(!Self.matches(Self.request(host: "example.com:8443"), plain))
        #expect(!Self.matches(Self.request(host: "example.com:443"), plain))
        #expect(Self.matches(Self.request(host: "example.com:8443"), withPort))
        #expect(Self.matches(Self.request(host: "example.com"), plain))
        #expect(!Self.matches(Self.request(host: "example.com:8443"), Credential(protocol: "https", host: "example.com:84")))
    }

    @Test func pathIsComparedOnlyWhenTheRequestHasOne() {
        #expect(Self.matches(Self.request()))
        #expect(Self.matches(Self.request(path: "org/repo.git")))
        #expect(!Self.matches(Self.request(path: "org/other.git")))
    }

    @Test func certRequestWithEmptyHostMatchesByPath() {
        let cert = Credential(protocol: "cert", host: "", path: "/home/me/cert.p12", username: "", password: "pass")
        #expect(Self.matches(Self.request(protocol: "cert", host: "", path: "/home/me/cert.p12"), cert))
        #expect(!Self.matches(Self.request(protocol: "cert", host: "", path: "/home/me/other.p12"), cert))
        #expect(!Self.matches(Self.request(protocol: "cert", host: "x", path: "/home/me/cert.p12"), cert))
    }

    @Test func lookupIgnoresPasswordAndCredential() {
        #expect(Self.matches(Self.request(password: "wrong"), for: .lookup))
        #expect(Self.matches(Self.request(credential: "wrong"), for: .lookup))
    }

    @Test func eraseAlsoComparesPasswordAndCredential() {
        #expect(Self.matches(Self.request(password: "s3cret"), for: .erase))
        #expect(!Self.matches(Self.request(password: "wrong"), for: .erase))
        #expect(!Self.matches(Self.request(password: ""), for: .erase))
        #expect(Self.matches(Self.request(credential: "token"), for: .erase))
        #expect(!Self.matches(Self.request(credential: "other"), for: .erase))
        #expect(!Self.matches(Self.request(password: "s3cret", credential: "other"), for: .erase))
    }

    @Test func eraseWithPasswordDoesNotMatchAnItemWithoutOne() {
        let tokenOnly = Credential(protocol: "https", host: "example.com", authtype: "Bearer", credential: "token")
        #expect(!Self.matches(Self.request(password: "s3cret"), tokenOnly, for: .erase))
        #expect(Self.matches(Self.request(), tokenOnly, for: .erase))
    }

    // MARK: hasSameKey

    @Test func sameKeyIsProtocolHostPathAndUsername() {
        var other = Self.item
        other.password = "different"
        other.passwordExpiryUTC = 5
        other.oauthRefreshToken = "r"
        other.credential = nil
        #expect(Self.item.hasSameKey(as: other))
        #expect(other.hasSameKey(as: Self.item))
    }

    @Test func keyDiffersInAnyKeyField() {
        for change in [
            { (c: inout Credential) in c.protocol = "http" },
            { $0.host = "example.com:443" },
            { $0.path = nil },
            { $0.path = "" },
            { $0.username = nil },
            { $0.username = "" },
            { $0.username = "bob" },
        ] as [(inout Credential) -> Void] {
            var other = Self.item
            change(&other)
            #expect(!Self.item.hasSameKey(as: other))
        }
    }

    // MARK: isCompleteLookup

    @Test func completeLookupNeedsProtocolAndHostOrPath() {
        #expect(Credential(protocol: "https", host: "example.com").isCompleteLookup)
        #expect(Credential(protocol: "cert", path: "/cert.p12").isCompleteLookup)
        #expect(Credential(protocol: "cert", host: "").isCompleteLookup)
        #expect(!Credential(protocol: "https").isCompleteLookup)
        #expect(!Credential(host: "example.com", path: "repo", username: "alice").isCompleteLookup)
        #expect(!Credential().isCompleteLookup)
    }

    // MARK: hasAnyKeyField

    @Test func anyKeyFieldIsProtocolHostPathOrUsername() {
        #expect(!Credential().hasAnyKeyField)
        #expect(!Credential(password: "pw", passwordExpiryUTC: 1, oauthRefreshToken: "r", authtype: "Bearer", credential: "t").hasAnyKeyField)
        #expect(Credential(protocol: "https").hasAnyKeyField)
        #expect(Credential(host: "").hasAnyKeyField)
        #expect(Credential(path: "repo").hasAnyKeyField)
        #expect(Credential(username: "").hasAnyKeyField)
    }

    // MARK: isStorable

    @Test func storableNeedsALocationAndUsernamePasswordOrAuthtypeCredential() {
        #expect(Credential(protocol: "https", host: "example.com", username: "alice", password: "pw").isStorable)
        #expect(Credential(protocol: "https", host: "example.com", username: "", password: "").isStorable)
        #expect(Credential(protocol: "cert", host: "", path: "/c.p12", username: "", password: "pass").isStorable)
        #expect(Credential(protocol: "https", host: "example.com", authtype: "Bearer", credential: "t").isStorable)
    }

    @Test func notStorableWhenAnythingIsMissing() {
        #expect(!Credential(protocol: "https", host: "example.com", username: "alice").isStorable)
        #expect(!Credential(protocol: "https", host: "example.com", password: "pw").isStorable)
        #expect(!Credential(host: "example.com", username: "alice", password: "pw").isStorable)
        #expect(!Credential(protocol: "https", username: "alice", password: "pw").isStorable)
        #expect(!Credential(protocol: "https", host: "example.com", authtype: "Bearer").isStorable)
        #expect(!Credential(protocol: "https", host: "example.com", credential: "t").isStorable)
        #expect(!Credential(protocol: "https", host: "example.com", username: "alice", credential: "t").isStorable)
    }
}
