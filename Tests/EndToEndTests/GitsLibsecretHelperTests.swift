import Foundation
import Testing

/// Going back from git-credential-secretservice to git's own contrib helper, as the README
/// says: git 2.39's (Debian 12's, built here from the source its git package ships) searches
/// only the older schema, org.gnome.keyring.NetworkPassword, so it does not see the items
/// stored here (org.git.Password); it still sees items of the older schema. (From git 2.43
/// its search ignores the schema's name: contrib/credential/libsecret, SECRET_SCHEMA_DONT_MATCH_NAME.)
@Suite struct GitsLibsecretHelperTests {
    let keyring: SharedKeyring

    init() throws { keyring = try SharedKeyring() }

    static let source = "/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c"

    /// git's contrib helper, compiled as its Makefile does (libsecret through pkg-config).
    func gitsHelper(in sandbox: Sandbox? = nil) throws -> String {
        let sandbox = sandbox ?? keyring.sandbox
        let output = sandbox.root + "/git-credential-libsecret"
        let flags = try sandbox.run("/usr/bin/pkg-config", ["--cflags", "--libs", "libsecret-1"])
        expectSuccess(flags)
        let compiled = try sandbox.run("/usr/bin/gcc", ["-o", output, Self.source] + flags.stdoutText.split(whereSeparator: \.isWhitespace).map(String.init),
                                                  timeout: 120)
        expectSuccess(compiled)
        return output
    }

    /// Switching from git 2.39's helper keeps its items, on either provider: they are of
    /// the older schema, on which KeePassXC shows fields of its own (Title, UserName, ...)
    /// beside git's attributes, which made them look like another program's.
    @Test(arguments: SecretServiceProvider.allCases)
    func whatGitTwoThirtyNinesHelperStoredIsFound(provider: SecretServiceProvider) throws {
        let keyring = try SharedKeyring(provider)
        let helper = try gitsHelper(in: keyring.sandbox)
        let host = keyring.names("example.com")
        let stored = try keyring.sandbox.run(helper, ["store"], input: wire("protocol=https", "host=\(host)", "username=alice", "password=stored-by-git"),
                                             environment: keyring.bus.environment)
        #expect(stored.exitCode == 0 && stored.stderr.isEmpty, "\(stored)")
        #expect(try keyring.secretTool.item(["server": host])?.schema == "org.gnome.keyring.NetworkPassword")
        let found = try keyring.helper.get(wire("protocol=https", "host=\(host)"))
        #expect(found.exitCode == 0 && found.stdoutLines == ["username=alice", "password=stored-by-git"], "\(found)")
        #expect(try keyring.helper.list().stdoutText.contains(host), "list does not show git's item")
        expectSuccess(try keyring.helper.erase(wire("protocol=https", "host=\(host)", "username=alice")))
        #expect(try keyring.count(["server": host]) == 0, "erase left git's item")
    }

    @Test func gitTwoThirtyNinesHelperDoesNotSeeOurItems() throws {
        let git = try keyring.sandbox.git(["--version"])
        try #require(git.stdoutText.hasPrefix("git version 2.39."), "this test shows git 2.39's helper, not \(git.stdoutText)")
        let helper = try gitsHelper()
        let host = keyring.names("example.com")
        let request = wire("protocol=https", "host=\(host)")
        try keyring.helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=stored-by-us"))
        #expect(try keyring.helper.password(for: request) == "stored-by-us")
        let ours = try keyring.sandbox.run(helper, ["get"], input: request, environment: keyring.bus.environment)
        #expect(ours.exitCode == 0 && !ours.stdoutText.contains("password="), "git 2.39's helper saw our item: \(ours)")

        try keyring.secretTool.store(label: "Git: https://\(host)/", secret: "older-schema", schema: "org.gnome.keyring.NetworkPassword",
                                     ["protocol": "https", "server": host, "user": "bob"])
        let older = try keyring.sandbox.run(helper, ["get"], input: request, environment: keyring.bus.environment)
        #expect(older.exitCode == 0 && older.stdoutText.contains("password=older-schema"), "\(older)")

        let readme = try String(contentsOfFile: SourceTree.root + "/README.md", encoding: .utf8)
        #expect(readme.contains("before git 2.43") && readme.contains("does not see the items"), "the README does not say so")
    }
}
