import Testing
@testable import CredentialCore

@Suite("HelperActions: get, store and erase on a store")
struct HelperActionsTests {
    static let now: UInt64 = 1_700_000_000
    let store = InMemoryStore()

    static func login(
        _ username: Value?, _ password: Value?, host: Value = "example.com", path: Value? = nil,
        expiry: UInt64? = nil
    ) -> Credential {
        Credential(protocol: "https", host: host, path: path, username: username, password: password, passwordExpiryUTC: expiry)
    }

    static func lookup(host: Value = "example.com", username: Value? = nil, capabilities: [Value] = []) -> Credential {
        var request = Credential(protocol: "https", host: host, username: username)
        request.capabilities = capabilities
        return request
    }

    func save(_ credentials: Credential...) throws {
        for credential in credentials { try HelperActions.store(credential, now: Self.now) { store.open() } }
    }

    func get(_ request: Credential, now: UInt64 = Self.now) throws -> Credential? {
        try HelperActions.get(request, now: now) { store.open() }
    }

    func erase(_ request: Credential) throws {
        try HelperActions.erase(request) { store.open() }
    }

    var usernames: [Value?] { store.stored.map(\.username) }

    // MARK: get

    @Test func getReturnsTheMostRecentlyStoredMatch() throws {
        try save(Self.login("alice", "pw-a"), Self.login("bob", "pw-b"), Self.login("carol", "pw-c", host: "other.example"))
        #expect(try get(Self.lookup())?.username == "bob")
        #expect(try get(Self.lookup(username: "alice"))?.password == "pw-a")
        #expect(try get(Self.lookup(host: "other.example"))?.username == "carol")
    }

    /// A match with a line break in a field it would answer (another program's keyring
    /// item can hold one) is passed over whole: the next match answers, or nothing does.
    @Test(arguments: [Self.login("mallory\npassword=forged", "pw-m"), Self.login("mallory", "pw\u{0}m"),
                      Credential(protocol: "https", host: "example.com", username: "mallory", password: "pw-m",
                                 oauthRefreshToken: "refresh\nusername=x")])
    func getPassesOverAMatchThatCannotBeAnsweredWhole(unanswerable: Credential) throws {
        store.replace(with: [unanswerable], progress: nil)
        #expect(try get(Self.lookup()) == nil)
        try save(Self.login("alice", "pw-a"))
        store.replace(with: [unanswerable], progress: nil)
        #expect(try get(Self.lookup())?.username == "alice")
    }

    @Test func getAfterReplacementReturnsTheReplacedItem() throws {
        try save(Self.login("alice", "old"), Self.login("bob", "pw-b"), Self.login("alice", "new"))
        #expect(try get(Self.lookup())?.password == "new")
    }

    @Test func getFindsNothingForAnotherHostOrPort() throws {
        try save(Self.login("alice", "pw", host: "example.com:8443"))
        #expect(try get(Self.lookup(host: "example.com")) == nil)
        #expect(try get(Self.lookup(host: "example.com:443")) == nil)
        #expect(try get(Self.lookup(host: "example.com:8443"))?.password == "pw")
    }

    @Test func getNeedsACompleteLookup() throws {
        try save(Self.login("alice", "pw"))
        #expect(try get(Credential(protocol: "https")) == nil)
        #expect(try get(Credential(host: "example.com")) == nil)
        #expect(try get(Credential(username: "alice")) == nil)
        #expect(try get(Credential()) == nil)
    }

    @Test func getWithholdsAnExpiredPassword() throws {
        try store.replace(with: Self.login("alice", "pw", expiry: Self.now - 1))
        #expect(try get(Self.lookup()) == nil)
    }

    @Test func getReturnsAPasswordExpiringExactlyNow() throws {
        try store.replace(with: Self.login("alice", "pw", expiry: Self.now))
        #expect(try get(Self.lookup())?.passwordExpiryUTC == Self.now)
        #expect(try get(Self.lookup(), now: Self.now + 1) == nil)
    }

    @Test func getSkipsAnExpiredItemForAnOlderValidOne() throws {
        try store.replace(with: Self.login("alice", "valid", expiry: Self.now + 60))
        try store.replace(with: Self.login("bob", "expired", expiry: Self.now - 60))
        #expect(try get(Self.lookup())?.password == "valid")
    }

