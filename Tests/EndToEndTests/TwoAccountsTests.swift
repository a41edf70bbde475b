import Foundation
import Testing

/// A work and a personal account on one server (issue 26, item 2), through real git over
/// HTTP: repository `work` accepts alice-work only, `personal` alice only. git asks the
/// helper by protocol and host; without more, both accounts match and the newest answers.
@Suite struct TwoAccountsTests {
    /// The ways to tell git which account a repository uses (README, "Work and personal
    /// accounts on one server").
    enum Way: String, CaseIterable, CustomTestStringConvertible {
        case usernameInURL = "the username in the URL"
        case usernameConfig = "credential.<url>.username"
        case useHttpPath = "credential.useHttpPath"
        case storePerURL = "a store per URL (configure --url)"
        var testDescription: String { rawValue }
    }

    let machine: ClientMachine
    let server: BasicAuthServer
    let work = (username: "alice-work", password: "work " + awkwardPassword())
    let personal = (username: "alice", password: "personal " + awkwardPassword())

    init() throws { try self.init(.sqlite) }

    init(_ helper: StoringHelper) throws {
        machine = try ClientMachine(helper)
        server = try machine.startServer(username: work.username, password: work.password)
        try server.makeRepository("work")
        try server.makeRepository("personal")
        try server.accept(username: personal.username, password: personal.password, forRepository: "personal")
    }

    var sandbox: Sandbox { machine.sandbox }

    /// `http://[USER@]HOST/git/NAME.git`.
    func url(_ name: String, user: String? = nil) -> String {
        "http://" + (user.map { $0 + "@" } ?? "") + server.host + "/git/\(name).git"
    }

    /// Clones `url` into the sandbox (no prompt can answer: GIT_TERMINAL_PROMPT=0, no askpass).
    func clone(_ url: String, into name: String, environment: [String: String] = [:]) throws -> ProcessResult {
        try machine.git(["clone", "--quiet", url, sandbox.root + "/" + name], environment: environment)
    }

    /// The password the helper `sqlite` (default: the machine's) answers for the request's fields.
    func stored(_ fields: [String], in helper: (any CredentialHelper)? = nil) throws -> String? {
        let request = wire(["protocol=http", "host=\(server.host)"] + fields)
        return try (helper ?? machine.helper).get(request).attributes["password"]
    }

