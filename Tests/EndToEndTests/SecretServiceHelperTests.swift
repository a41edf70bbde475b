import Foundation
import Testing

/// git-credential-secretservice run directly, the request on stdin, as git runs it: the
/// behaviours of HelperProtocolTests that apply to a keyring, on the test keyring of
/// scripts/with-test-keyring. Every test has hosts of its own (tests run in parallel on
/// one keyring) and removes its items when done.
@Suite struct SecretServiceProtocolTests {
    let keyring: SharedKeyring
    let helper: SecretServiceHelper
    let host: String

    init() throws {
        keyring = try SharedKeyring()
        helper = keyring.helper
        host = keyring.names("example.com")
    }

    var alice: [UInt8] { wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret") }
    var bob: [UInt8] { wire("protocol=https", "host=\(host)", "username=bob", "password=bob-secret") }
    var lookup: [UInt8] { wire("protocol=https", "host=\(host)") }

    func lookup(user: String) -> [UInt8] { wire("protocol=https", "host=\(host)", "username=\(user)") }

    /// The items on this test's host, of any schema.
    var itemsOnHost: Int { get throws { try keyring.count(["server": host]) } }

    // MARK: get and store

    @Test func storeThenGet() throws {
        try helper.storeAll(alice)
        let result = try helper.get(lookup)
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=alice-secret"])
    }

    @Test func getPrintsNothingOnAMiss() throws {
        try helper.storeAll(alice)
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(keyring.names("other.example"))")))
        expectSilentMiss(try helper.get(lookup(user: "bob")))
        expectSilentMiss(try helper.get(wire("protocol=http", "host=\(host)")))
        expectSilentMiss(try helper.get(wire("protocol=https")))  // too little to look anything up
    }

    @Test func unknownActionsAreIgnoredSilently() throws {
        let result = try helper("frobnicate", input: alice)
        #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        #expect(try itemsOnHost == 0)
    }

    @Test func capabilityAnnouncesAuthtype() throws {
        let result = try helper("capability")
        expectSuccess(result)
        #expect(result.stdoutText == "version 0\ncapability authtype\n")
    }

    // MARK: Bad input

    @Test(arguments: BadInput.all)
    func badInputIsRejectedAndNothingIsStored(input: BadInput) throws {
        try helper.storeAll(alice)
        let badHost = keyring.names("bad.example"), evilHost = keyring.names("evil.bad.example")
        for action in ["store", "get", "erase"] {
            expectRejectedInput(try helper(action, input: input.bytes(host: badHost)))
        }
        #expect(try keyring.count(["server": badHost]) == 0)
        #expect(try keyring.count(["server": evilHost]) == 0)
        #expect(try helper.password(for: lookup) == "alice-secret", "store or erase changed the keyring")
    }

    @Test func aLineOfExactly65535BytesIsAccepted() throws {
        let password = String(repeating: "p", count: 65535 - 1 - "password=".count)
        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=" + password))
        #expect(try helper.password(for: lookup) == password)
    }

    /// It has no options: one a person copies from git-credential-sqlite's configuration
    /// is refused, not ignored.
    @Test(arguments: [["--frobnicate", "store"], ["store", "--no-such-option"], ["--db", "/tmp/x.db", "store"]])
    func optionsAreRefusedWithOneLine(arguments: [String]) throws {
        let result = try helper.invoke(arguments, input: alice)
        expectOneLineFailure(result, exitCode: 2)
        #expect(result.stdout.isEmpty)
        #expect(try itemsOnHost == 0)
    }

    // MARK: What is stored

    @Test func ephemeralCredentialsAreNotStored() throws {
        expectSuccess(try helper.store(wire("protocol=https", "host=\(host)", "username=alice",
                                            "password=alice-secret", "ephemeral=true")))
        expectSilentMiss(try helper.get(lookup))
        #expect(try itemsOnHost == 0)
    }

    @Test func aCredentialStoredAlreadyExpiredIsNotReturned() throws {
        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice",
                                 "password=alice-secret", "password_expiry_utc=1000"))
        expectSilentMiss(try helper.get(lookup))
    }

    @Test func aCredentialIsWithheldOnceItExpires() throws {
        let expiry = Int(Date().timeIntervalSince1970) + 2
        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice",
                                 "password=alice-secret", "password_expiry_utc=\(expiry)"))
        #expect(try helper.password(for: lookup) == "alice-secret")
        Thread.sleep(forTimeInterval: 3.5)
        expectSilentMiss(try helper.get(lookup))
    }

    @Test func aFarFutureExpiryIsReturnedWithThePassword() throws {
        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret",
                                 "password_expiry_utc=4102444800", "oauth_refresh_token=refresh-77"))
        let result = try helper.get(lookup)
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=alice-secret",
                                       "password_expiry_utc=4102444800", "oauth_refresh_token=refresh-77"])
    }

    @Test func authtypeOnlyCredentialIsReturnedOnlyUnderTheCapability() throws {
        try helper.storeAll(wire("capability[]=authtype", "protocol=https", "host=\(host)",
                                 "authtype=Bearer", "credential=token-123"))
        let withCapability = try helper.get(wire("capability[]=authtype", "protocol=https", "host=\(host)"))
        expectSuccess(withCapability)
        #expect(withCapability.stdoutLines == ["capability[]=authtype", "authtype=Bearer", "credential=token-123"])
        expectSilentMiss(try helper.get(lookup))
    }

    @Test func authtypeIsLeftOutForCallersWithoutTheCapability() throws {
        try helper.storeAll(wire("capability[]=authtype", "protocol=https", "host=\(host)", "username=alice",
                                 "password=alice-secret", "authtype=Bearer", "credential=token-123"))
        let old = try helper.get(lookup)
        #expect(old.stdoutLines == ["username=alice", "password=alice-secret"], "\(old)")

        let new = try helper.get(wire("capability[]=authtype", "protocol=https", "host=\(host)"))
        #expect(new.stdoutLines.first == "capability[]=authtype", "\(new)")
        #expect(Set(new.stdoutLines) == ["capability[]=authtype", "authtype=Bearer", "credential=token-123",
                                          "username=alice", "password=alice-secret"])
    }

    /// git 2.39 (Debian 12) sends no capability lines; newer git sends two first on every
    /// request, and a get after a 401 carries the server's WWW-Authenticate headers.
    @Test(arguments: [[], ["capability[]=authtype", "capability[]=state"]])
    func bothRequestShapesOfGit(capabilities: [String]) throws {
        try helper.storeAll(wire(capabilities + ["protocol=https", "host=\(host)", "username=alice", "password=alice-secret"]))
        let evilHost = keyring.names("evil.example")
        let result = try helper.get(wire(capabilities + [
            "protocol=https", "host=\(host)",
            #"wwwauth[]=Basic realm="example", charset="UTF-8""#, "wwwauth[]=Bearer error=x, password=evil host=\(evilHost)",
        ]))
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=alice-secret"])
    }

    @Test func certificatePassphrasesAreKeptByPath() throws {
        let certificate = keyring.names.path("/x/cert.p12"), other = keyring.names.path("/x/other.p12")
        try helper.storeAll(wire("protocol=cert", "host=", "path=\(certificate)", "username=", "password=cert-pass"))
        let result = try helper.get(wire("protocol=cert", "host=", "path=\(certificate)"))
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=", "password=cert-pass"])
        expectSilentMiss(try helper.get(wire("protocol=cert", "host=", "path=\(other)")))
        expectSilentMiss(try helper.get(wire("protocol=https", "host=", "path=\(certificate)")))
    }

    // MARK: Matching

    @Test func eraseWithAPasswordDeletesOnlyThatUsersItem() throws {
        try helper.storeAll(alice, bob)
        expectSuccess(try helper.erase(wire("protocol=https", "host=\(host)", "password=nobody's")))
        expectSuccess(try helper.erase(wire("password=alice-secret")))  // names no key field: erases nothing
        #expect(try helper.password(for: lookup(user: "alice")) == "alice-secret")

        expectSuccess(try helper.erase(wire("protocol=https", "host=\(host)", "password=alice-secret")))
        expectSilentMiss(try helper.get(lookup(user: "alice")))
        #expect(try helper.password(for: lookup(user: "bob")) == "bob-secret")
    }

    @Test func eraseWithoutPasswordDeletesEveryMatch() throws {
        let otherHost = keyring.names("other.example")
        try helper.storeAll(alice, bob, wire("protocol=https", "host=\(otherHost)", "username=alice", "password=x"))
        expectSuccess(try helper.erase(lookup))
        expectSilentMiss(try helper.get(lookup))
        #expect(try itemsOnHost == 0)
        #expect(try helper.password(for: wire("protocol=https", "host=\(otherHost)")) == "x")
    }

    @Test func severalUsersPerHostCoexist() throws {
        try helper.storeAll(alice, bob)
        #expect(try helper.get(lookup(user: "alice")).stdoutLines == ["username=alice", "password=alice-secret"])
        #expect(try helper.get(lookup(user: "bob")).stdoutLines == ["username=bob", "password=bob-secret"])

        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=alice-new"))
        #expect(try helper.password(for: lookup(user: "alice")) == "alice-new")
        #expect(try itemsOnHost == 2, "storing again must replace, not add")
    }

    /// The Secret Service keeps creation times in whole seconds; git stores a credential
    /// after a whole request to a server, so stores a second apart are what matters.
    @Test func withoutUsernameTheMostRecentlyStoredMatchIsReturned() throws {
        try helper.storeAll(alice)
        Thread.sleep(forTimeInterval: 1.1)
        try helper.storeAll(bob)
        #expect(try helper.get(lookup).attributes["username"] == "bob")
        Thread.sleep(forTimeInterval: 1.1)
        try helper.storeAll(alice)
        #expect(try helper.get(lookup).attributes["username"] == "alice")
    }

    @Test func withoutUsernameTheLaterOfTwoStoresInOneSecondIsReturned() throws {
        try helper.storeAll(alice, bob)
        #expect(try helper.get(lookup).attributes["username"] == "bob")
        try helper.storeAll(alice)
        #expect(try helper.get(lookup).attributes["username"] == "alice")
    }

    @Test func hostAndPortMatchExactly() throws {
        try helper.storeAll(wire("protocol=https", "host=\(host):8443", "username=alice", "password=port-secret"))
        expectSilentMiss(try helper.get(lookup))
        #expect(try helper.password(for: wire("protocol=https", "host=\(host):8443")) == "port-secret")

        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=plain-secret"))
        #expect(try helper.password(for: wire("protocol=https", "host=\(host):8443")) == "port-secret")
        #expect(try helper.password(for: lookup) == "plain-secret")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(host):443")))

        expectSuccess(try helper.erase(wire("protocol=https", "host=\(host)")))
        #expect(try helper.password(for: wire("protocol=https", "host=\(host):8443")) == "port-secret",
                "erasing the host without a port erased the item with one")
    }

    /// With credential.useHttpPath, a repository's credential and the host's are apart.
    @Test func aCredentialForTheWholeHostLeavesThoseOfItsPathsAlone() throws {
        let repository = wire("protocol=https", "host=\(host)", "path=team/one.git")
        try helper.storeAll(wire("protocol=https", "host=\(host)", "path=team/one.git", "username=ci", "password=one-secret"),
                            wire("protocol=https", "host=\(host)", "username=ci", "password=host-secret"))
        #expect(try helper.password(for: repository) == "one-secret", "storing for the host replaced the repository's")
        #expect(try itemsOnHost == 2)

        expectSuccess(try helper.erase(wire("protocol=https", "host=\(host)", "path=team/two.git")))
        #expect(try helper.password(for: repository) == "one-secret")
    }

    // MARK: Management

    @Test func listShowsWhereAndWhoButNeverASecret() throws {
        let certificate = keyring.names.path("/x/cert.p12"), api = keyring.names("api.example")
        try helper.storeAll(
            wire("protocol=https", "host=\(host)", "username=alice", "password=alice-secret",
                 "password_expiry_utc=4102444800", "oauth_refresh_token=refresh-secret"),
            wire("protocol=cert", "host=", "path=\(certificate)", "username=", "password=cert-secret"),
            wire("capability[]=authtype", "protocol=https", "host=\(api)", "authtype=Bearer", "credential=token-secret"))
        let result = try helper.list()
        expectSuccess(result)
        // Other tests' items are listed too: look at this test's rows only.
        let rows = result.stdoutLines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.first == ["PROTOCOL", "HOST", "PATH", "USERNAME", "EXPIRES"])
        #expect(rows.contains(["https", host, "-", "alice", "2100-01-01", "00:00", "UTC"]), "\(result)")
        #expect(rows.contains { $0.first == "cert" && $0.contains(certificate) }, "\(result)")
        #expect(rows.contains { $0.contains(api) }, "\(result)")
        for secret in ["alice-secret", "refresh-secret", "cert-secret", "token-secret"] {
            #expect(!result.stdoutText.contains(secret), "list shows \(secret)")
        }
    }
}
