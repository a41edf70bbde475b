import Foundation
import Testing

/// An expired OAuth token stored by our helper, with git-credential-oauth configured after
/// it (`credential.helper=ours`, then `credential.helper=oauth`), through real git fetching
/// over HTTP. Our helper answers the expired token with username, oauth_refresh_token and
/// the expiry, never the expired password. What git does with that answer depends on its
/// version (credential.c):
/// - git 2.41 and newer, credential_fill: `if (c->password_expiry_utc < time(NULL)) {
///   credential_clear_secrets(c); ...}` frees password and credential only; credential_write
///   then hands `username` and `oauth_refresh_token` to the next helper, which refreshes.
/// - git 2.39 (Debian 12), credential_read: "Ignore other lines": the refresh token and
///   the expiry are dropped, the username kept; the next helper gets the username alone
///   (git-credential-oauth then opens the browser with that login), and without one git
///   asks only for the password.
@Suite struct TokenRefreshTests {
    /// A stand-in for git-credential-oauth: records what `get` receives on stdin and
    /// answers a new token (as the real one does after a refresh); records store and erase.
    struct OAuthStandIn {
        let program: String
        let received: String

        init(sandbox: Sandbox, expiry: Int) throws {
            let directory = "oauth-" + UUID().uuidString.prefix(8)
            received = sandbox.root + "/\(directory)/received"
            program = try sandbox.file("\(directory)/git-credential-oauth", """
                #!/bin/sh
                cat >>'\(received)-'"$1"
                [ "$1" = get ] || exit 0
                printf 'password=access-2\\npassword_expiry_utc=\(expiry)\\noauth_refresh_token=refresh-2\\n'

                """, mode: 0o700)
        }

        /// The `key=value` lines the last call of `action` got.
        func request(_ action: String) -> [String] {
            let calls = Output(bytes: contents(of: "\(received)-\(action)") ?? []).text.components(separatedBy: "\n\n")
            return calls.last { !$0.isEmpty }?.split(separator: "\n").map(String.init) ?? []
        }
    }

    /// git's version as (major, minor).
    static let gitVersion: (Int, Int) = {
        let output = (try? Sandbox().git(["--version"]).stdoutText) ?? ""
        let numbers = output.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
        return (numbers.first ?? 0, numbers.dropFirst().first ?? 0)
    }()
    static var gitKeepsTheRefreshToken: Bool { gitVersion >= (2, 41) }

    @Test(arguments: StoringHelper.allCases)
    func anExpiredTokenGoesToTheNextHelperWithItsUsernameAndNeverItsPassword(helper: StoringHelper) throws {
        let machine = try ClientMachine(helper)
        let server = try machine.startServer(username: "alice", password: "access-2")
        try server.makeRepository("project")
        _ = try storeExpiringToken(machine.helper, host: server.host, scheme: "http")
        let newExpiry = Int(Date().timeIntervalSince1970) + 7200
        let oauth = try OAuthStandIn(sandbox: machine.sandbox, expiry: newExpiry)
        let added = try machine.git(["config", "--global", "--add", "credential.helper", oauth.program])
        #expect(added.exitCode == 0, "\(added)")

        let fetched = try machine.git(["ls-remote", server.repositoryURL("project")])
        #expect(fetched.exitCode == 0, "ls-remote: \(fetched)\n\(server.log)")

        let given = oauth.request("get")
        #expect(given.contains("username=alice"), "the next helper did not get the username: \(given)")
        #expect(!given.contains { $0.hasPrefix("password=") || $0.hasPrefix("credential=") }, "an expired secret reached the next helper: \(given)")
        #expect(!given.joined().contains("expired-"), "\(given)")
        #expect(given.contains("oauth_refresh_token=refresh-1") == Self.gitKeepsTheRefreshToken,
                "git \(Self.gitVersion): \(given)")

        // git stores the new token with every helper: ours replaces the expired one.
        let stored = try machine.helper.get(wire("protocol=http", "host=\(server.host)"))
        #expect(stored.exitCode == 0 && stored.attributes["username"] == "alice" && stored.attributes["password"] == "access-2",
                "\(stored)")
        if Self.gitKeepsTheRefreshToken {
            #expect(stored.attributes["oauth_refresh_token"] == "refresh-2", "\(stored)")
        }
    }

    /// Without a next helper, git (any version) keeps the username and asks only for the
    /// password.
    @Test(arguments: [StoringHelper.sqlite, .keyring])
    func withoutANextHelperGitAsksOnlyForThePassword(helper: StoringHelper) throws {
        let machine = try ClientMachine(helper)
        let server = try machine.startServer(username: "alice", password: "typed-password")
        try server.makeRepository("project")
        _ = try storeExpiringToken(machine.helper, host: server.host, scheme: "http")
        let askpass = try Askpass(sandbox: machine.sandbox, username: "not-asked", password: "typed-password")

        let fetched = try machine.git(["ls-remote", server.repositoryURL("project")], askpass: askpass)
        #expect(fetched.exitCode == 0, "ls-remote: \(fetched)\n\(server.log)")
        #expect(askpass.prompts == ["Password for 'http://alice@\(server.host)': "], "\(askpass.prompts)")
        #expect(try machine.storedPassword(for: server) == "typed-password")
    }
}