    @Test func getReturnsExpiryAndRefreshToken() throws {
        var credential = Self.login("alice", "pw", expiry: Self.now + 3600)
        credential.oauthRefreshToken = "refresh"
        try save(credential)
        let found = try #require(try get(Self.lookup()))
        #expect(found.passwordExpiryUTC == Self.now + 3600)
        #expect(found.oauthRefreshToken == "refresh")
    }

    // MARK: get of an expired token: what git needs to refresh it
    //
    // git 2.41 and newer, credential.c (read at gitster/git 6ca5d8d1), credential_fill:
    //     credential_do(c, c->helpers.items[i].string, "get");
    //     if (c->password_expiry_utc < time(NULL)) {
    //         credential_clear_secrets(c);        /* FREE_AND_NULL(c->password), (c->credential) */
    //         c->password_expiry_utc = TIME_MAX;
    //     }
    //     if ((c->username && c->password) || c->credential) { ...; return; }
    // so username and oauth_refresh_token survive an expired answer, and credential_write
    // hands them to the next helper's get:
    //     credential_write_item(fp, "username", c->username, 0);
    //     credential_write_item(fp, "oauth_refresh_token", c->oauth_refresh_token, 0);
    // git-credential-oauth's get then refreshes (main.go: `if pairs["oauth_refresh_token"]
    // != ""` ... `c.TokenSource(ctx, &oauth2.Token{RefreshToken: ...}).Token()`) instead
    // of opening a browser. git 2.39's credential_read ignores both keys ("Ignore other
    // lines") and keeps the username: the next helper or git's prompt gives the password.

    static func token(_ username: Value?, expiry: UInt64?, refresh: Value? = "refresh-1") -> Credential {
        Credential(protocol: "https", host: "example.com", username: username, password: "access-1",
                   passwordExpiryUTC: expiry, oauthRefreshToken: refresh)
    }

    @Test func anExpiredTokenIsAnsweredWithWhatGitNeedsToRefreshIt() throws {
        store.replace(with: [Self.token("alice", expiry: Self.now - 1)], progress: nil)
        let found = try #require(try get(Self.lookup()))
        #expect(found.username == "alice" && found.oauthRefreshToken == "refresh-1" && found.passwordExpiryUTC == Self.now - 1)
        #expect(found.password == nil)
        let answer = String(decoding: WireFormat.response(found, for: Self.lookup()), as: UTF8.self)
        #expect(answer == "username=alice\npassword_expiry_utc=\(Self.now - 1)\noauth_refresh_token=refresh-1\n")
    }

