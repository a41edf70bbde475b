import Foundation
import Testing

/// Signing in on a machine without a browser, with the person's own: the remote's git asks
/// through the forward, the person's git runs their helpers (the SQLite store, then Debian's
/// git-credential-oauth), and git-credential-oauth signs in at an OAuth 2.0 server (oauthlib,
/// on the forge's own host: Tests/Fixtures/oauth_authority.py) in the person's "browser" (a
/// program that follows the sign-in's redirects, as a person who says yes would).
@Suite(.enabled(if: Sandbox.which("git-credential-oauth") != nil && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/oauthlib"),
                "needs git-credential-oauth and python3-oauthlib (make test installs them)"))
struct ForwardOAuthTests {
    /// The person's browser: `open` (what git-credential-oauth runs) records the URL and
    /// follows it in the background, as a browser returns at once. In a directory of PATH
    /// that the suite trusts (not below /tmp: children's PATH skips it).
    static func browser(in sandbox: Sandbox) throws -> (directory: String, record: String) {
        let directory = try sandbox.ownDirectory() + "/browser", record = sandbox.root + "/browser-opened"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try ChildProcess.writeFile(directory + "/open", Array("""
            #!/bin/sh
            printf '%s\\n' "$1" >> '\(record)'
            /usr/bin/curl -s -o /dev/null -L "$1" </dev/null >/dev/null 2>&1 &

            """.utf8), mode: 0o755)
        return (directory, record)
    }

    /// The first clone on the remote signs in once in the person's browser (serve asked the
    /// helpers twice: two sign-ins, two live tokens), the token is kept by the person's
    /// SQLite store though serve does not allow store (git's approve of serve's answer), the
    /// next clone signs in no more, and nothing of the token reaches the remote's disk.
    @Test func aRemoteCloneSignsInOnceInThePersonsBrowserAndTheTokenIsKept() throws {
        let machine = try ClientMachine(.sqlite)
        let server = try BasicAuthServer(sandbox: machine.sandbox, username: "oauth2", password: "no-token-yet", oauth: true)
        try server.makeRepository("project")
        let url = "http://\(server.host)"
        for (key, value) in [("credential.helper", "oauth"), ("credential.\(url).oauthClientId", "git-test"),
                             ("credential.\(url).oauthAuthURL", "/oauth/authorize"), ("credential.\(url).oauthTokenURL", "/oauth/token")] {
            let configured = try machine.git(["config", "--global", "--add", key, value])
            #expect(configured.exitCode == 0, "\(configured)")
        }
        let browser = try Self.browser(in: machine.sandbox)
        let serve = try ForwardServe(machine: machine, name: "remote", ["--host", server.host, "--socket", machine.sandbox.root + "/forward/socket"],
                                     environment: ["PATH": browser.directory + ":" + Sandbox.searchPath])
        let remote = try ForwardDifferentialTests.Remote(socket: serve.socket, useHttpPath: true)

        let first = try remote.sandbox.git(["clone", "--quiet", server.repositoryURL("project"), "first"])
        #expect(first.exitCode == 0, "\(first)\nserve: \(serve.stderr) \(serve.log)\nserver: \(server.log)")
        #expect(server.signIns == 1 && server.tokensMinted.count == 1 && Output(bytes: contents(of: browser.record) ?? []).lines.count == 1,
                "sign-ins \(server.signIns), tokens \(server.tokensMinted.count)\nserve: \(serve.log)")
        let token = try #require(server.tokensMinted.last)
        let kept = try machine.helper.get(wire("protocol=http", "host=\(server.host)"))
        #expect(kept.attributes["password"] == token, "the person's store did not keep the token: \(kept)\nserve: \(serve.log)")

        let second = try remote.sandbox.git(["clone", "--quiet", server.repositoryURL("project"), "second"])
        #expect(second.exitCode == 0, "\(second)\nserve: \(serve.log)")
        #expect(server.signIns == 1 && server.tokensMinted.count == 1, "the second clone signed in again: \(server.signIns) sign-ins\nserve: \(serve.log)")

        let holding = (FileManager.default.enumerator(atPath: remote.sandbox.root)?.compactMap { $0 as? String } ?? []).filter {
            contents(of: remote.sandbox.root + "/" + $0)?.containsUTF8(token) ?? false
        }
        #expect(holding.isEmpty, "files of the remote holding the token: \(holding)")
        #expect(!serve.log.contains(token), "the token in serve's log")
    }
}
