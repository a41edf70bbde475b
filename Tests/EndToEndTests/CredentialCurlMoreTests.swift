import Foundation
import Testing

/// What credential-curl does since it is a program of the suite (issue 24): a scheme in any
/// case, --url-query, bearer tokens, and its own trace; with real curl, real git and the
/// local server, git-credential-sqlite the configured helper.
@Suite struct CredentialCurlMoreTests: InCurlWorld {
    let world: CurlWorld

    // MARK: A scheme in any case

    /// `HTTP://host` is the URL curl takes it for: git is asked for the http credential of
    /// that host (the script refused the URL), it is sent, and approved or rejected for it.
    @Test(arguments: ["HTTP", "Http", "hTTp"], [false, true])
    func aSchemeInAnyCaseIsTheSameOrigin(scheme: String, stale: Bool) throws {
        try machine.store(username: "alice", password: stale ? "stale password" : password, for: server)
        let result = try machine.credentialCurl(["-sS", "--data-binary", "body", "\(scheme)://\(server.host)/echo"])
        #expect(result.exitCode == 0, "\(result)\n\(server.log)")
        #expect(server.receivedCredential == (stale ? Array("alice:stale password".utf8) : credentialBytes), "\(server.log)")
        if stale {
            #expect(try machine.storedPassword(for: server) == nil, "the 401 did not reject it")
            #expect(result.stderrText == "credential-curl: http://\(server.host) refused the credential of alice (HTTP 401): git credential reject told git's helpers to erase it, so the next call asks for one again\n",
                    "\(result)")
        } else {
            #expect(result.stdoutText == "body" && result.stderr.isEmpty, "\(result)")
            #expect(try machine.storedPassword(for: server) == password)
        }
    }

    // MARK: --url-query

    /// Passed on where curl encodes what it adds (after =, the whole of a value without
    /// one: a space as +, other bytes as %xx), or where the caller did (+ and
    /// percent-escapes): the request line the server read holds no space and no byte
    /// above ASCII.
    @Test func urlQueryIsPassedOnWhereCurlEncodesIt() throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["-sS", "-f", "--url-query", "q=a b é", "--url-query", "+x=%41", "--url-query", "c&d",
                                                 server.url("/request-line")])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)\n\(server.log)")
        #expect(result.stdoutText == "GET /request-line?q=a+b+%c3%a9&x=%41&c%26d HTTP/1.1\n", "\(result)")
        #expect(try machine.storedPassword(for: server) == password)
    }

    /// What curl would put in the request line as it is (after +, or a name before =):
    /// refused before git is asked, and nothing is sent.
    @Test(arguments: ["+a b", "+é=1", "a b=c", "é@/dev/null"])
    func urlQueryThatCurlLeavesUnencodedIsRefused(value: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["-sS", "--url-query", value, server.url("/request-line")])
        #expect(expectOneLineFailure(result, exitCode: 2, mentioning: ["credential-curl: the --url-query value '\(value)' would put a space or a byte that is not ASCII in the request line", ". Fix: "]))
        #expect(result.stdout.isEmpty && !server.log.contains("request-line"), "\(result)\n\(server.log)")
    }

    // MARK: Bearer tokens

    /// A directory of the user's, first on PATH, with a `git` that answers `credential fill`
    /// as git 2.46 and later do when a helper answers authtype and credential (Debian 12's
    /// git 2.39 drops both: see gitPassesABearerTokenOnFromVersion246Only), records what it
    /// is told to approve or reject, and runs the real git for everything else.
    func newerGit(answering answer: String) throws -> (environment: [String: String], directory: String) {
        let directory = try machine.sandbox.ownDirectory() + "/newer-git"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try ChildProcess.writeFile(directory + "/answer", Array(answer.utf8), mode: 0o600)
        try ChildProcess.writeFile(directory + "/git", Array("""
            #!/bin/sh
            if [ "$1" = -C ] && [ "$3" = credential ]; then
                case $4 in
                    # As git 2.46 reads the request: url= starts a new credential, and a
                    # capability before it is forgotten (no token then: exit 1 here).
                    fill) cat >'\(directory)/fill-request'
                          awk '/^url=/ { url = NR } $0 == "capability[]=authtype" { capability = NR } END { exit !(url && capability > url) }' \\
                              '\(directory)/fill-request' || exit 1
                          exec cat '\(directory)/answer' ;;
                    approve|reject) exec cat >'\(directory)/'"$4" ;;
                esac
            fi
            exec /usr/bin/git "$@"

            """.utf8), mode: 0o755)
        return (["PATH": directory + ":" + (machine.environment["PATH"] ?? Sandbox.searchPath)], directory)
    }

    func bearerAnswer(token: String, authtype: String = "Bearer", host: String? = nil, announcing: Bool = true) -> String {
        (announcing ? "capability[]=authtype\n" : "") + "authtype=\(authtype)\ncredential=\(token)\nprotocol=http\nhost=\(host ?? server.host)\n"
    }

    /// The helper's token goes as `Authorization: Bearer TOKEN` (no Basic), asked with
    /// capability[]=authtype; after the 200 git is told to approve git's answer as it was.
    @Test func aBearerTokenIsSentInsteadOfBasicAndApproved() throws {
        let (environment, directory) = try newerGit(answering: bearerAnswer(token: password))
        let result = try machine.credentialCurl(["-sS", "-f", server.url("/bearer")], environment: environment)
        #expect(result.exitCode == 0 && result.stderr.isEmpty && result.stdoutText == "bearer ok\n", "\(result)\n\(server.log)")
        #expect(server.receivedAuthorization == "Bearer " + password)
        #expect(String(decoding: contents(of: directory + "/fill-request") ?? [], as: UTF8.self)
                == "url=\(server.url("/bearer"))\ncapability[]=authtype\n\n")
        #expect(String(decoding: contents(of: directory + "/approve") ?? [], as: UTF8.self) == bearerAnswer(token: password) + "\n")
        #expect(!fileExists(directory + "/reject"))
    }

    /// A 401 for the token rejects it, and the line says so with no user name. The reject
    /// announces capability[]=authtype, also when git's answer did not: without it git
    /// would hand its helpers protocol and host alone, and erase every credential of the
    /// host (attack round, with git 2.49).
    @Test(arguments: [true, false])
    func aRefusedBearerTokenIsRejected(announced: Bool) throws {
        let (environment, directory) = try newerGit(answering: bearerAnswer(token: "stale-token", announcing: announced))
        let result = try machine.credentialCurl(["-s", server.url("/bearer")], environment: environment)
        #expect(result.exitCode == 0, "\(result)")
        #expect(server.receivedAuthorization == "Bearer stale-token")
        #expect(result.stderrText == "credential-curl: http://\(server.host) refused the credential of no user name (HTTP 401): git credential reject told git's helpers to erase it, so the next call asks for one again\n",
                "\(result)")
        #expect(String(decoding: contents(of: directory + "/reject") ?? [], as: UTF8.self) == bearerAnswer(token: "stale-token") + "\n")
        #expect(!fileExists(directory + "/approve"))
    }

    /// An authtype that is not one word, or a token with a control character, cannot be
    /// one header line: refused, nothing sent; a token for another origin neither.
    @Test(arguments: [("Bear er", "token", nil, "the helper's authtype holds a space or a control character"),
                      ("", "token", nil, "the helper's authtype holds a space or a control character"),
                      ("Bearer", "tok\u{01}en", nil, "the helper's credential (for authtype Bearer) holds a control character"),
                      ("Bearer", "token", "127.0.0.2", "git credential fill answered for http://127.0.0.2:80, not for")] as [(String, String, String?, String)])
    func aBearerAnswerThatCannotBeSentIsRefused(authtype: String, token: String, host: String?, message: String) throws {
        let (environment, directory) = try newerGit(answering: bearerAnswer(token: token, authtype: authtype, host: host))
        let result = try machine.credentialCurl(["-sS", server.url("/bearer")], environment: environment)
        #expect(result.exitCode != 0 && result.stdout.isEmpty && result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrText.hasPrefix("credential-curl: " + message) && result.stderrText.contains(". Fix: "), "\(result)")
        #expect(server.receivedAuthorization == nil && !server.log.contains("/bearer"), "sent: \(server.log)")
        #expect(!fileExists(directory + "/approve") && !fileExists(directory + "/reject"))
    }

    /// The real git between credential-curl and a helper that answers a bearer token when
    /// asked with capability[]=authtype: git 2.39 (Debian 12) neither passes the
    /// capability to the helper nor the token back, so the helper's username and password
    /// make a Basic header; git 2.46 and later pass both, and the token is sent.
    @Test func gitPassesABearerTokenOnFromVersion246Only() throws {
        let version = try machine.sandbox.git(["--version"]).stdoutText
        let numbers = (version.firstMatch(of: /(\d+)\.(\d+)/)).map { (Int($0.1)!, Int($0.2)!) } ?? (0, 0)
        let passesTokens = numbers >= (2, 46)
        let request = machine.sandbox.root + "/helper-request"
        let tokenFile = try machine.sandbox.file("token-helper/token", password)
        let helper = try machine.sandbox.file("token-helper/helper", """
            #!/bin/sh
            [ "$1" = get ] || exit 0
            cat >'\(request)'
            if grep -qx 'capability\\[\\]=authtype' '\(request)'; then
                printf 'capability[]=authtype\\nauthtype=Bearer\\ncredential=%s\\n' "$(cat '\(tokenFile)')"
            fi
            printf 'username=alice\\npassword=%s\\n' "$(cat '\(tokenFile)')"

            """, mode: 0o700)
        let configured = try machine.sandbox.git(["config", "--global", "--replace-all", "credential.helper", helper])
        #expect(configured.exitCode == 0, "\(configured)")
        let result = try machine.credentialCurl(["-sS", "-f", server.url(passesTokens ? "/bearer" : "/echo")])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(version): \(result)\n\(server.log)")
        let asked = String(decoding: contents(of: request) ?? [], as: UTF8.self)
        if passesTokens {
            #expect(server.receivedAuthorization == "Bearer " + password, "\(version)")
            #expect(asked.contains("capability[]=authtype\n"), "\(asked)")
        } else {
            #expect(server.receivedCredential == credentialBytes, "\(version): Basic was not sent: \(server.log)")
            #expect(!asked.contains("capability"), "git \(version) passed the capability on: \(asked)")
        }
    }

    // MARK: Its own trace (was basic-auth-header's hidden --credential-curl-trace mode)

    /// Values are quoted as every trace quotes them (a direction override escaped), by
    /// credential-curl's own trace writer.
    @Test func itsTraceQuotesValuesAsEveryTraceDoes() throws {
        try machine.store(username: "alice", password: password, for: server)
        let trace = machine.sandbox.root + "/curl.trace"
        let url = server.url("/echo?a\u{202E}b")
        let result = try machine.credentialCurl(["-sS", url], environment: ["GIT_CREDENTIAL_TRACE": trace])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        let lines = Output(bytes: contents(of: trace) ?? []).lines
        let expected = "credential-curl: url \"\(server.url("/echo?a"))\\342\\200\\256b\""
        #expect(lines.contains { $0.contains(#/^\d\d:\d\d:\d\d\.\d{6} /#) && $0.hasSuffix(expected) }, "\(lines)")
    }

    /// Tracing off: nothing on stderr; a trace it cannot open (a relative path): one
    /// warning, credential-curl's, and none from the helpers git runs for it.
    @Test(arguments: ["0", "relative.trace"])
    func itWarnsOnceWhenNothingIsTraced(value: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["-sS", server.url("/echo")], environment: ["GIT_CREDENTIAL_TRACE": value])
        #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == (value == "0" ? 0 : 1), "\(result)")
        #expect(result.stderrLines.allSatisfy { $0.hasPrefix("credential-curl: warning: ") }, "\(result)")
        #expect(server.receivedCredential == credentialBytes)
    }

    // MARK: Which fix, when git finds nothing

    /// git is asked outside any repository, and so is the question of which fix fits: a
    /// helper of the repository we stand in (which would answer) is never run, and does not
    /// count as one git has; a reset line alone is no helper either; a helper of the user's
    /// that holds nothing gets the other fix.
    @Test func theFixNamesTheHelpersGitAsksOutsideAnyRepository() throws {
        let repository = machine.sandbox.root + "/checkout"
        #expect(try machine.git(["init", "-q", repository]).exitCode == 0)
        let answers = "!f() { echo username=alice; echo password=\(password); }; f"
        #expect(try machine.git(["-C", repository, "config", "credential.helper", answers]).exitCode == 0)
        let noHelper = "credential-curl: git credential fill found no credential for \(server.url("/echo")), and git has no credential helper. Fix: configure one (git-credential-keyring configure), or run it in a terminal to be asked\n"
        let nothingHeld = "credential-curl: git credential fill found no credential for \(server.url("/echo")): \(noPasswordHeldYet)\n"
        let configured = try machine.git(["config", "--global", "--get", "credential.helper"]).stdoutText.trimmingCharacters(in: .newlines)
        for (global, said) in [([String](), noHelper), ([""], noHelper), ([configured], nothingHeld)] {
            _ = try machine.git(["config", "--global", "--unset-all", "credential.helper"])
            for value in global { #expect(try machine.git(["config", "--global", "--add", "credential.helper", value]).exitCode == 0) }
            let result = try machine.credentialCurl(["-sS", server.url("/echo")], directory: repository)
            // git's own line first ("terminal prompts disabled"), then ours.
            #expect(result.exitCode == 1 && result.stdout.isEmpty && result.stderrText.hasSuffix("\n" + said)
                    && result.stderrLines.filter { $0.hasPrefix("credential-curl:") }.count == 1, "\(global): \(result)")
            #expect(server.receivedCredential == nil, "\(global): the repository's helper answered")
        }
    }

    // MARK: Signals

    /// Told to end (TERM, INT, HUP) while curl waits for a slow answer: curl ends too,
    /// instead of sending on by itself, and the exit status is 128 + the signal (attack
    /// round: curl went on, re-parented to init).
    @Test(arguments: [("TERM", 143), ("INT", 130), ("HUP", 129)])
    func aSignalEndsCurlToo(signal: String, status: Int32) throws {
        let slow = try machine.startServer(username: "alice", password: password, responseDelay: 20)
        try machine.store(username: "alice", password: password, for: slow)
        let token = "signal-" + UUID().uuidString
        // Started in the background: a shell leaves INT ignored there, which credential-curl
        // then inherits; `trap - INT` in the subshell gives it the default back.
        let script = #"""
            ( trap - INT; exec "$0" -sS -o /dev/null "$1" ) &
            pid=$!
            tries=0
            until pgrep -f "^curl -q --globoff.*$2" >/dev/null; do
                tries=$((tries + 1)); [ "$tries" -lt 200 ] || { echo "curl never started"; exit 99; }; sleep 0.05
            done
            kill -"$3" "$pid"
            wait "$pid"
            echo "status $?"
            sleep 0.3
            pgrep -f "^curl -q --globoff.*$2" >/dev/null && echo "curl still runs"
            exit 0
            """#
        let result = try machine.sandbox.run("/bin/sh", ["-c", script, SourceTree.credentialCurl, slow.url("/echo?\(token)"), token, signal],
                                             environment: machine.environment, timeout: 60)
        #expect(result.exitCode == 0 && result.stdoutLines == ["status \(status)"], "\(result)")
    }
}