    /// Under capability[]=authtype too: never the expired credential or its authtype.
    @Test func anExpiredCredentialIsNeverAnswered() throws {
        var bearer = Self.token("alice", expiry: Self.now - 1)
        bearer.authtype = "Bearer"
        bearer.credential = "expired-credential"
        store.replace(with: [bearer], progress: nil)
        let request = Self.lookup(capabilities: ["authtype"])
        let answer = String(decoding: WireFormat.response(try #require(try get(request)), for: request), as: UTF8.self)
        #expect(answer == "username=alice\npassword_expiry_utc=\(Self.now - 1)\noauth_refresh_token=refresh-1\n")
        #expect(!answer.contains("access-1") && !answer.contains("expired-credential") && !answer.contains("authtype"))
    }

    @Test func aWholeAnswerWinsOverAnExpiredTokenEvenIfOlder() throws {
        store.replace(with: [Self.login("bob", "valid", expiry: Self.now + 60)], progress: nil)
        store.replace(with: [Self.token("alice", expiry: Self.now - 60)], progress: nil)
        #expect(try get(Self.lookup())?.password == "valid")
        #expect(try get(Self.lookup(username: "alice"))?.oauthRefreshToken == "refresh-1")
    }

    /// The newest expired match is the account in use: an older account's refresh token
    /// would log in as someone else.
    @Test func onlyTheNewestExpiredMatchIsRefreshed() throws {
        store.replace(with: [Self.token("alice", expiry: Self.now - 60)], progress: nil)
        store.replace(with: [Self.token("bob", expiry: Self.now - 30, refresh: nil)], progress: nil)
        #expect(try get(Self.lookup()) == nil)
        #expect(try get(Self.lookup(username: "alice"))?.oauthRefreshToken == "refresh-1")
    }

    @Test(arguments: [Self.token("mallory\npassword=forged", expiry: now - 1), Self.token("mallory", expiry: now - 1, refresh: "r\nx=y")])
    func anExpiredTokenThatCannotBeWrittenIsNoAnswer(token: Credential) throws {
        store.replace(with: [token], progress: nil)
        #expect(try get(Self.lookup()) == nil)
    }

    @Test func anUnexpiredTokenIsAnsweredWhole() throws {
        store.replace(with: [Self.token("alice", expiry: Self.now)], progress: nil)
        #expect(try get(Self.lookup())?.password == "access-1")
    }

    // MARK: get from a store of several sources

    @Test func getStopsAtTheFirstSourceThatAnswersWhole() throws {
        let first = InMemoryStore(), second = InMemoryStore()
        first.replace(with: [Self.login("alice", "from-first")], progress: nil)
        second.replace(with: [Self.login("alice", "from-second")], progress: nil)
        let store = SourcesStore([.store(first), .store(second)])
        #expect(try HelperActions.get(Self.lookup(), now: Self.now) { store }?.password == "from-first")
        #expect(store.consulted == [0])
        #expect(try HelperActions.get(Self.lookup(host: "other.example"), now: Self.now) { store } == nil)
        #expect(store.consulted == [0, 0, 1])
    }

    /// An expired token in the first source does not stop the look-up: a whole answer in
    /// a later one wins; failing that, the refresh answer comes out.
    @Test func anExpiredTokenInAnEarlierSourceDefersToAWholeAnswerInALaterOne() throws {
        let first = InMemoryStore(), second = InMemoryStore()
        first.replace(with: [Self.token("alice", expiry: Self.now - 1)], progress: nil)
        second.replace(with: [Self.login("alice", "from-second")], progress: nil)
        #expect(try HelperActions.get(Self.lookup(), now: Self.now) { SourcesStore([.store(first), .store(second)]) }?.password == "from-second")
        let refresh = try HelperActions.get(Self.lookup(), now: Self.now) { SourcesStore([.store(first), .store(InMemoryStore())]) }
        #expect(refresh?.oauthRefreshToken == "refresh-1" && refresh?.password == nil)
    }

    /// A locked store that no one can unlock is passed over when another source can
    /// answer; alone, its error reaches the caller (which says why, once, and exits 0).
    @Test func anUnavailableSourceIsPassedOverOnlyWhenThereAreOthers() throws {
        let answering = InMemoryStore()
        answering.replace(with: [Self.login("alice", "from-answering")], progress: nil)
        let locked = HelperError(.unavailable, "the store is locked", fix: "unlock it")
        #expect(try HelperActions.get(Self.lookup(), now: Self.now) { SourcesStore([.failing(locked), .store(answering)]) }?.password == "from-answering")
        #expect(try HelperActions.get(Self.lookup(), now: Self.now) { SourcesStore([.store(InMemoryStore()), .failing(locked)]) } == nil)
        #expect(throws: locked) { try HelperActions.get(Self.lookup(), now: Self.now) { SourcesStore([.failing(locked)]) } }
        let broken = HelperError(.failure, "record 1 fails authentication")
        #expect(throws: broken) { try HelperActions.get(Self.lookup(), now: Self.now) { SourcesStore([.store(InMemoryStore()), .failing(broken)]) } }
    }

    @Test func authtypeOnlyItemNeedsTheCapability() throws {
        try save(Credential(protocol: "https", host: "example.com", authtype: "Bearer", credential: "token"))
        #expect(try get(Self.lookup()) == nil)
        #expect(try get(Self.lookup(capabilities: ["state"])) == nil)
        let found = try #require(try get(Self.lookup(capabilities: ["authtype", "state"])))
        #expect(found.authtype == "Bearer" && found.credential == "token")
    }

    @Test func withoutTheCapabilityAnOlderPasswordItemIsReturnedInstead() throws {
        try save(Self.login("alice", "pw"), Credential(protocol: "https", host: "example.com", authtype: "Bearer", credential: "token"))
        #expect(try get(Self.lookup())?.password == "pw")
        #expect(try get(Self.lookup(capabilities: ["authtype"]))?.credential == "token")
    }

    @Test func itemWithEmptyPasswordIsReturned() throws {
        try save(Self.login("", ""))
        let found = try #require(try get(Self.lookup()))
        #expect(found.username == "" && found.password == "")
    }

    /// What git asks for a client certificate's passphrase (http.sslCertPasswordProtected).
    @Test func certificatePassphraseIsFoundByPath() throws {
        try save(try parse("protocol=cert\nhost=\npath=/home/me/cert.p12\nusername=\npassword=passphrase\n"))
        #expect(try get(try parse("protocol=cert\nhost=\npath=/home/me/cert.p12\nusername=\n"))?.password == "passphrase")
        #expect(try get(try parse("protocol=cert\nhost=\npath=/home/me/other.p12\nusername=\n")) == nil)
        #expect(try get(try parse("protocol=https\nhost=\npath=/home/me/cert.p12\n")) == nil)
    }

    @Test func getThroughTheWireFormat() throws {
        try save(Credential(protocol: "https", host: "example.com", username: "alice", password: "pw", authtype: "Bearer", credential: "token"))
        for (request, expected) in [
            ("protocol=https\nhost=example.com\n\n", "username=alice\npassword=pw\n"),
            ("capability[]=authtype\ncapability[]=state\nprotocol=https\nhost=example.com\n\n",
             "capability[]=authtype\nauthtype=Bearer\ncredential=token\nusername=alice\npassword=pw\n"),
            ("protocol=https\nhost=example.com:443\n\n", ""),
        ] {
            let parsed = try parse(request)
            let answer = try get(parsed).map { WireFormat.response($0, for: parsed) } ?? []
            #expect(String(decoding: answer, as: UTF8.self) == expected)
        }
    }

    @Test func getOpensNoStoreForAnIncompleteLookup() throws {
        #expect(try get(Credential(host: "example.com", username: "alice")) == nil)
        #expect(store.opens == 0)
    }

    @Test func getWithoutAStoreFindsNothing() throws {
        #expect(try HelperActions.get(Self.lookup(), now: Self.now) { nil } == nil)
    }

    // MARK: store

    @Test func storeKeepsOnlyTheStorableFields() throws {
        var credential = Self.login("alice", "pw", expiry: Self.now + 10)
        credential.capabilities = ["authtype"]
        credential.wwwauth = ["Basic"]
        credential.state = ["x"]
        try save(credential)
        #expect(store.stored == [credential.storable])
    }

    @Test func storeIgnoresAnEphemeralCredential() throws {
        var credential = Self.login("alice", "pw")
        credential.ephemeral = true
        try save(credential)
        #expect(store.stored.isEmpty)
        #expect(store.opens == 0)
    }

    @Test func storeIgnoresAnIncompleteCredential() throws {
        try save(
            Self.login("alice", nil),
            Self.login(nil, "pw"),
            Credential(host: "example.com", username: "alice", password: "pw"),
            Credential(protocol: "https", username: "alice", password: "pw"),
            Credential(protocol: "https", host: "example.com", authtype: "Bearer"))
        #expect(store.stored.isEmpty)
    }

    @Test func storeIgnoresAnAlreadyExpiredCredential() throws {
        try save(Self.login("alice", "pw", expiry: Self.now - 1))
        #expect(store.stored.isEmpty)
        try save(Self.login("alice", "pw", expiry: Self.now))
        #expect(store.stored.count == 1)
    }

    @Test func storeReplacesTheSameKeyAndKeepsOtherUsers() throws {
        var first = Self.login("alice", "old", expiry: Self.now + 100)
        first.oauthRefreshToken = "old-refresh"
        try save(first, Self.login("bob", "pw-b"), Self.login("alice", "new"))
        #expect(usernames == ["alice", "bob"])
        let alice = try #require(try get(Self.lookup(username: "alice")))
        #expect(alice.password == "new")
        #expect(alice.passwordExpiryUTC == nil)
        #expect(alice.oauthRefreshToken == nil)
        #expect(try get(Self.lookup(username: "bob"))?.password == "pw-b")
    }

    /// git stores after every successful use what get answered: the newest item of the
    /// host, unchanged, is not written again.
    @Test func storeOfTheNewestItemUnchangedWritesNothing() throws {
        var alice = Self.login("alice", "pw", expiry: Self.now + 100)
        alice.oauthRefreshToken = "refresh"
        try save(Self.login("bob", "pw-b"), alice)
        var again = alice
        again.capabilities = ["authtype"]  // what git sends along is not stored, so no change
        try save(again)
        #expect(store.writes == 2)
        #expect(usernames == ["alice", "bob"])
        // Any stored field that differs is a change: written.
        var changes = [Self.login("alice", "pw2", expiry: Self.now + 100), Self.login("alice", "pw", expiry: Self.now + 100),
                       Self.login("alice", "pw", expiry: Self.now + 200)]
        changes[0].oauthRefreshToken = "refresh"
        changes[2].oauthRefreshToken = "refresh"
        changes.append(alice)
        changes[3].oauthRefreshToken = "refresh2"
        for (index, changed) in changes.enumerated() {
            try save(changed)
            #expect(store.writes == 3 + index, "\(changed) was not written")
            #expect(store.stored.first == changed)
        }
    }

    /// An identical item that is not the newest of its host is stored again, so that it
    /// becomes the one get answers (git stores the credential it just used).
    @Test func storeOfAnOlderItemUnchangedMakesItTheNewest() throws {
        try save(Self.login("alice", "pw-a"), Self.login("bob", "pw-b"))
        #expect(try get(Self.lookup())?.username == "bob")
        try save(Self.login("alice", "pw-a"))
        #expect(store.writes == 3)
        #expect(try get(Self.lookup())?.username == "alice")
        try save(Self.login("alice", "pw-a"))
        #expect(store.writes == 3)
    }

    @Test func storeTreatsOtherPathsPortsAndEmptyUsernamesAsOtherKeys() throws {
        try save(
            Self.login("alice", "1"), Self.login("alice", "2", path: "repo"), Self.login("alice", "3", host: "example.com:8443"),
            Self.login("", "4"))
        #expect(store.stored.count == 4)
    }

    // MARK: erase

    @Test func eraseWithoutKeyFieldsErasesNothing() throws {
        try save(Self.login("alice", "pw"), Self.login("bob", "pw"))
        try erase(Credential())
        try erase(Credential(password: "pw"))
        try erase(Credential(authtype: "Bearer", credential: "token"))
        #expect(store.stored.count == 2)
        #expect(store.opens == 2)  // the two stores only
    }

    @Test func eraseDeletesEveryMatch() throws {
        try save(Self.login("alice", "a"), Self.login("bob", "b"), Self.login("carol", "c", host: "example.com:8443"))
        try erase(Self.lookup())
        #expect(usernames == ["carol"])
    }

    @Test func eraseWithAUsernameDeletesOnlyThatUser() throws {
        try save(Self.login("alice", "a"), Self.login("bob", "b"))
        try erase(Self.lookup(username: "alice"))
        #expect(usernames == ["bob"])
    }

    @Test func eraseWithAPasswordDeletesOnlyItemsWithThatPassword() throws {
        try save(Self.login("alice", "shared"), Self.login("bob", "other"), Self.login("carol", "shared"))
        var request = Self.lookup()
        request.password = "shared"
        try erase(request)
        #expect(usernames == ["bob"])
    }

    @Test func eraseWithAWrongPasswordDeletesNothing() throws {
        try save(Self.login("alice", "pw"))
        var request = Self.lookup(username: "alice")
        request.password = "stale"
        try erase(request)
        #expect(usernames == ["alice"])
    }

    @Test func eraseOfTheNewestUserKeepsTheOthers() throws {
        try save(Self.login("alice", "a"), Self.login("bob", "b"))
        var request = Self.lookup()
        request.password = "b"
        try erase(request)
        #expect(usernames == ["alice"])
        #expect(try get(Self.lookup())?.username == "alice")
    }
}

/// A store whose look-ups are several sources, like git-credential-keyring's (the
/// keyring, then the SQLite store); it records which sources were consulted.
final class SourcesStore: ManagedStore {
    enum Source {
        case store(InMemoryStore)
        case failing(HelperError)
    }

    let sources: [Source]
    private(set) var consulted: [Int] = []

    init(_ sources: [Source]) { self.sources = sources }

    var lookupSources: [LookupSource] {
        sources.enumerated().map { index, source in
            LookupSource(name: "source \(index)") { [self] request in
                consulted.append(index)
                switch source {
                case .store(let store): return store.items(matching: request, for: .lookup)
                case .failing(let error): throw error
                }
            }
        }
    }

    func items(matching request: Credential, for purpose: MatchPurpose) -> [Credential] { [] }
    func replace(with credentials: [Credential], progress: Progress?) {}
    func remove(matching request: Credential) -> Int { 0 }
    func list() -> [StoredItem] { [] }
    func all() -> [Credential] { [] }
    func removeAll() -> Int { 0 }
}
