import Foundation
import Testing

/// git-credential-forward as a differential: for each request the remote's git makes, the
/// answer through the forward must be the answer the person's own git gives for the same
/// request at their machine. Real git on both ends (the remote's a HOME of its own whose
/// credential.helper is `git-credential-forward --socket S`, no ssh: ForwardingTests has
/// the real ssh, and one case here), over the person's stores and the account setups of
/// the README (one account; two by username lines; two by path).
@Suite struct ForwardDifferentialTests {
    /// The person's store: the helper their git config names.
    enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite = "git-credential-sqlite"
        case sqliteUnlocked = "git-credential-sqlite with a passphrase, unlocked"
        case sqliteLocked = "git-credential-sqlite with a passphrase, locked"
        case keyringWithoutBus = "git-credential-keyring without a session bus"
        case keyring = "git-credential-keyring"
        case secretService = "git-credential-secretservice"
        case pass = "git-credential-pass"

        var testDescription: String { rawValue }
        var locked: Bool { self == .sqliteLocked }
    }

    /// How the person's git picks alice's account for a repository on the host.
    enum Accounts: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case one = "one account"
        case byUsername = "two accounts by username lines"
        case byPath = "two accounts by path"

        var testDescription: String { rawValue }
        /// Whether the person's git picks the account by the repository's path.
        var dependOnPath: Bool { self != .one }
    }

    /// The repositories the remote's git asks for.
    enum Repository: String, CaseIterable, Sendable {
        case work = "acme/app.git"
        case personal = "alice/dotfiles.git"
        /// Stored under no path of its own: the host-wide account, or nothing by path.
        case other = "bob/notes.git"
    }

    /// The person's machine: a `ClientMachine` whose git names the store, the account setup
    /// in its ~/.gitconfig, and the credentials stored through its own `git credential approve`.
    final class Person {
        let store: Store
        let accounts: Accounts
        let machine: ClientMachine
        /// The host of the person's git server (a name of the test's own: the Secret Service
        /// is one keyring for all tests).
        let host: String
        /// What git and the helpers need here beyond the machine's environment (pass's store).
        let environment: [String: String]
        static let passwords = ["alice": "pw-of-alice", "alice-work": "pw-of-alice-work"]
        private let passwordStore: PasswordStore?
        /// The passphrase store's helper with its passphrase (descriptor 3), to unlock and lock.
        private let passphraseHelper: SQLiteHelper?
        private let secretTool: SecretTool?

        init(_ store: Store, _ accounts: Accounts, machine given: ClientMachine? = nil) throws {
            self.store = store
            self.accounts = accounts
            host = UniqueNames()("git.example.com")
            switch store {
            case .sqlite, .sqliteUnlocked, .sqliteLocked, .pass: machine = try given ?? ClientMachine(.sqlite)
            case .keyringWithoutBus: machine = try given ?? ClientMachine(.keyringOverSSH)
            case .keyring: machine = try given ?? ClientMachine(.keyring)
            case .secretService: machine = try given ?? ClientMachine(.secretService)
            }
            secretTool = [.keyring, .secretService].contains(store) ? SecretTool(sandbox: machine.sandbox, bus: try SessionBus.testKeyring()) : nil
            if store == .pass {
                let passwordStore = try PasswordStore(sandbox: machine.sandbox)  // rewrites ~/.gitconfig
                self.passwordStore = passwordStore
                environment = machine.environment.merging(passwordStore.environment) { $1 }
            } else {
                passwordStore = nil
                environment = machine.environment
            }
            if store == .sqliteUnlocked || store == .sqliteLocked {
                let file = try machine.sandbox.file("secrets/passphrase", "correct horse battery staple\n")
                let helper = try #require(machine.helper as? SQLiteHelper).with(passphraseFile: file)
                passphraseHelper = helper
                let made = try helper.initPassphrase()
                #expect(made.exitCode == 0, "init --passphrase: \(made)")
            } else {
                passphraseHelper = nil
            }
            try unlock()
            if store == .pass { try config("credential.helper", BuiltProducts.passHelper) }
            let url = "https://\(host)"
            switch accounts {
            case .one:
                try approve(url, "alice")
            case .byUsername:
                try config("credential.\(url).username", "alice")
                try config("credential.\(url)/acme.username", "alice-work")
                try approve(url, "alice")
                try approve(url, "alice-work")
            case .byPath:
                try config("credential.\(url).useHttpPath", "true")
                try approve(url + "/acme/app.git", "alice-work")
                try approve(url + "/alice/dotfiles.git", "alice")
            }
            if store.locked { try lock() }
        }

        deinit {
            _ = try? lock()
            try? secretTool?.clear(["server": host])
        }

        func url(_ repository: Repository) -> String { "https://\(host)/\(repository.rawValue)" }

        /// The username git here must fill in for the repository, nil for none.
        func expectedUsername(_ repository: Repository) -> String? {
            switch (accounts, repository) {
            case (.byUsername, .work), (.byPath, .work): "alice-work"
            case (.byPath, .other): nil
            default: "alice"
            }
        }

        /// The credential of the work repository's account, as git's reject of it sends it.
        var workCredential: (username: String, password: String) {
            let username = accounts == .one ? "alice" : "alice-work"
            return (username, Self.passwords[username]!)
        }

        /// The person's own git, in their HOME (outside any repository), as serve runs it.
        func git(_ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
            try machine.sandbox.git(arguments, input: input, environment: environment)
        }

        func config(_ key: String, _ value: String) throws {
            let configured = try git(["config", "--global", key, value])
            guard configured.exitCode == 0 else { throw SpawnError(description: "git config \(key): \(configured)") }
        }

        func approve(_ url: String, _ username: String) throws {
            let approved = try git(["credential", "approve"], input: wire("url=\(url)", "username=\(username)", "password=\(Self.passwords[username]!)"))
            #expect(approved.exitCode == 0 && approved.stderr.isEmpty, "\(store) approve \(url) \(username): \(approved)")
        }

        /// `git credential fill` here of the repository's URL.
        func fill(_ repository: Repository) throws -> ProcessResult {
            try git(["credential", "fill"], input: wire("url=\(url(repository))"))
        }

        /// The passphrase store unlocked (for a while) or locked again; nothing for the others.
        func unlock() throws {
            guard let passphraseHelper else { return }
            let unlocked = try passphraseHelper("unlock", "--timeout", "10m")
            #expect(unlocked.exitCode == 0, "unlock: \(unlocked)")
        }

        func lock() throws {
            guard let passphraseHelper else { return }
            let locked = try passphraseHelper("lock")
            #expect(locked.exitCode == 0, "lock: \(locked)")
        }

        /// serve for the remote, allowing the host, on a socket in a directory of its own.
        func serve(_ options: [String] = []) throws -> ForwardServe {
            let directory = machine.sandbox.root + "/forward-" + UUID().uuidString.prefix(8)
            return try ForwardServe(machine: machine, name: "remote", ["--host", host, "--socket", directory + "/socket"] + options,
                                    environment: environment)
        }
    }

    /// The remote machine without ssh: a HOME of its own whose git asks serve's socket, with
    /// `credential.useHttpPath true` (as setup configures it now) or without (an old setup).
    final class Remote {
        let sandbox: Sandbox

        init(socket: String, useHttpPath: Bool) throws {
            sandbox = try Sandbox()
            var settings = [("credential.helper", "\(BuiltProducts.forward) --socket \(shellQuoted(socket))")]
            if useHttpPath { settings.append(("credential.useHttpPath", "true")) }
            for (key, value) in settings {
                let configured = try sandbox.git(["config", "--global", key, value])
                guard configured.exitCode == 0 else { throw SpawnError(description: "remote git config \(key): \(configured)") }
            }
        }

        func credential(_ action: String, _ input: [UInt8]) throws -> ProcessResult {
            try sandbox.git(["credential", action], input: input)
        }
    }

    /// What a fill answered, less the path (which the remote's git sends with useHttpPath and
    /// the person's may not: the one field the two answers may differ in).
    static func answer(_ result: ProcessResult) -> [String: String] {
        result.attributes.filter { $0.key != "path" }
    }

    /// The remote's fill equals the person's local fill of the same request: both hit with the
    /// same username and password (the expected account's), or both miss; a miss on the remote
    /// shows no credential nor any stored password.
    static func expectSameAnswer(remote: ProcessResult, local: ProcessResult, expected username: String?, _ what: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        let context = "\(what)\nremote: \(remote)\nlocal: \(local)"
        #expect(answer(remote) == answer(local), "the answers differ: \(context)", sourceLocation: sourceLocation)
        if let username {
            let password = Person.passwords[username]!
            #expect(local.exitCode == 0 && local.attributes["username"] == username && local.attributes["password"] == password,
                    "local git did not answer \(username)'s password: \(context)", sourceLocation: sourceLocation)
            #expect(remote.exitCode == 0 && remote.stderr.isEmpty && remote.attributes["username"] == username && remote.attributes["password"] == password,
                    "the remote did not get \(username)'s password: \(context)", sourceLocation: sourceLocation)
        } else {
            #expect(local.exitCode != 0 && local.attributes["password"] == nil, "local git answered: \(context)", sourceLocation: sourceLocation)
            expectNothingAnswered(remote, context, sourceLocation: sourceLocation)
        }
    }

    /// A fill that failed with nothing on stdout, and no stored password anywhere in what it said.
    static func expectNothingAnswered(_ remote: ProcessResult, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(remote.exitCode != 0 && remote.stdout.isEmpty, "the remote got an answer: \(context)", sourceLocation: sourceLocation)
        for password in Person.passwords.values {
            #expect(!remote.stdout.bytes.containsUTF8(password) && !remote.stderr.bytes.containsUTF8(password),
                    "the remote was shown \(password): \(context)", sourceLocation: sourceLocation)
        }
    }

    /// The remote helper's line for a request without its path where the account depends on it.
    static func refusal(_ host: String) -> String {
        "git-credential-forward: your machine picks the account for \(host) by the repository's path, and git here sends none, so it answered nothing. Fix: git config --global credential.useHttpPath true"
    }

    /// Every repository's fill through the forward equals the local fill; a remote set up
    /// without useHttpPath gets the same where the account does not depend on the path, and
    /// else the documented refusal, never the other account.
    @Test(arguments: Store.allCases, Accounts.allCases)
    func theRemoteGetsWhatTheLocalGitGets(store: Store, accounts: Accounts) throws {
        let person = try Person(store, accounts)
        let serve = try person.serve()
        let remote = try Remote(socket: serve.socket, useHttpPath: true)
        let oldRemote = try Remote(socket: serve.socket, useHttpPath: false)
        for repository in Repository.allCases {
            let request = wire("url=\(person.url(repository))")
            let local = try person.fill(repository)
            let expected = store.locked ? nil : person.expectedUsername(repository)
            let forwarded = try remote.credential("fill", request)
            Self.expectSameAnswer(remote: forwarded, local: local, expected: expected, "\(store), \(accounts), \(repository)\nserve: \(serve.log)")

            let old = try oldRemote.credential("fill", request)
            let context = "without useHttpPath: \(store), \(accounts), \(repository)\nremote: \(old)\nlocal: \(local)\nserve: \(serve.log)"
            if accounts.dependOnPath {
                Self.expectNothingAnswered(old, context)
                #expect(old.stderrLines.contains(Self.refusal(person.host)), "not the documented refusal: \(context)")
            } else {
                Self.expectSameAnswer(remote: old, local: local, expected: expected, context)
            }
        }
    }

    /// The remote's reject of the work account's credential (serve --allow-erase) leaves
    /// the person's store as the person's own reject of it does in a copy of the world: what
    /// local git fills afterwards is the same for every repository, and the personal
    /// credential survives. A locked store is unlocked after the reject (its reject erased
    /// nothing on either side, then).
    @Test(arguments: Store.allCases, Accounts.allCases)
    func theRemotesRejectErasesWhatTheLocalRejectErases(store: Store, accounts: Accounts) throws {
        let here = try Person(store, accounts), there = try Person(store, accounts)
        let (username, password) = here.workCredential
        let rejectedHere = try here.git(["credential", "reject"], input: wire("url=\(here.url(.work))", "username=\(username)", "password=\(password)"))
        #expect(rejectedHere.exitCode == 0, "local reject: \(rejectedHere)")

        let serve = try there.serve(["--allow-erase"])
        // A remote set up without useHttpPath erases nothing where the account depends on
        // the path (the reject would reach the host-wide account): the documented refusal.
        if accounts.dependOnPath {
            let oldRemote = try Remote(socket: serve.socket, useHttpPath: false)
            let refused = try oldRemote.credential("reject", wire("url=\(there.url(.work))", "username=\(username)", "password=\(password)"))
            #expect(refused.exitCode == 0 && refused.stderrLines.contains(Self.refusal(there.host)), "reject without the path: \(refused)\nserve: \(serve.log)")
        }
        let remote = try Remote(socket: serve.socket, useHttpPath: true)
        let rejectedThere = try remote.credential("reject", wire("url=\(there.url(.work))", "username=\(username)", "password=\(password)"))
        #expect(rejectedThere.exitCode == 0, "remote reject: \(rejectedThere)\nserve: \(serve.log)")
        if !store.locked {
            #expect(rejectedHere.stderr.isEmpty && rejectedThere.stderr.isEmpty, "local: \(rejectedHere)\nremote: \(rejectedThere)\nserve: \(serve.log)")
        }
        try here.unlock()
        try there.unlock()

        for repository in Repository.allCases {
            let afterHere = try here.fill(repository), afterThere = try there.fill(repository)
            let context = "after reject, \(store), \(accounts), \(repository)\nlocal reject's world: \(afterHere)\nremote reject's world: \(afterThere)\nserve: \(serve.log)"
            #expect(Self.answer(afterHere).filter { $0.key != "host" } == Self.answer(afterThere).filter { $0.key != "host" }, "the stores differ: \(context)")
            // What is left: all of it where the reject could not erase (locked), else every
            // account but the work one.
            var expected = here.expectedUsername(repository)
            if !store.locked && expected == username { expected = nil }
            #expect(afterThere.attributes["username"] == expected && afterThere.attributes["password"] == expected.flatMap { Person.passwords[$0] },
                    "expected \(expected ?? "nothing"): \(context)")
        }
    }

    /// The same through real ssh and sshd (ForwardWorld): two accounts by username lines,
    /// git-credential-sqlite, the remote's git with useHttpPath.
    @Test(.enabled(if: sshWorldUnavailable == nil, Comment(rawValue: sshWorldUnavailable ?? "")))
    func throughSSHTheRemoteGetsWhatTheLocalGitGets() throws {
        let world = try ForwardWorld()
        let person = try Person(.sqlite, .byUsername, machine: world.machine)
        let serve = try world.serve(["--host", person.host])
        let configured = try world.sshd.run("git config --global credential.useHttpPath true")
        #expect(configured.exitCode == 0, "\(configured)")
        for repository in Repository.allCases {
            let local = try person.fill(repository)
            let forwarded = try world.credential("fill", wire("url=\(person.url(repository))"), through: serve)
            Self.expectSameAnswer(remote: forwarded, local: local, expected: person.expectedUsername(repository),
                                  "over ssh, \(repository)\nserve: \(serve.stderr) \(serve.log)")
        }
    }
}
