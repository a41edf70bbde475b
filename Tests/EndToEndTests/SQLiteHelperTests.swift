import Foundation
import Testing

/// git-credential-sqlite run directly, the request on stdin, as git runs it.
@Suite struct HelperProtocolTests {
    let sandbox: Sandbox
    let helper: SQLiteHelper

    init() throws {
        sandbox = try Sandbox()
        helper = sandbox.sqlite()
    }

    static let alice = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")
    static let bob = wire("protocol=https", "host=example.com", "username=bob", "password=bob-secret")
    static let lookup = wire("protocol=https", "host=example.com")

    static func lookup(user: String) -> [UInt8] { wire("protocol=https", "host=example.com", "username=\(user)") }

    // MARK: get and store

    @Test func storeThenGet() throws {
        try helper.storeAll(Self.alice)
        let result = try helper.get(Self.lookup)
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=alice-secret"])
    }

    @Test func getPrintsNothingOnAMiss() throws {
        try helper.storeAll(Self.alice)
        expectSilentMiss(try helper.get(wire("protocol=https", "host=other.example")))
        expectSilentMiss(try helper.get(Self.lookup(user: "bob")))
        expectSilentMiss(try helper.get(wire("protocol=http", "host=example.com")))
        expectSilentMiss(try helper.get(wire("protocol=https")))  // too little to look anything up
    }

    @Test func commandsOnAMissingStoreCreateNothing() throws {
        expectSilentMiss(try helper.get(Self.lookup))
        expectSuccess(try helper.erase(Self.alice))
        let list = try helper.list()
        expectSuccess(list)
        #expect(list.stdout.isEmpty)
        #expect(!fileExists(sandbox.databaseDirectory), "a read created the database directory")
        #expect(!fileExists(sandbox.keyDirectory), "a read created the key directory")
    }

    @Test(arguments: [["frobnicate"], ["--db", "/nonexistent/x.db", "frobnicate"]])
    func unknownActionsAreIgnoredSilently(arguments: [String]) throws {
        let result = try helper.run(arguments, input: Self.alice)
        #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        #expect(!fileExists(sandbox.databaseDirectory))
    }

    @Test func capabilityAnnouncesAuthtype() throws {
        let result = try helper("capability")
        expectSuccess(result)
        #expect(result.stdoutText == "version 0\ncapability authtype\n")
    }

    // MARK: Bad input

    @Test(arguments: BadInput.all)
    func badInputIsRejectedAndNothingIsStored(input: BadInput) throws {
        try helper.storeAll(Self.alice)
        for action in ["store", "get", "erase"] {
            expectRejectedInput(try helper(action, input: input.bytes(host: "bad.example")))
        }
        expectSilentMiss(try helper.get(wire("protocol=https", "host=bad.example")))
        expectSilentMiss(try helper.get(wire("protocol=https", "host=evil.bad.example")))
        let list = try helper.list()
        #expect(list.stdoutLines.count == 2 && list.stdoutText.contains("alice"), "store or erase changed the store: \(list)")
    }

    @Test func aLineOfExactly65535BytesIsAccepted() throws {
        let password = String(repeating: "p", count: 65535 - 1 - "password=".count)
        try helper.storeAll(wire("protocol=https", "host=example.com", "username=alice", "password=" + password))
        let result = try helper.get(Self.lookup)
        expectSuccess(result)
        #expect(result.attributes["password"] == password)
    }

    @Test(arguments: [
        ["--frobnicate", "store"], ["store", "--no-such-option"], ["--passphrase-fd", "three", "store"],
        ["--db"], ["unlock", "--timeout", "soon"], ["get", "--scrypt-cost", "10"], ["store", "--db="],
    ])
    func badOptionsFailWithOneLine(arguments: [String]) throws {
        try expectRejected(arguments)
    }

