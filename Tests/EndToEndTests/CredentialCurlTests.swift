import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// credential-curl with real curl and real git against the local Basic-auth server,
/// git-credential-sqlite configured as the helper (~/.gitconfig of the sandbox).
@Suite struct CredentialCurlTests: InCurlWorld {
    let world: CurlWorld

    @Test func promptsSendsExactlyTheCredentialAndStoresItAfter200() throws {
        let askpass = try Askpass(sandbox: machine.sandbox, username: "alice", password: password)
        let first = try machine.credentialCurl(["--silent", "--show-error", "--fail", server.url("/echo")], askpass: askpass)
        #expect(first.exitCode == 0 && first.stderr.isEmpty, "\(first)\n\(server.log)")
        #expect(server.receivedCredential == credentialBytes, "the server received other bytes")
        #expect(askpass.prompts.map { $0.prefix(8) } == ["Username", "Password"], "\(askpass.prompts)")
        #expect(try machine.storedPassword(for: server) == password, "not approved (stored) after a 200")

        let fromStore = try machine.credentialCurl(["--silent", "--show-error", "--fail", server.url("/echo")])
        #expect(fromStore.exitCode == 0 && fromStore.stderr.isEmpty, "\(fromStore)\n\(server.log)")
        #expect(askpass.prompts.count == 2, "asked again: \(askpass.prompts)")
    }