    @Test func withoutConfigurationTheNewestAnswersTheOtherRepositoryAndTheTraceSaysWhichUserAndWhy() throws {
        try machine.store(username: work.username, password: work.password, for: server)
        try machine.store(username: personal.username, password: personal.password, for: server)
        let trace = sandbox.root + "/trace"

        let clone = try clone(url("work"), into: "work", environment: ["GIT_CREDENTIAL_TRACE": trace])
        #expect(clone.exitCode != 0 && clone.stderrText.contains("Authentication failed"), "clone: \(clone)")
        let traced = String(decoding: contents(of: trace) ?? [], as: UTF8.self)
        #expect(traced.contains("2 users match http://\(server.host): chose alice, stored most recently; the URL's username or credential.<url>.username chooses one"),
                "trace:\n\(traced)")
        // git's reject of the wrong answer erased the personal account's right credential.
        #expect(try stored(["username=alice"]) == nil, "git's reject left the credential it rejected")
        #expect(try stored(["username=alice-work"]) == work.password, "the work credential was lost")
    }

    @Test(arguments: Way.allCases)
    func eachWayGivesEachRepositoryItsAccountAndKeepsBoth(way: Way) throws {
        try expectEachRepositoryGetsItsAccount(way)
    }

    /// The same through git-credential-keyring at the desktop: the Secret Service's items
    /// keep the username and the path too. (A store per URL is a SQLite store's option.)
    @Test(arguments: [Way.usernameInURL, .usernameConfig, .useHttpPath])
    func eachWayWorksWithTheKeyringToo(way: Way) throws {
        try TwoAccountsTests(.keyring).expectEachRepositoryGetsItsAccount(way)
    }

    func expectEachRepositoryGetsItsAccount(_ way: Way) throws {
        let workStore = sandbox.root + "/work-store/credentials.db"
        var urls = (work: url("work"), personal: url("personal"))
        switch way {
        case .usernameInURL:
            urls = (url("work", user: work.username), url("personal", user: personal.username))
        case .usernameConfig:
            // The README's two lines, in its order: the host's username, then the work
            // repository's (git applies each matching line in order, the last wins).
            for (prefix, user) in [("http://\(server.host)", personal.username), (url("work"), work.username)] {
                let set = try machine.git(["config", "--global", "credential.\(prefix).username", user])
                #expect(set.exitCode == 0, "git config: \(set)")
            }
        case .useHttpPath:
            let set = try machine.git(["config", "--global", "credential.useHttpPath", "true"])
            #expect(set.exitCode == 0, "git config: \(set)")
        case .storePerURL:
            let configured = try sandbox.sqlite()("configure", "--db", workStore, "--url", url("work"))
            #expect(configured.exitCode == 0 && configured.stderrText.contains("configured: credential.\(url("work")).helper = "), "configure: \(configured)")
        }
        // Stored as git stores them after a clone that asked: with the path under useHttpPath.
        let paths: (work: [String], personal: [String]) = way == .useHttpPath ? (["path=git/work.git"], ["path=git/personal.git"]) : ([], [])
        try (way == .storePerURL ? sandbox.sqlite(["--db", workStore]) as any CredentialHelper : machine.helper)
            .storeAll(wire(["protocol=http", "host=\(server.host)"] + paths.work + ["username=\(work.username)", "password=\(work.password)"]))
        try machine.helper.storeAll(wire(["protocol=http", "host=\(server.host)"] + paths.personal
                                             + ["username=\(personal.username)", "password=\(personal.password)"]))

        for (name, clonedURL) in [("work", urls.work), ("personal", urls.personal), ("work", urls.work)] {
            let result = try clone(clonedURL, into: name + "-" + UUID().uuidString.prefix(4))
            #expect(result.exitCode == 0, "clone of \(name) (\(way)): \(result)\n\(server.log)")
        }
        let personalPassword = try stored(paths.personal + ["username=alice"])
        let workPassword = try stored(paths.work + ["username=alice-work"], in: way == .storePerURL ? sandbox.sqlite(["--db", workStore]) : nil)
        #expect(personalPassword == personal.password && workPassword == work.password, "a credential was lost (\(way))")
    }

    /// A store per URL is a credential.<url>.helper line: doctor checks it, status names it,
    /// and unconfigure --url removes it.
    @Test func aStorePerURLIsSeenByDoctorStatusAndUnconfigure() throws {
        let workStore = sandbox.root + "/work-store/credentials.db", workURL = url("work")
        let unset = try machine.git(["config", "--global", "--unset-all", "credential.helper"])
        #expect(unset.exitCode == 0, "git config: \(unset)")
        let configured = try sandbox.sqlite()("configure", "--db", workStore, "--url", workURL)
        #expect(configured.exitCode == 0, "configure: \(configured)")

        let doctor = try sandbox.sqlite()("doctor", "--db", workStore)
        #expect(doctor.stdoutText.contains("ok    git config: no helper; sqlite runs for \(workURL) only"), "doctor: \(doctor)")
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("ok    helper: git runs ") && $0.contains("git-credential-sqlite with --db \(workStore) --key-file ") && $0.hasSuffix(" for \(workURL)") },
                "doctor: \(doctor)")
        #expect(!doctor.stdoutText.contains("FAIL"), "doctor: \(doctor)")

        let status = try sandbox.sqlite()("status")
        #expect(status.stdoutLines.contains("git asks first: no helper (sqlite is not configured)"), "status: \(status)")
        #expect(status.stdoutLines.contains { $0.hasPrefix("for \(workURL) git asks first: \"/") && $0.contains("git-credential-sqlite --db \(workStore) --key-file ") && $0.hasSuffix("\" (global configuration)") },
                "status: \(status)")
        #expect(status.stdoutLines.first?.hasPrefix("store: \(workStore) (none yet: the first store creates it") == true, "status follows git's line: \(status)")

        // list follows the URL's line to its store, as every management command does.
        try sandbox.sqlite(["--db", workStore]).storeAll(wire("protocol=http", "host=\(server.host)", "username=\(work.username)", "password=\(work.password)"))
        let listed = try sandbox.sqlite()("list")
        #expect(listed.exitCode == 0 && listed.stdoutText.contains(work.username) && listed.stderrText.contains("using the store of git's credential.helper: --db \(workStore)"),
                "list: \(listed)")

        let unconfigured = try sandbox.sqlite()("unconfigure", "--url", workURL)
        #expect(unconfigured.exitCode == 0 && unconfigured.stderrText.contains("unconfigured: credential.\(workURL).helper no longer names sqlite"),
                "unconfigure: \(unconfigured)")
        let left = try machine.git(["config", "--global", "--get-regexp", "^credential\\..*helper$"])
        #expect(left.stdoutText.isEmpty, "left in ~/.gitconfig: \(left)")
    }

    /// A general configure after configure --url: git builds one list per request, so the
    /// general reset written after the URL's pair would clear it (git then asked only the
    /// default store, while status said the URL's). configure moves the URL's pair after its
    /// own, and git, status and doctor agree: the work store answers the work repository.
    /// The same for a pattern without a scheme (`configure --url HOST`), which git matches as
    /// a host (re-test of issue 26: it was neither moved nor seen by status).
    @Test(arguments: [false, true])
    func aGeneralConfigureAfterAStorePerURLKeepsTheURLsStore(withoutScheme: Bool) throws {
        let workStore = sandbox.root + "/work-store/credentials.db", workURL = withoutScheme ? server.host : url("work")
        let perURL = try sandbox.sqlite()("configure", "--url", workURL, "--db", workStore)
        #expect(perURL.exitCode == 0, "configure --url: \(perURL)")
        let general = try sandbox.sqlite()("configure")
        #expect(general.exitCode == 0 && general.stderrText.contains("moved credential.\(workURL).helper after the new line, so that git still asks it for \(workURL)"),
                "configure: \(general)")
        try sandbox.sqlite(["--db", workStore]).storeAll(wire("protocol=http", "host=\(server.host)", "username=\(work.username)", "password=\(work.password)"))

        let clone = try clone(url("work"), into: "work")
        #expect(clone.exitCode == 0, "git did not ask the work store: \(clone)")
        let status = try sandbox.sqlite()("status")
        #expect(status.stdoutLines.contains { $0.hasPrefix("for \(workURL) git asks first: \"/") && $0.contains("--db \(workStore)") }, "status: \(status)")
        let again = try sandbox.sqlite()("configure")
        #expect(again.exitCode == 0 && again.stderrText.contains("already configured"), "configure again: \(again)")
    }

    /// Each scope's file is read in turn: configure --local's reset comes after a global URL
    /// line, and git no longer asks it there; configure says so in one line.
    @Test func configureLocalSaysWhichURLLineItStops() throws {
        let workStore = sandbox.root + "/work-store/credentials.db", workURL = url("work")
        let perURL = try sandbox.sqlite()("configure", "--url", workURL, "--db", workStore)
        #expect(perURL.exitCode == 0, "configure --url: \(perURL)")
        let repository = sandbox.root + "/repository"
        #expect(try machine.git(["init", "--quiet", repository]).exitCode == 0)
        let local = try sandbox.run(BuiltProducts.sqliteHelper, ["configure", "--local"], directory: repository)
        #expect(local.exitCode == 0 && local.stderrText.contains("note: git no longer asks \"") && local.stderrText.contains(" for \(workURL): its credential.<url>.helper line in the global configuration comes before the reset line just written in the local one"),
                "configure --local: \(local)")
    }

    /// With useHttpPath each repository's credential holds its path: erase and list of one
    /// repository's URL leave the other's (erase once said "erased 2"); one stored without
    /// a path is still the URL's.
    @Test func eraseAndListOfARepositorysURLLeaveTheOtherRepository() throws {
        let sqlite = sandbox.sqlite()
        for (name, account) in [("work", work), ("personal", personal)] {
            try machine.helper.storeAll(wire("protocol=http", "host=\(server.host)", "path=git/\(name).git", "username=\(account.username)", "password=\(account.password)"))
        }
        try machine.helper.storeAll(wire("protocol=http", "host=\(server.host)", "username=bob", "password=no path"))
        let listed = try sqlite("list", url("work"))
        #expect(listed.stdoutText.contains(work.username) && listed.stdoutText.contains("bob") && !listed.stdoutText.contains(personal.username + " ") ,
                "list: \(listed)")
        let erased = try sqlite("erase", url("work"))
        #expect(erased.exitCode == 0 && erased.stderrText.contains("erased 2 credentials"), "erase: \(erased)")
        #expect(try stored(["path=git/personal.git", "username=\(personal.username)"]) == personal.password, "erase took the personal repository's credential")
        #expect(try stored(["path=git/work.git"]) == nil, "erase left the work repository's")
        #expect(try stored(["username=bob"]) == nil, "erase left the one stored without a path")
    }

    /// configure --url and unconfigure --url read a URL with and without its trailing
    /// slash as the same (git's matching does).
    @Test func unconfigureFindsTheURLWithOrWithoutATrailingSlash() throws {
        let configured = try sandbox.sqlite()("configure", "--url", "https://ex.example/other")
        #expect(configured.exitCode == 0, "configure: \(configured)")
        let unconfigured = try sandbox.sqlite()("unconfigure", "--url", "https://ex.example/other/")
        #expect(unconfigured.exitCode == 0 && unconfigured.stderrText.contains("unconfigured: credential.https://ex.example/other.helper no longer names sqlite"),
                "unconfigure: \(unconfigured)")
    }

    /// The README's way 2 with a wrong password: the personal clone fails and git's reject
    /// erases the personal credential only; the work account's is kept and still works.
    @Test func theREADMEsUsernameLinesKeepTheOtherAccountWhenAPasswordIsWrong() throws {
        for (prefix, user) in [("http://\(server.host)", personal.username), (url("work"), work.username)] {
            #expect(try machine.git(["config", "--global", "credential.\(prefix).username", user]).exitCode == 0)
        }
        try machine.store(username: work.username, password: work.password, for: server)
        try machine.store(username: personal.username, password: "wrong", for: server)
        let personalClone = try clone(url("personal"), into: "personal")
        #expect(personalClone.exitCode != 0 && personalClone.stderrText.contains("Authentication failed"), "clone of personal: \(personalClone)")
        #expect(try stored(["username=alice"]) == nil, "git's reject left the wrong personal credential")
        #expect(try stored(["username=alice-work"]) == work.password, "the reject took the work credential")
        let workClone = try clone(url("work"), into: "work")
        #expect(workClone.exitCode == 0, "clone of work: \(workClone)")
    }
}