    /// What git runs for a helper string with a value missing or empty, such as
    /// `sqlite --db` or `sqlite --db=$UNSET` (git appends the action).
    @Test(arguments: [
        ["--db", "get"], ["--db", "--key-file", "store"], ["--db=", "store"], ["--db", "", "store"], ["--key-file=", "store"],
    ])
    func missingOrEmptyOptionValuesBeforeTheActionFailWithOneLine(arguments: [String]) throws {
        try expectRejected(arguments)
    }

    /// Exit 2 with one line, and nothing created: no store, no stray file in the working directory.
    func expectRejected(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try helper.run(arguments, input: Self.alice)
        expectOneLineFailure(result, exitCode: 2, sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(!fileExists(sandbox.databaseDirectory), "a rejected command created the store", sourceLocation: sourceLocation)
        #expect(files(in: sandbox.home).isEmpty, "a rejected command created a file in the working directory",
                sourceLocation: sourceLocation)
    }

    // MARK: Locations

    @Test func optionsWorkBeforeAndAfterTheAction() throws {
        let database = sandbox.root + "/elsewhere/db/creds.db"
        let keyFile = sandbox.root + "/elsewhere/keys/key"
        expectSuccess(try helper.run(["--db", database, "--key-file", keyFile, "store"], input: Self.alice))
        #expect(fileExists(database) && fileExists(keyFile))
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile), "the default locations were used")

        let after = try helper.run(["get", "--db", database, "--key-file", keyFile], input: Self.lookup)
        expectSuccess(after)
        #expect(after.attributes["password"] == "alice-secret")
    }

    @Test func environmentOverridesTheDefaultsAndOptionsOverrideTheEnvironment() throws {
        let database = sandbox.root + "/env/creds.db"
        let keyFile = sandbox.root + "/env-key/key"
        let viaEnvironment = helper.with(environment: ["GIT_CREDENTIAL_SQLITE_DB": database,
                                                       "GIT_CREDENTIAL_SQLITE_KEY_FILE": keyFile])
        try viaEnvironment.storeAll(Self.alice)
        #expect(fileExists(database) && fileExists(keyFile))
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile))
        #expect(try viaEnvironment.get(Self.lookup).attributes["password"] == "alice-secret")

        let misdirected = helper.with(environment: ["GIT_CREDENTIAL_SQLITE_DB": sandbox.root + "/nothing-here.db"])
        let viaOptions = try misdirected.run(["--db", database, "--key-file", keyFile, "get"], input: Self.lookup)
        #expect(viaOptions.attributes["password"] == "alice-secret", "\(viaOptions)")
        expectSilentMiss(try misdirected.get(Self.lookup))
    }

    // MARK: What is stored

    @Test func ephemeralCredentialsAreNotStored() throws {
        let result = try helper.store(wire("protocol=https", "host=example.com", "username=alice",
                                           "password=alice-secret", "ephemeral=true"))
        expectSuccess(result)
        expectSilentMiss(try helper.get(Self.lookup))
        #expect(!fileExists(sandbox.database))
    }

    @Test func aCredentialStoredAlreadyExpiredIsNotReturned() throws {
        try helper.storeAll(wire("protocol=https", "host=example.com", "username=alice",
                                 "password=alice-secret", "password_expiry_utc=1000"))
        expectSilentMiss(try helper.get(Self.lookup))
    }

    @Test func aCredentialIsWithheldOnceItExpires() throws {
        let expiry = Int(Date().timeIntervalSince1970) + 2
        try helper.storeAll(wire("protocol=https", "host=example.com", "username=alice",
                                 "password=alice-secret", "password_expiry_utc=\(expiry)"))
        Thread.sleep(forTimeInterval: 3.5)
        expectSilentMiss(try helper.get(Self.lookup))
    }

    @Test func aFarFutureExpiryIsReturnedWithThePassword() throws {
        try helper.storeAll(wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret",
                                 "password_expiry_utc=4102444800", "oauth_refresh_token=refresh-77"))
        let result = try helper.get(Self.lookup)
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=alice-secret",
                                       "password_expiry_utc=4102444800", "oauth_refresh_token=refresh-77"])
    }

    @Test func authtypeOnlyCredentialIsReturnedOnlyUnderTheCapability() throws {
        try helper.storeAll(wire("capability[]=authtype", "protocol=https", "host=api.example",
                                 "authtype=Bearer", "credential=token-123"))
        let withCapability = try helper.get(wire("capability[]=authtype", "protocol=https", "host=api.example"))
        expectSuccess(withCapability)
        #expect(withCapability.stdoutLines == ["capability[]=authtype", "authtype=Bearer", "credential=token-123"])
        expectSilentMiss(try helper.get(wire("protocol=https", "host=api.example")))
    }

    @Test func authtypeIsLeftOutForCallersWithoutTheCapability() throws {
        try helper.storeAll(wire("capability[]=authtype", "protocol=https", "host=api.example", "username=alice",
                                 "password=alice-secret", "authtype=Bearer", "credential=token-123"))
        let old = try helper.get(wire("protocol=https", "host=api.example"))
        #expect(old.stdoutLines == ["username=alice", "password=alice-secret"], "\(old)")

        let new = try helper.get(wire("capability[]=authtype", "protocol=https", "host=api.example"))
        #expect(new.stdoutLines.first == "capability[]=authtype", "\(new)")
        #expect(Set(new.stdoutLines) == ["capability[]=authtype", "authtype=Bearer", "credential=token-123",
                                          "username=alice", "password=alice-secret"])
    }

    /// git 2.39 (Debian 12) sends no capability lines; newer git sends two first on every
    /// request, and a get after a 401 carries the server's WWW-Authenticate headers.
    @Test(arguments: [[], ["capability[]=authtype", "capability[]=state"]])
    func bothRequestShapesOfGit(capabilities: [String]) throws {
        try helper.storeAll(wire(capabilities + ["protocol=https", "host=example.com", "username=alice", "password=alice-secret"]))
        let result = try helper.get(wire(capabilities + [
            "protocol=https", "host=example.com",
            #"wwwauth[]=Basic realm="example", charset="UTF-8""#, "wwwauth[]=Bearer error=x, password=evil host=evil.example",
        ]))
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=alice", "password=alice-secret"])
    }

    @Test func certificatePassphrasesAreKeptByPath() throws {
        try helper.storeAll(wire("protocol=cert", "host=", "path=/x/cert.p12", "username=", "password=cert-pass"))
        let result = try helper.get(wire("protocol=cert", "host=", "path=/x/cert.p12"))
        expectSuccess(result)
        #expect(result.stdoutLines == ["username=", "password=cert-pass"])
        expectSilentMiss(try helper.get(wire("protocol=cert", "host=", "path=/x/other.p12")))
        expectSilentMiss(try helper.get(wire("protocol=https", "host=", "path=/x/cert.p12")))
    }

    // MARK: Matching

    @Test func eraseWithAPasswordDeletesOnlyThatUsersItem() throws {
        try helper.storeAll(Self.alice, Self.bob)
        expectSuccess(try helper.erase(wire("protocol=https", "host=example.com", "password=nobody's")))
        expectSuccess(try helper.erase(wire("password=alice-secret")))  // names no key field: erases nothing
        #expect(try helper.get(Self.lookup(user: "alice")).attributes["password"] == "alice-secret")

        expectSuccess(try helper.erase(wire("protocol=https", "host=example.com", "password=alice-secret")))
        expectSilentMiss(try helper.get(Self.lookup(user: "alice")))
        #expect(try helper.get(Self.lookup(user: "bob")).attributes["password"] == "bob-secret")
    }

    @Test func eraseWithoutPasswordDeletesEveryMatch() throws {
        try helper.storeAll(Self.alice, Self.bob, wire("protocol=https", "host=other.example", "username=alice", "password=x"))
        expectSuccess(try helper.erase(Self.lookup))
        expectSilentMiss(try helper.get(Self.lookup))
        #expect(try helper.get(wire("protocol=https", "host=other.example")).attributes["password"] == "x")
    }

    @Test func severalUsersPerHostCoexist() throws {
        try helper.storeAll(Self.alice, Self.bob)
        #expect(try helper.get(Self.lookup(user: "alice")).stdoutLines == ["username=alice", "password=alice-secret"])
        #expect(try helper.get(Self.lookup(user: "bob")).stdoutLines == ["username=bob", "password=bob-secret"])

        try helper.storeAll(wire("protocol=https", "host=example.com", "username=alice", "password=alice-new"))
        #expect(try helper.get(Self.lookup(user: "alice")).attributes["password"] == "alice-new")
        #expect(try helper.list().stdoutLines.count == 3, "storing again must replace, not add")
    }

    @Test func withoutUsernameTheMostRecentlyStoredMatchIsReturned() throws {
        try helper.storeAll(Self.alice, Self.bob)
        #expect(try helper.get(Self.lookup).attributes["username"] == "bob")
        try helper.storeAll(Self.alice)
        #expect(try helper.get(Self.lookup).attributes["username"] == "alice")
    }

    @Test func hostAndPortMatchExactly() throws {
        try helper.storeAll(wire("protocol=https", "host=example.com:8443", "username=alice", "password=port-secret"))
        expectSilentMiss(try helper.get(Self.lookup))
        #expect(try helper.get(wire("protocol=https", "host=example.com:8443")).attributes["password"] == "port-secret")

        try helper.storeAll(wire("protocol=https", "host=example.com", "username=alice", "password=plain-secret"))
        #expect(try helper.get(wire("protocol=https", "host=example.com:8443")).attributes["password"] == "port-secret")
        #expect(try helper.get(Self.lookup).attributes["password"] == "plain-secret")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=example.com:443")))
    }

    // MARK: Management and files

    @Test func listShowsWhereAndWhoButNeverASecret() throws {
        try helper.storeAll(
            wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret",
                 "password_expiry_utc=4102444800", "oauth_refresh_token=refresh-secret"),
            wire("protocol=cert", "host=", "path=/x/cert.p12", "username=", "password=cert-secret"),
            wire("capability[]=authtype", "protocol=https", "host=api.example", "authtype=Bearer", "credential=token-secret"))
        let result = try helper.list()
        expectSuccess(result)
        let rows = result.stdoutLines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.first == ["PROTOCOL", "HOST", "PATH", "USERNAME", "EXPIRES"])
        #expect(rows.contains(["https", "example.com", "-", "alice", "2100-01-01", "00:00", "UTC"]), "\(result)")
        #expect(rows.contains { $0.first == "cert" && $0.contains("/x/cert.p12") }, "\(result)")
        #expect(rows.contains { $0.contains("api.example") }, "\(result)")
        for secret in ["alice-secret", "refresh-secret", "cert-secret", "token-secret"] {
            #expect(!result.stdoutText.contains(secret), "list shows \(secret)")
        }
    }

    @Test func listShowsControlCharactersEscaped() throws {
        // An escape sequence in a stored host must not reach the terminal as one.
        try helper.storeAll(wire("protocol=https", "host=evil\u{1B}[2J.example", "username=u\u{7F}", "password=p"))
        let result = try helper.list()
        expectSuccess(result)
        #expect(!result.stdout.bytes.contains(0x1B) && !result.stdout.bytes.contains(0x7F))
        #expect(result.stdoutText.contains("evil\\x1b[2J.example") && result.stdoutText.contains("u\\x7f"), "\(result)")
    }

    @Test func filesAreOwnerOnly() throws {
        try helper.storeAll(Self.alice, Self.bob)
        expectSuccess(try helper.erase(Self.lookup(user: "bob")))
        #expect(permissions(of: sandbox.databaseDirectory) == 0o700)
        #expect(permissions(of: sandbox.keyDirectory) == 0o700)
        #expect(permissions(of: sandbox.keyFile) == 0o600)
        let databaseFiles = files(in: sandbox.databaseDirectory)
        #expect(databaseFiles.contains(sandbox.database))
        for file in databaseFiles {
            #expect(permissions(of: file) == 0o600, "\(file) has mode \(String(permissions(of: file) ?? 0, radix: 8))")
        }
    }
}