    /// stdout is curl's alone: the body, nothing added.
    @Test func aStoredCredentialIsSentAndStdoutIsCurlsOwn() throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["--silent", "--data-binary", "exact body £", server.url("/echo")])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)\n\(server.log)")
        #expect(server.receivedCredential == credentialBytes)
        #expect(result.stdoutText == "exact body £")
    }

    /// Options of the caller's that the wrapper must live with: it must still see the
    /// status to approve or reject. HEADERS stands for a file in the sandbox.
    /// The last: a body on stderr without a line break, which our marked line then follows.
    static let callerOptions: [[String]] = [[], ["--dump-header", "HEADERS"], ["-D", "-"], ["--include"],
                                            ["--data-binary", "no line break", "-o", "/dev/stderr"]]

    func withFiles(_ options: [String]) -> [String] {
        options.map { $0 == "HEADERS" ? machine.sandbox.root + "/caller-headers" : $0 }
    }

    /// A 401 ends with curl's own status (0 without --fail, 22 with it) and the stored
    /// credential erased, which one line on stderr says, --silent or not (a cron job's
    /// next run would otherwise fail without a word on why).
    @Test(arguments: [false, true], callerOptions)
    func aWrongStoredPasswordIsRejected(fail: Bool, callerOptions: [String]) throws {
        try machine.store(username: "alice", password: "stale password", for: server)
        let options = ["--silent"] + (fail ? ["--fail"] : []) + withFiles(callerOptions)
        let result = try machine.credentialCurl(options + [server.url("/echo")])
        #expect(result.exitCode == (fail ? 22 : 0), "\(result)")
        #expect(server.receivedCredential == Array("alice:stale password".utf8))
        #expect(try machine.storedPassword(for: server) == nil, "the rejected credential is still stored")
        // The caller's body may come first on stderr (-o /dev/stderr), without a line break.
        let said = "credential-curl: http://\(server.host) refused the credential of alice (HTTP 401): git credential reject told git's helpers to erase it"
            + ", so the next call asks for one again\n"
        #expect(result.stderrText.hasSuffix(said) && result.stderrText.components(separatedBy: "credential-curl:").count == 2,
                "\(result)")
        #expect(!result.stderrText.contains("stale password"))
    }

    /// Installed as `make install` puts it (a name of the credential-helpers executable)
    /// and run by its full path with a PATH that lacks that directory, as cron and `env -i`
    /// run it: it needs no other program beside it or on PATH. (It replaces the script's
    /// test of the basic-auth-header beside it, whose subject is gone.) A copy by another
    /// name is refused, as MultiCall refuses every name not one of its programs'.
    @Test func aProgramOfTheExecutableNeedsNoPATH() throws {
        let bin = machine.sandbox.root + "/prefix/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: BuiltProducts.directory + "/credential-helpers", toPath: bin + "/credential-curl")
        try machine.store(username: "alice", password: password, for: server)
        let cron = ["PATH": "/usr/bin:/bin"]

        let byFullPath = try machine.sandbox.run(bin + "/credential-curl", ["-sS", "-f", server.url("/echo")], environment: cron, timeout: 60)
        #expect(byFullPath.exitCode == 0 && byFullPath.stderr.isEmpty, "\(byFullPath)")
        #expect(server.receivedCredential == credentialBytes, "\(server.log)")
        let version = try machine.sandbox.run(bin + "/credential-curl", ["--version"], environment: cron)
        #expect(version.exitCode == 0 && version.stdoutText.hasPrefix("credential-curl ") && version.stderr.isEmpty, "\(version)")
        // Run by a relative path, from its own directory and from its parent.
        for (directory, path) in [(bin, "./credential-curl"), (machine.sandbox.root + "/prefix", "bin/credential-curl")] {
            let relative = try machine.sandbox.run("/bin/sh", ["-c", #"exec "$0" -sS -f -o /dev/null "$1""#, path, server.url("/echo")],
                                                   environment: cron, directory: directory, timeout: 60)
            #expect(relative.exitCode == 0 && relative.stderr.isEmpty, "\(path): \(relative)")
        }

        try FileManager.default.moveItem(atPath: bin + "/credential-curl", toPath: bin + "/curl-with-credential")
        try machine.store(username: "alice", password: password, for: server)
        let renamed = try machine.sandbox.run(bin + "/curl-with-credential", ["-sS", "-f", server.url("/echo?renamed")], environment: cron, timeout: 60)
        #expect(renamed.exitCode == 2 && renamed.stdout.isEmpty, "\(renamed)")
        #expect(renamed.stderrLines.count == 1 && renamed.stderrText.hasPrefix("curl-with-credential: this executable runs only by the name of one of its programs (")
                && renamed.stderrText.contains("credential-curl") && renamed.stderrText.contains(". Fix: "), "\(renamed)")
        #expect(!server.log.contains("renamed"), "a request was made: \(server.log)")
    }

    /// Without curl (the package only recommends it): one line saying so, before git is
    /// asked for a credential, so no one is prompted for a password that goes nowhere.
    @Test func withoutCurlItSaysSoBeforeAskingForACredential() throws {
        // Where a PATH directory counts (under /tmp it is skipped: anyone could put a curl there).
        let bin = try machine.sandbox.ownDirectory() + "/no-curl"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for directory in ["/usr/bin", "/bin"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory)
            where name != "curl" && !FileManager.default.fileExists(atPath: bin + "/" + name) {
                try FileManager.default.createSymbolicLink(atPath: bin + "/" + name, withDestinationPath: directory + "/" + name)
            }
        }
        let asked = machine.sandbox.root + "/asked", askpass = machine.sandbox.root + "/askpass"
        try ChildProcess.writeFile(askpass, Array("#!/bin/sh\ntouch '\(asked)'\necho secret\n".utf8), mode: 0o755)
        let result = try machine.sandbox.run(SourceTree.credentialCurl, ["-sS", server.url("/echo")],
                                             environment: ["PATH": BuiltProducts.directory + ":" + bin, "GIT_ASKPASS": askpass], timeout: 60)
        #expect(result.exitCode == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrText == "credential-curl: curl is not installed (not on PATH), and it is what sends the request. Fix: apt-get install curl\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: asked), "git asked for a credential")
        #expect(server.receivedCredential == nil)
    }

    /// A redirect (followed with -L) to another host, or another port of the same host,
    /// gets no Authorization header.
    @Test(arguments: ["/redirect-other-host", "/redirect-other-port"])
    func redirectsElsewhereDoNotCarryTheHeader(path: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["--silent", "--show-error", "--fail", "--location", server.url(path)])
        #expect(result.exitCode == 0 && result.stdoutText == "landed\n", "\(result)\n\(server.log)")
        let elsewhere = server.requestsElsewhere
        #expect(elsewhere.hasPrefix("GET /landed"), "the redirect was not followed: \(elsewhere.debugDescription)")
        #expect(!elsewhere.lowercased().contains("authorization"), "the header went elsewhere: \(elsewhere)")
        #expect(!elsewhere.contains(Data(credentialBytes).base64EncodedString()))
    }

    /// A 401 from a host the credential was never sent to says nothing about it: the
    /// credential stays stored.
    @Test(arguments: ["/redirect-other-host/denied", "/redirect-other-port/denied"])
    func aRedirectToA401ElsewhereKeepsTheCredential(path: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["--silent", "--location", server.url(path)])
        #expect(result.exitCode == 0 && result.stdoutText == "denied\n", "\(result)\n\(server.log)")
        #expect(!server.requestsElsewhere.lowercased().contains("authorization"))
        #expect(try machine.storedPassword(for: server) == password,
                "a 401 from another host erased the credential of \(server.host)")
    }

    @Test func nothingStoredAndNoWayToAskFailsWithoutSendingAnything() throws {
        let result = try machine.credentialCurl(["--silent", server.url("/echo")])
        #expect(result.exitCode != 0 && result.stdout.isEmpty, "\(result)")
        #expect(server.receivedCredential == nil)
    }

    // MARK: Exactly one origin

    /// A template's words made real: URL (the server's /echo), REDIRECT (its redirect to
    /// another host), ELSEWHERE (a listener on 127.0.0.2 that records every request),
    /// CONNECT (curl's HOST:PORT:HOST:PORT from the server to it), CONFIG (a curl config
    /// file naming both), FILE (a path that must stay absent), HEADERS (a file of headers).
    func realized(_ template: [String]) throws -> [String] {
        let elsewhere = "http://\(server.elsewhereHost)/landed"
        let config = try machine.sandbox.file("curl-config", "location-trusted\nurl = \"\(elsewhere)\"\n")
        let headers = try machine.sandbox.file("headers", "Authorization: Basic eDp5\n")
        return template.map {
            $0.replacingOccurrences(of: "REDIRECT", with: server.url("/redirect-other-host"))
                .replacingOccurrences(of: "URL", with: server.url("/echo"))
                .replacingOccurrences(of: "ELSEWHERE", with: elsewhere)
                .replacingOccurrences(of: "CONNECT", with: "\(server.host):\(server.elsewhereHost)")
                .replacingOccurrences(of: "CONFIG", with: config)
                .replacingOccurrences(of: "FILE", with: machine.sandbox.root + "/must-not-exist")
                .replacingOccurrences(of: "HEADERS", with: headers)
                .replacingOccurrences(of: "PORT", with: String(server.port))
        }
    }

    /// Nothing reached the second server with the credential, and the stored one is intact.
    func expectNothingLeaked(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let elsewhere = server.requestsElsewhere
        #expect(!elsewhere.lowercased().contains("authorization"), "the header went elsewhere: \(elsewhere)",
                sourceLocation: sourceLocation)
        #expect(!elsewhere.contains(Data(credentialBytes).base64EncodedString()), sourceLocation: sourceLocation)
        #expect(try machine.storedPassword(for: server, sourceLocation: sourceLocation) == password,
                "the stored credential was erased or changed", sourceLocation: sourceLocation)
        #expect(!fileExists(machine.sandbox.root + "/must-not-exist"), "a file was written", sourceLocation: sourceLocation)
    }

    /// Each bypass of the issue: refused before anything is sent, in one line that names
    /// the option (exit 2); the second server got nothing, the credential is still stored.
    @Test(arguments: [
        (["URL", "ELSEWHERE"], "ELSEWHERE is a second URL"),
        (["URL", "http://alice:hunter2@127.0.0.2/"], "http://alice:<redacted>@127.0.0.2/ is a second URL"),
        (["--url", "ELSEWHERE", "URL"], "--url would"),
        (["ELSEWHERE", "--next", "URL"], "--next would"),
        (["ELSEWHERE", "-:", "URL"], "-: would"),
        (["-e", "URL"], "no URL given: the last argument is the value of -e"),
        (["-sSLe", "URL"], "no URL given: the last argument is the value of -e"),
        (["--location-trusted", "REDIRECT"], "--location-trusted would"),
        (["--location-t", "REDIRECT"], "--location-t (--location-trusted abbreviated)"),
        (["--location-tr", "REDIRECT"], "--location-tr (--location-trusted abbreviated)"),
        (["--loc", "REDIRECT"], "--loc is an abbreviation"),
        (["--LOCATION-T", "REDIRECT"], "--LOCATION-T (--location-trusted abbreviated)"),
        (["--SILENT", "URL"], "--SILENT: credential-curl takes option names in lower case only"),
        (["--sil", "URL"], "--sil is an abbreviation"),
        (["-L", "-K", "CONFIG", "REDIRECT"], "-K would"),
        (["--config", "CONFIG", "URL"], "--config would"),
        (["--conf", "CONFIG", "URL"], "--conf (--config abbreviated)"),
        (["-u", "alice:other", "URL"], "-u is curl's own authentication"),
        (["--user", "alice:other", "URL"], "--user is curl's own authentication"),
        (["--basic", "URL"], "--basic is curl's own authentication"),
        (["--netrc-file", "FILE", "URL"], "--netrc-file is curl's own authentication"),
        (["-v", "URL"], "-v would print or write the Authorization header"),
        (["-sSv", "URL"], "-v (in -sSv) would print"),
        (["-sSualice:hunter2", "URL"], "-u (in -sSu...) is curl's own authentication"),
        (["--verb", "URL"], "--verb (--verbose abbreviated) would print"),
        (["--trace", "FILE", "URL"], "--trace would print"),
        (["--trace-ascii", "FILE", "URL"], "--trace-ascii would print"),
        (["--libcurl", "FILE", "URL"], "--libcurl would print"),
        (["--stderr", "FILE", "URL"], "--stderr would print"),
        (["-k", "URL"], "-k would let a man in the middle"),
        (["--insecure", "URL"], "--insecure would let a man in the middle"),
        (["--connect-to", "CONNECT", "URL"], "--connect-to would send the connection"),
        (["-x", "ELSEWHERE", "URL"], "-x would send the connection"),
        (["--proxy", "ELSEWHERE", "URL"], "--proxy would send the connection"),
        (["-q", "URL"], "-q is what credential-curl passes itself"),
        (["--no-globoff", "URL"], "--no-globoff is not one of the curl options"),
        (["--silent=yes", "URL"], "--silent=...: curl takes no --option=value"),
        (["-H", "Authorization: Basic eDp5", "URL"], "-H authorization: credential-curl sends the Authorization header itself"),
        (["-H", "authorization;", "URL"], "-H authorization: credential-curl sends"),
        (["-H", " Authorization : Basic eDp5", "URL"], "-H authorization: credential-curl sends"),
        (["-H", "Host: 127.0.0.2", "URL"], "-H host would send the credential to another site"),
        (["-H@HEADERS", "URL"], "-H @"),
        (["-H", "X-A: 1\r\nAuthorization: Basic eDp5", "URL"], "the -H value holds a control character"),
        (["-", "URL"], "- alone is not an option"),
        // A second round (issue 10, item 1): what reaches the request line or a header.
        (["--request-target", "ELSEWHERE", "URL"], "--request-target would name another URL in the request line"),
        (["--request-t", "ELSEWHERE", "URL"], "--request-t (--request-target abbreviated)"),
        (["-X", "GET ELSEWHERE", "URL"], "-X 'GET ELSEWHERE' is not an HTTP method"),
        (["-A", "x\r\n\r\nGET /echo HTTP/1.1\r\nHost: evil.example", "URL"], "the -A value holds a control character"),
        (["-sSAx\r\nX-B: 1", "URL"], "the -A value holds a control character"),
        (["--user-agent", "x\nX-B: 1", "URL"], "the --user-agent value holds a control character"),
        (["-e", "http://a/\r\nX-B: 1", "URL"], "the -e value holds a control character"),
        (["-X", "GET /echo HTTP/1.1\r\nX-B: 1\r\n\r\nGET", "URL"], "the -X value holds a control character"),
        (["-b", "a=b\r\nX-B: 1", "URL"], "the -b value holds a control character"),
        (["--range", "0-1\r\nX-B: 1", "URL"], "the --range value holds a control character"),
        (["-F", "a=b", "-o", "FILE\n", "URL"], "the -o value holds a control character"),
        (["-H", " X-Trace: 1", "URL"], "the -H value starts with a space or a tab"),
        (["-H", "\tX-Trace: 1", "URL"], "the -H value holds a control character"),
        (["-H", "X Trace: 1", "URL"], "-H 'X Trace: 1' does not start with a header name"),
        (["--http2-prior-knowledge", "-H", ":authority: 127.0.0.2", "URL"], "-H ':authority: 127.0.0.2' does not start with a header name"),
        (["-H", "Content-Length: 0", "--data-binary", "GET /echo HTTP/1.1\r\nHost: evil.example\r\n\r\n", "URL"],
         "-H content-length would let the body pass for another request"),
        (["-H", "Content-Length:", "-d", "x", "URL"], "-H content-length would"),
        (["-H", "transfer-encoding;", "-T", "HEADERS", "URL"], "-H transfer-encoding would"),
        (["URL", "http://alice:hunter2\u{01}x@127.0.0.2/"], "http://alice:<redacted>@127.0.0.2/ is a second URL"),
        (["URL", "http://alice:hunter2\nx@127.0.0.2/"], "http://alice:<redacted>@127.0.0.2/ is a second URL"),
        (["URL\nhost=127.0.0.2"], "the URL "),
        (["http://%31%32%37.0.0.1:PORT/echo"], "the host name in"),
        (["http://ⓛocalhost:PORT/echo"], "the host name in 'http://ⓛocalhost:"),
        (["http://alice@127.0.0.①:PORT/echo"], "the host name in 'http://alice@127.0.0.①:"),
        // A third round: a format left open swallows the line credential-curl reads the answer from.
        (["-s", "-w", "x%", "URL"], "the -w format ends inside a %-sequence"),
        (["-sw%{header_json", "URL"], "the -w format ends inside a %-sequence"),
        (["-s", "-w", "%%%header{x", "URL"], "the -w format ends inside a %-sequence"),
    ])
    func bypassesAreRefused(template: [String], named: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let arguments = try realized(template)
        let result = try machine.credentialCurl(arguments)
        let named = named.replacingOccurrences(of: "ELSEWHERE", with: "http://\(server.elsewhereHost)/landed")
        #expect(expectOneLineFailure(result, exitCode: 2, mentioning: [". Fix: "]))
        #expect(result.stderrLines.first?.hasPrefix("credential-curl: " + named) == true, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(!result.stderrText.contains("hunter2"), "a password on stderr: \(result)")
        #expect(server.receivedCredential == nil, "something was sent")
        #expect(server.requestsElsewhere.isEmpty, "something reached the second server: \(server.requestsElsewhere)")
        try expectNothingLeaked()
    }

    /// The -H name is read as bytes whatever the caller's locale: in a UTF-8 one, sed
    /// stopped at an invalid byte and let a forged Host (or a second Authorization) through.
    /// The value holds a byte no Swift string can, so a shell's printf makes it.
    @Test(arguments: [("Host: evil.example\\377", "-H host would"), ("Authorization: Basic eDp5\\377", "-H authorization:"),
                      ("HOST\\377: evil.example", "-H 'HOST")])
    func aHeaderNameIsJudgedAsBytesInAnyLocale(header: String, named: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.sandbox.run("/bin/sh", ["-c", #"exec "$0" -sS -H "$(printf "$1")" "$2""#,
                                                         SourceTree.credentialCurl, header, server.url("/echo")],
                                             environment: machine.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }, timeout: 60)
        #expect(expectOneLineFailure(result, exitCode: 2, mentioning: [". Fix: "]))
        #expect(result.stderrLines.first?.hasPrefix("credential-curl: " + named) == true, "\(result)")
        #expect(server.receivedCredential == nil, "sent: \(server.log)")
        try expectNothingLeaked()
    }

    /// No temporary file: a TMPDIR of another user's (uid 65534), who replaces our
    /// directory there with one of theirs as soon as it appears, planting `status` as a
    /// link to a file of ours, cannot make credential-curl write through it; TMPDIR that
    /// does not exist is no error either.
    @Test(.enabled(if: geteuid() == 0, "needs root to act as a second user (setpriv)"))
    func anotherUsersTmpdirIsNeverUsed() throws {
        let slow = try machine.startServer(username: "alice", password: password, responseDelay: 1.5)
        try machine.store(username: "alice", password: password, for: slow)
        let victim = try machine.sandbox.file("victim", "root's file\n", mode: 0o644)
        let tmpdir = "/tmp/credential-curl-tmpdir-" + UUID().uuidString
        #expect(mkdir(tmpdir, 0o755) == 0 && chown(tmpdir, 65534, 65534) == 0)
        defer { try? FileManager.default.removeItem(atPath: tmpdir) }
        let script = #"""
            setpriv --reuid=65534 --regid=65534 --clear-groups /bin/sh -c '
                end=$(($(date +%s) + 20))
                while [ "$(date +%s)" -lt "$end" ]; do
                    for d in "$1"/credential-curl.*; do
                        case $d in *.gone|*"*") continue ;; esac
                        mv "$d" "$d.gone" && mkdir "$d" && ln -s "$2" "$d/status" && printf "401 %s\n" "$3" >"$d/result" &&
                            echo replaced && exit 0
                    done
                done' watcher "$TMPDIR" "$1" "$2" &
            watcher=$!
            "$0" -sS -o /dev/null "$2"
            status=$?
            kill "$watcher" 2>/dev/null
            exit "$status"
            """#
        let result = try machine.sandbox.run("/bin/sh", ["-c", script, SourceTree.credentialCurl, victim, slow.url("/echo")],
                                             environment: machine.environment.merging(["TMPDIR": tmpdir]) { $1 }, timeout: 60)
        #expect(result.exitCode == 0 && result.stderr.isEmpty && result.stdout.isEmpty, "\(result)")
        #expect(String(decoding: contents(of: victim) ?? [], as: UTF8.self) == "root's file\n", "written through the link")
        #expect(try machine.storedPassword(for: slow) == password, "the good credential was erased")
        #expect(slow.receivedCredential == credentialBytes)

        try machine.store(username: "alice", password: password, for: server)
        let nowhere = try machine.credentialCurl(["-sS", server.url("/echo")], environment: ["TMPDIR": tmpdir + "/absent"])
        #expect(nowhere.exitCode == 0 && nowhere.stderr.isEmpty, "\(nowhere)")
    }

    /// A value curl itself refuses: the caller sees curl's lines only, and curl's status;
    /// nothing was sent, nothing approved or rejected.
    @Test func curlsOwnRefusalIsAllTheCallerSees() throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["-sS", "-C", "x", server.url("/echo")])
        #expect(result.exitCode == 2 && result.stdout.isEmpty, "\(result)")
        #expect(!result.stderrLines.isEmpty && result.stderrLines.allSatisfy { $0.hasPrefix("curl: ") }, "\(result)")
        #expect(result.stderrLines.first == "curl: option -C: expected a proper numerical parameter", "\(result)")
        #expect(server.receivedCredential == nil)
        try expectNothingLeaked()
    }

    /// A body's value may hold a line break; with -G it goes into the URL instead,
    /// where curl itself refuses it (exit 3): nothing is sent.
    @Test(arguments: [["-G", "-d", "a\r\nHost: evil.example"], ["-G", "--data-urlencode", "a\r\nHost: evil.example=b"],
                      ["-G", "--data-raw", "a HTTP/1.1\r\nHost: evil.example"]])
    func aBodyMovedIntoTheURLByGetIsRefusedByCurl(options: [String]) throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(["-sS"] + options + [server.url("/echo")])
        #expect(result.exitCode == 3 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines == ["curl: (3) URL using bad/illegal format or missing URL"], "\(result)")
        #expect(server.receivedCredential == nil, "\(server.log)")
        try expectNothingLeaked()
    }

    /// Started with stdin, stdout or stderr closed (cron, a daemon): the request is made
    /// and the credential approved all the same.
    @Test(arguments: ["<&-", ">&-", "2>&-"])
    func aClosedStandardDescriptorIsNoError(closing: String) throws {
        let askpass = try Askpass(sandbox: machine.sandbox, username: "alice", password: password)
        let result = try machine.sandbox.run("/bin/sh", ["-c", #"exec "$0" -sS -o /dev/null "$1" "# + closing,
                                                         SourceTree.credentialCurl, server.url("/echo")],
                                             environment: machine.environment.merging(askpass.environment) { $1 }, timeout: 60)
        #expect(result.exitCode == 0 && result.stderr.isEmpty && result.stdout.isEmpty, "\(result)")
        #expect(server.receivedCredential == credentialBytes, "\(server.log)")
        #expect(try machine.storedPassword(for: server) == password, "not approved after a 200")
    }

    /// `-e URL` last made the credential go to the URL before it: now that one is the
    /// URL, and its own credential (none stored) is what git is asked for.
    @Test func aURLBeforeAnOptionsValueIsTheURL() throws {
        try machine.store(username: "alice", password: password, for: server)
        let result = try machine.credentialCurl(try realized(["-sS", "ELSEWHERE", "-e", "URL"]))
        #expect(result.exitCode == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.last == "credential-curl: git credential fill found no credential for http://\(server.elsewhereHost)/landed: \(noPasswordHeldYet)",
                "\(result)")
        #expect(server.requestsElsewhere.isEmpty, "\(server.requestsElsewhere)")
        try expectNothingLeaked()
    }

    /// A helper (or hostile data in a store) that answers for another host: the
    /// credential is neither sent nor approved, so it is not stored for that host, where
    /// git would later hand it out.
    @Test func aCredentialForAnotherOriginIsRefused() throws {
        let passwordFile = try machine.sandbox.file("hostile/password", password)
        let hostile = try machine.sandbox.file("hostile/helper", """
            #!/bin/sh
            [ "$1" = get ] || exit 0
            cat >/dev/null
            printf 'protocol=http\nhost=\(server.elsewhereHost)\nusername=alice\npassword='
            cat '\(passwordFile)'
            echo

            """, mode: 0o700)
        let stored = try machine.sandbox.git(["config", "--global", "--get", "credential.helper"]).stdoutText
            .trimmingCharacters(in: .newlines)
        for arguments in [["config", "--global", "--replace-all", "credential.helper", hostile],
                          ["config", "--global", "--add", "credential.helper", stored]] {
            let configured = try machine.sandbox.git(arguments)
            #expect(configured.exitCode == 0, "\(configured)")
        }
        let result = try machine.credentialCurl(["-sS", server.url("/echo")])
        #expect(expectOneLineFailure(result, exitCode: 2, mentioning: [
            "git credential fill answered for http://\(server.elsewhereHost), not for http://\(server.host)"]))
        #expect(server.receivedCredential == nil && server.requestsElsewhere.isEmpty, "something was sent")
        let elsewhere = try machine.helper.get(wire("protocol=http", "host=\(server.elsewhereHost)"))
        #expect(elsewhere.attributes["password"] == nil, "stored for the other host: \(elsewhere)")
    }

    /// A repository's own configuration never sees the credential: git's credential
    /// commands run outside any repository, so neither the .git/config of the directory
    /// credential-curl runs in (an untrusted checkout) nor a hook's GIT_DIR can name a
    /// helper that gets it. The global configuration's helper still answers and stores.
    @Test(arguments: ["working directory", "GIT_DIR"])
    func aRepositorysOwnHelperNeverSeesTheCredential(via route: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let repository = machine.sandbox.root + "/untrusted"
        let record = machine.sandbox.root + "/recorded"
        for arguments in [["init", "-q", repository],
                          ["-C", repository, "config", "credential.helper", "!f() { cat >>'\(record)'; }; f"]] {
            let done = try machine.sandbox.git(arguments)
            #expect(done.exitCode == 0, "\(done)")
        }
        let result = route == "GIT_DIR"
            ? try machine.credentialCurl(["-sS", server.url("/echo")], environment: ["GIT_DIR": repository + "/.git"])
            : try machine.credentialCurl(["-sS", server.url("/echo")], directory: repository)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)\n\(server.log)")
        #expect(server.receivedCredential == credentialBytes, "the stored credential was not used")
        #expect(!FileManager.default.fileExists(atPath: record),
                "the repository's helper was run: \((try? String(contentsOfFile: record, encoding: .utf8)) ?? "")")
    }

    /// A URL glob over hosts ({a,b} or [1-2]) would be several URLs, several hosts: such a
    /// URL names no host, and is refused (curl would get --globoff anyway).
    @Test(arguments: ["http://{HOST,ELSEWHERE_HOST}/echo", "http://127.0.0.[1-2]:PORT/echo"])
    func urlGlobsAreNotExpanded(template: String) throws {
        let sameHost = server.elsewhereHost == "127.0.0.2:\(server.port)"
        try #require(sameHost || !template.contains("[1-2]"), "127.0.0.2:\(server.port) was taken")
        try machine.store(username: "alice", password: password, for: server)
        // The glob's host is none git knows: before the fix, the askpass gave the credential.
        let askpass = try Askpass(sandbox: machine.sandbox, username: "alice", password: password)
        let url = template.replacingOccurrences(of: "ELSEWHERE_HOST", with: server.elsewhereHost)
            .replacingOccurrences(of: "HOST", with: server.host).replacingOccurrences(of: "PORT", with: String(server.port))
        let result = try machine.credentialCurl(["-sS", url], askpass: askpass)
        #expect(expectOneLineFailure(result, exitCode: 2, mentioning: ["names no host and port curl could reach"]))
        #expect(askpass.prompts.isEmpty, "asked for a credential: \(askpass.prompts)")
        #expect(server.receivedCredential == nil, "\(server.log)")
        #expect(server.requestsElsewhere.isEmpty, "something reached the second server: \(server.requestsElsewhere)")
        try expectNothingLeaked()
    }

    /// --resolve sends URL's host name to another address: refused; the same request
    /// without it works (the credential stored for localhost:PORT).
    @Test func resolveIsRefused() throws {
        try #require(server.elsewhereHost == "127.0.0.2:\(server.port)", "127.0.0.2:\(server.port) was taken")
        try machine.store(username: "alice", password: password, for: server)
        try machine.helper.storeAll(wire("protocol=http", "host=localhost:\(server.port)", "username=alice", "password=\(password)"))
        let url = "http://localhost:\(server.port)/echo"
        let refused = try machine.credentialCurl(["-sS", "--resolve", "localhost:\(server.port):127.0.0.2", url])
        #expect(expectOneLineFailure(refused, exitCode: 2, mentioning: ["--resolve would send the connection"]))
        #expect(server.requestsElsewhere.isEmpty, "\(server.requestsElsewhere)")
        try expectNothingLeaked()
        let plain = try machine.credentialCurl(["-sS", "-4", url])
        #expect(plain.exitCode == 0 && plain.stderr.isEmpty, "\(plain)")
        #expect(server.receivedCredential == credentialBytes)
    }

    /// A ~/.curlrc (in each place curl 7.88 looks) with a second URL and
    /// location-trusted is not read: curl runs with -q first.
    @Test func theCallersCurlrcIsNotRead() throws {
        try machine.store(username: "alice", password: password, for: server)
        let curlrc = "location-trusted\nurl = \"http://\(server.elsewhereHost)/landed\"\n"
        for directory in [machine.sandbox.home, machine.sandbox.configHome] {
            try ChildProcess.writeFile(directory + "/.curlrc", Array(curlrc.utf8), mode: 0o600)
        }
        let result = try machine.credentialCurl(["-sSfL", server.url("/redirect-other-host")])
        #expect(result.exitCode == 0 && result.stdoutText == "landed\n" && result.stderr.isEmpty, "\(result)")
        #expect(server.requestsElsewhere.hasPrefix("GET /landed"), "\(server.requestsElsewhere)")
        #expect(server.requestsElsewhere.components(separatedBy: "GET ").count == 2, "more than one request elsewhere")
        try expectNothingLeaked()
    }

    /// Allowed options still work, grouped or not, with their values in the same word or
    /// the next; the caller's --write-out format still comes out.
    @Test(arguments: [
        (["-sSf", "URL"], [UInt8](), ""),
        (["-sSN#", "--no-buffer", "URL"], [], ""),
        (["-sSo", "OUTPUT", "--data-binary", "into a file", "URL"], [], ""),
        (["-sS", "-XPOST", "-d@-", "URL"], Array("posted".utf8), "posted"),
        (["-sSfXPUT", "-Hx-test: 1", "--data-binary", "@-", "URL"], Array("put".utf8), "put"),
        (["--silent", "--no-progress-meter", "--no-keepalive", "-w", "[%{http_code}]", "URL"], [], "[200]"),
        (["-sSw[%{http_code}]", "--", "URL"], [], "[200]"),
        (["-sS", "--fail-early", "--noproxy", "127.0.0.1", "--create-file-mode", "0600", "-w", "[%{http_code}]", "URL"], [], "[200]"),
        // A body (and the output) may hold any character: curl frames it.
        (["-sS", "--data-binary", "a\r\nHost: b\u{01}", "URL"], [], "a\r\nHost: b\u{01}"),
        (["-sS", "-H", "X-Test: 1", "-d", "x\r\ny", "URL"], [], "x\r\ny"),
        (["-sS", "-w", "\u{01}\r\n" + #"a"b\\c\\n%{http_code}|"#, "URL"], [], "\u{01}\r\n" + #"a"b\\c\\n200|"#),
        // The config pipe (fd 3) is read to its end before any caller's option: no body can hold it.
        (["-sS", "-d", "@/dev/fd/3", "URL"], [], ""),
        (["-sS", "--data-binary", "@/proc/self/fd/3", "URL"], [], ""),
        // A -F name goes into a part's headers, inside the body curl frames.
        (["-sS", "-o", "/dev/null", "-F", "a\r\nX-B: 1=b", "URL"], [], ""),
        // The format goes into curl's config on the pipe: it cannot end its line there.
        (["-sS", "-w", "\"\nlocation-trusted\nurl = \"ELSEWHERE\"\n", "URL"], [], "\"\nlocation-trusted\nurl = \"ELSEWHERE\"\n"),
    ] as [([String], [UInt8], String)])
    func allowedOptionsWork(template: [String], input: [UInt8], output: String) throws {
        let output = try realized([output])[0]
        try machine.store(username: "alice", password: password, for: server)
        let outputFile = machine.sandbox.root + "/output"
        let arguments = try realized(template).map { $0 == "OUTPUT" ? outputFile : $0 }
        let result = try machine.credentialCurl(arguments, input: input)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)\n\(server.log)")
        #expect(result.stdoutText == output, "\(result)")
        #expect(server.receivedCredential == credentialBytes)
        if template.contains("OUTPUT") {
            #expect(String(decoding: contents(of: outputFile) ?? [], as: UTF8.self) == "into a file")
        }
        try expectNothingLeaked()
    }

    /// Whatever else curl writes on stderr (its progress meter, a body sent there), the
    /// wrapper still finds the status: the stale credential is rejected after the 401.
    @Test(arguments: [[], ["-#"], ["-sS", "-o", "/dev/stderr"], ["-s", "-D", "/dev/stderr"]])
    func theStatusIsFoundWhateverCurlWritesOnStderr(options: [String]) throws {
        try machine.store(username: "alice", password: "stale password", for: server)
        let result = try machine.credentialCurl(options + [server.url("/echo")])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try machine.storedPassword(for: server) == nil, "the 401 was not seen: \(result)")
    }

    /// The header is in none of curl's outputs the caller may ask for: -i, -D, and every
    /// --write-out variable that names headers or the request.
    @Test func theHeaderIsInNoOutput() throws {
        try machine.store(username: "alice", password: password, for: server)
        let headers = machine.sandbox.root + "/dumped-headers"
        let result = try machine.credentialCurl(["-sS", "-i", "-L", "-D", headers, "-w", "%{header_json}%{json}%{url}%{url_effective}",
                                                 server.url("/redirect-other-host")])
        #expect(result.exitCode == 0, "\(result)")
        let outputs = [result.stdoutText, result.stderrText, String(decoding: contents(of: headers) ?? [], as: UTF8.self)]
        #expect(outputs[0].contains("landed") && outputs[2].hasPrefix("HTTP/1.1 302"), "\(result)")
        for output in outputs {
            #expect(!output.lowercased().contains("authorization") && !output.contains(Data(credentialBytes).base64EncodedString()),
                    "\(output)")
        }
        try expectNothingLeaked()
    }

    /// --help lists what is passed on and says what is refused and why.
    @Test func helpSaysWhatIsRefused() throws {
        let result = try machine.sandbox.run(SourceTree.credentialCurl, ["--help"])
        #expect(result.exitCode == 0, "\(result)")
        for phrase in ["--location-trusted", "-u/--user", "--trace", "--insecure", "-s/--silent", "-H/--header V", "--no-NAME"] {
            #expect(result.stdoutText.contains(phrase), "no \(phrase) in \(result.stdoutText)")
        }
    }

    /// No core dump can hold the header: the script and curl run with a core limit of 0
    /// (hard and soft), even when started with an unlimited one.
    @Test func noCoreDumps() throws {
        let slow = try machine.startServer(username: "alice", password: password, responseDelay: 3)
        try machine.store(username: "alice", password: password, for: slow)
        let token = "core-" + UUID().uuidString
        let script = #"""
            ulimit -c unlimited || exit 99
            "$0" -sS "$1" >/dev/null 2>&1 &
            sleep 1.5
            for pid in $(pgrep -f "$2"); do
                [ "$pid" = $$ ] && continue
                printf '%s|%s\n' "$(tr '\0' ' ' </proc/$pid/cmdline | cut -c1-60)" "$(grep 'Max core file size' /proc/$pid/limits)"
            done
            wait
            """#
        let result = try machine.sandbox.run("/bin/sh", ["-c", script, SourceTree.credentialCurl, slow.url("/echo?\(token)"), token],
                                             environment: machine.environment, timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.contains { $0.hasPrefix("curl -q ") }, "curl was not seen: \(lines)")
        #expect(lines.contains { $0.contains("credential-curl") }, "the script was not seen: \(lines)")
        for line in lines {
            #expect(line.contains(/Max core file size\s+0\s+0\s/), "\(line)")
        }
    }

    /// The script's trace goes through the one trace writer: a symlink (to a victim's
    /// file) is not followed, a FIFO does not block, another user's file (0666, made by
    /// uid 65534) is not written; the request goes on. (The FIFO and other-user cases
    /// hold once Trace.swift opens only the user's regular files, without blocking:
    /// issue 10, item 5.)
    @Test(arguments: ["symlink", "fifo", "another user's file"])
    func theTraceFollowsNoLinkAndNeverBlocks(kind: String) throws {
        try machine.store(username: "alice", password: password, for: server)
        let victim = try machine.sandbox.file("victim-gitconfig", "[user]\n\tname = victim\n", mode: 0o644)
        let trace = machine.sandbox.root + "/trace-" + kind
        switch kind {
        case "symlink": try FileManager.default.createSymbolicLink(atPath: trace, withDestinationPath: victim)
        case "fifo": #expect(mkfifo(trace, 0o600) == 0)
        default:
            try ChildProcess.writeFile(trace, [], mode: 0o666)
            try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534, .posixPermissions: 0o666],
                                                  ofItemAtPath: trace)
        }
        let result = try machine.sandbox.run(SourceTree.credentialCurl, ["-sS", server.url("/echo")],
                                             environment: machine.environment.merging(["GIT_CREDENTIAL_TRACE": trace]) { $1 },
                                             timeout: 20)
        #expect(!result.timedOut && result.exitCode == 0, "\(result)")
        #expect(result.stderrLines.count <= 1 && result.stderrLines.allSatisfy { $0.hasPrefix("credential-curl: warning: ") },
                "\(result)")
        #expect(String(decoding: contents(of: victim) ?? [], as: UTF8.self) == "[user]\n\tname = victim\n", "the victim's file changed")
        if kind == "another user's file" {
            #expect(contents(of: trace) == [], "written to another user's file: \(String(decoding: contents(of: trace) ?? [], as: UTF8.self))")
        }
        #expect(server.receivedCredential == credentialBytes)
    }
}

/// The end of credential-curl's line when git's helpers hold no password for the URL: with a
/// git older than 2.46 (Debian 12's), it says that a token one holds needs a later git.
let noPasswordHeldYet: String = {
    let version = (try? ChildProcess.run(Sandbox.which("git") ?? "/usr/bin/git", ["--version"], stdin: [], environment: ["PATH": Sandbox.searchPath]))?
        .stdoutText.trimmingCharacters(in: .newlines) ?? "git"
    let numbers = version.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    let older = (numbers.first ?? 0, numbers.dropFirst().first ?? 0) < (2, 46)
    return "no helper holds a password for it yet" + (older ? " (a token one holds is passed on by git 2.46 and later; this is \(version))" : "")
        + ", and no one could be asked. Fix: run it once in a terminal to be asked (the helper then keeps it), or store it: git credential approve"
        + (older ? "; for a token, a git of 2.46 or later" : "")
}()
