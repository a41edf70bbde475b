import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A trace written by the executables, and what every trace must be: lines that each start
/// as git's trace lines do (`HH:MM:SS.micros PROGRAM: `), with no secret of the test in them.
struct TraceOutput {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(file path: String) { bytes = contents(of: path) ?? [] }

    var lines: [String] { Output(bytes: bytes).lines }
    var text: String { Output(bytes: bytes).text }

    /// Whether some line contains every one of `phrases`.
    func has(_ phrases: String...) -> Bool { lines.contains { line in phrases.allSatisfy(line.contains) } }

    /// Every line trace-shaped, none empty, the whole ending in LF, no control byte but LF.
    func expectWellFormed(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!lines.isEmpty, "no trace at all", sourceLocation: sourceLocation)
        #expect(bytes.last == 0x0A, sourceLocation: sourceLocation)
        for line in lines {
            #expect(line.prefixMatch(of: /\d\d:\d\d:\d\d\.\d{6} (git-credential-[a-z]+|basic-auth-header|credential-curl): \S/) != nil,
                    "not a trace line: \(line.debugDescription)", sourceLocation: sourceLocation)
        }
        #expect(!bytes.contains { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }, "a control byte: \(text.debugDescription)",
                sourceLocation: sourceLocation)
    }

    /// None of `secrets` anywhere, the Base64 of `user:password` pairs included.
    func expectNone(of secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets {
            #expect(!bytes.containsUTF8(secret), "the trace holds \(secret.debugDescription): \(text)", sourceLocation: sourceLocation)
        }
    }
}

/// GIT_CREDENTIAL_TRACE end to end: each of git's GIT_TRACE modes, what each executable
/// says for get, store and erase, redaction (GIT_CREDENTIAL_TRACE_REDACT), escaping, and
/// that with tracing off nothing changes.
@Suite struct TracingTests {
    let sandbox: Sandbox
    let database: String
    let password = "alice-secret-" + UUID().uuidString.prefix(8)
    var secrets: [String] { [password, Data("alice:\(password)".utf8).base64EncodedString()] }

    init() throws {
        sandbox = try Sandbox()
        database = sandbox.root + "/store/credentials.db"
        try FileManager.default.createDirectory(atPath: sandbox.root + "/traces", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
    }

    var traceFile: String { sandbox.root + "/traces/credentials.trace" }
    var credential: [UInt8] { wire("protocol=https", "host=example.com", "username=alice", "password=\(password)") }
    var lookup: [UInt8] { wire("protocol=https", "host=example.com") }
    func helper(_ environment: [String: String] = [:]) -> SQLiteHelper {
        sandbox.sqlite(["--db", database]).with(environment: environment)
    }
    var toFile: [String: String] { ["GIT_CREDENTIAL_TRACE": traceFile] }

    // MARK: Modes

    @Test(arguments: ["1", "2", "true", "TRUE"])
    func stderrModes(value: String) throws {
        try helper().storeAll(credential)
        let result = try helper(["GIT_CREDENTIAL_TRACE": value]).get(lookup)
        #expect(result.exitCode == 0 && result.attributes["password"] == password, "\(result)")
        let trace = TraceOutput(result.stderr.bytes)
        trace.expectWellFormed()
        #expect(trace.has("git-credential-sqlite: get: request protocol=https host=example.com"), "\(trace.text)")
        #expect(trace.has("get: answered username=alice password=<redacted>"), "\(trace.text)")
        trace.expectNone(of: secrets)
    }

    /// Unset, empty, 0, false: nothing on stderr, no file, the same answers.
    @Test(arguments: [nil, "", "0", "false", "False"] as [String?])
    func offValuesChangeNothing(value: String?) throws {
        let helper = helper(value.map { ["GIT_CREDENTIAL_TRACE": $0] } ?? [:])
        expectSuccess(try helper.store(credential))
        let found = try helper.get(lookup)
        expectSuccess(found)
        #expect(found.stdoutText == "username=alice\npassword=\(password)\n")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=other.example.com")))
        expectSuccess(try helper.erase(lookup))
        expectSilentMiss(try helper.get(lookup))
        #expect(files(in: sandbox.root + "/traces").isEmpty && !fileExists(sandbox.home + "/0"))
    }

    /// A descriptor the caller opened (3-9): the trace goes there, stderr stays empty.
    @Test(arguments: [3, 7, 9])
    func descriptorMode(fd: Int) throws {
        try helper().storeAll(credential)
        let result = try sandbox.run("/bin/sh", ["-c", #"exec "$0" --db "$1" get \#(fd)>>"$2""#,
                                                 BuiltProducts.sqliteHelper, database, traceFile],
                                     input: lookup, environment: ["GIT_CREDENTIAL_TRACE": String(fd)])
        expectSuccess(result)
        #expect(result.attributes["password"] == password)
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("get: answered username=alice password=<redacted>"), "\(trace.text)")
        trace.expectNone(of: secrets)
    }

    /// A descriptor that is not open: one warning, and the helper still answers.
    @Test func descriptorNotOpenWarnsOnce() throws {
        try helper().storeAll(credential)
        let result = try helper(["GIT_CREDENTIAL_TRACE": "8"]).get(lookup)
        #expect(result.exitCode == 0 && result.attributes["password"] == password, "\(result)")
        expectWarning(result, mentioning: "cannot write the trace to descriptor 8, which is not open")
    }

    /// An absolute path: appended to by every call (created 0600), nothing on stderr.
    @Test func fileModeAppendsAndIsPrivate() throws {
        let helper = helper(toFile)
        expectSuccess(try helper.store(credential))
        #expect(permissions(of: traceFile) == 0o600)
        #expect(try helper.password(for: lookup) == password)
        expectSuccess(try helper.erase(lookup))
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("store: stored") && trace.has("get: answered") && trace.has("erase: erased 1 item"), "\(trace.text)")
        #expect(permissions(of: traceFile) == 0o600)
        trace.expectNone(of: secrets)
    }

    /// As git: a relative path traces nothing, and says so in one line.
    @Test(arguments: ["trace.log", "./trace.log", "yes"])
    func relativePathWarnsOnce(value: String) throws {
        try helper().storeAll(credential)
        let result = try helper(["GIT_CREDENTIAL_TRACE": value]).get(lookup)
        #expect(result.exitCode == 0 && result.attributes["password"] == password, "\(result)")
        expectWarning(result, mentioning: "GIT_CREDENTIAL_TRACE=\(value) is not an absolute path")
        #expect(!fileExists(sandbox.home + "/trace.log") && !fileExists(sandbox.home + "/yes"))
    }

    @Test func fileInAMissingDirectoryWarnsOnce() throws {
        let result = try helper(["GIT_CREDENTIAL_TRACE": sandbox.root + "/missing/trace"]).get(lookup)
        expectWarning(result, mentioning: "cannot open \(sandbox.root)/missing/trace for GIT_CREDENTIAL_TRACE")
        #expect(result.exitCode == 0 && result.stdout.isEmpty)
    }

    // MARK: Only a regular file of the user's

    /// A get traced to `path`: it must answer at once (within 10 s: the old writer hung in
    /// open on a FIFO without a reader), say why nothing is traced in one warning, and
    /// write nothing there.
    func expectRefused(_ path: String, because phrase: String, environment extra: [String: String] = [:],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        try helper().storeAll(credential)
        let started = Date()
        let result = try sandbox.run(BuiltProducts.sqliteHelper, ["--db", database, "get"], input: lookup,
                                     environment: ["GIT_CREDENTIAL_TRACE": path].merging(extra) { $1 }, timeout: 10)
        #expect(!result.timedOut && Date().timeIntervalSince(started) < 5, "the helper hung: \(result)", sourceLocation: sourceLocation)
        #expect(result.exitCode == 0 && result.attributes["password"] == password, "\(result)", sourceLocation: sourceLocation)
        expectWarning(result, mentioning: phrase, sourceLocation: sourceLocation)
        #expect(result.stderrText.contains(" so nothing is traced. Fix: give the path of a regular file of your own"),
                "\(result)", sourceLocation: sourceLocation)
    }

    @Test func fifoWithoutAReaderNeitherHangsNorTraces() throws {
        let fifo = sandbox.root + "/traces/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        try expectRefused(fifo, because: "cannot open \(fifo) for GIT_CREDENTIAL_TRACE: it is a FIFO (named pipe)")
    }

    /// Someone reading a FIFO where the trace goes gets nothing, secrets asked for or not.
    @Test func fifoWithAReaderGetsNothing() throws {
        let fifo = sandbox.root + "/traces/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        try expectRefused(fifo, because: "will not write the trace to \(fifo): it is a FIFO (named pipe)",
                          environment: ["GIT_CREDENTIAL_TRACE_REDACT": "0"])
        var buffer = [UInt8](repeating: 0, count: 4096)
        let got = read(reader, &buffer, buffer.count)
        #expect(got <= 0, "the reader got \(String(decoding: buffer.prefix(max(got, 0)), as: UTF8.self).debugDescription)")
    }

    /// A link planted where the trace goes, to a file of the user's or to one not there
    /// yet: neither is written nor created.
    @Test func symbolicLinkIsNotFollowed() throws {
        let victim = try sandbox.file("victim", "[user]\n\tname = Alice\n", mode: 0o600)
        let link = sandbox.root + "/traces/link"
        #expect(symlink(victim, link) == 0)
        try expectRefused(link, because: "cannot open \(link) for GIT_CREDENTIAL_TRACE: it is a symbolic link")
        #expect(contents(of: victim) == Array("[user]\n\tname = Alice\n".utf8))
        let dangling = sandbox.root + "/traces/dangling"
        #expect(symlink(sandbox.home + "/.bashrc", dangling) == 0)
        try expectRefused(dangling, because: "it is a symbolic link")
        #expect(!fileExists(sandbox.home + "/.bashrc"))
    }

    @Test func directoryIsRefused() throws {
        try expectRefused(sandbox.root + "/traces", because: "cannot open \(sandbox.root)/traces for GIT_CREDENTIAL_TRACE: it is a directory")
        #expect(files(in: sandbox.root + "/traces").isEmpty)
    }

    /// A device takes no trace (nor secrets, when asked for them): /dev/null, or a
    /// terminal that is not the user's.
    @Test func deviceIsRefused() throws {
        try expectRefused("/dev/null", because: "will not write the trace to /dev/null: it is a character device",
                          environment: ["GIT_CREDENTIAL_TRACE_REDACT": "0"])
    }

    /// A file another user made where the trace goes (a shared /tmp, say) is theirs to
    /// read: nothing goes into it. As root, the file is made by nobody (setpriv).
    @Test(.enabled(if: geteuid() == 0, "needs root to act as a second user")) func anotherUsersFileIsRefused() throws {
        let shared = sandbox.root + "-shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: shared) }
        #expect(chown(shared, 65534, 65534) == 0)
        let theirs = shared + "/trace"
        let made = try sandbox.runAsAnotherUser("/bin/sh", ["-c", "umask 077; : > \"$0\"", theirs])
        expectSuccess(made)
        var info = stat()
        try #require(stat(theirs, &info) == 0 && info.st_uid == 65534)
        try expectRefused(theirs, because: "will not write the trace to \(theirs): it belongs to another user (uid 65534)")
        #expect(contents(of: theirs) == [])
    }

    /// A second name of a file (a hard link someone made to one of ours) is not written.
    @Test func hardLinkedFileIsRefused() throws {
        let original = try sandbox.file("notes", "keep\n", mode: 0o600)
        let second = sandbox.root + "/traces/second-name"
        #expect(link(original, second) == 0)
        try expectRefused(second, because: "will not write the trace to \(second): it has 2 names (hard links)")
        #expect(contents(of: original) == Array("keep\n".utf8))
    }

    func expectWarning(_ result: ProcessResult, mentioning phrase: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.stderrLines.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderrText.hasPrefix("git-credential-sqlite: warning: ") && result.stderrText.contains(phrase)
                && result.stderrText.contains("Fix: "), "\(result)", sourceLocation: sourceLocation)
    }

    // MARK: What each executable says

    @Test func sqliteGetStoreErase() throws {
        let helper = helper(toFile)
        expectSilentMiss(try helper.get(lookup))
        expectSuccess(try helper.store(credential))
        expectSuccess(try helper.store(wire("protocol=https", "host=example.com", "username=bob", "password=x", "ephemeral=1")))
        #expect(try helper.password(for: lookup) == password)
        expectSuccess(try helper.erase(wire("protocol=https", "host=example.com", "username=alice")))
        let keyFile = sandbox.keyFile
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        for phrase in [
            "git-credential-sqlite: called with --db \(database) get",
            "get: answered nothing: there is no store at \(database) (named by --db)",
            "store: request protocol=https host=example.com username=alice password=<redacted>",
            "store: created the store \(database)", "store: opened \(database) (key file \(keyFile))",
            "store: stored protocol=https host=example.com username=alice password=<redacted>",
            "store: stored nothing: the credential is ephemeral",
            "get: request protocol=https host=example.com", "get: 1 item matched",
            "get: answered username=alice password=<redacted>",
            "erase: request protocol=https host=example.com username=alice", "erase: erased 1 item",
        ] {
            #expect(trace.has(phrase), "no \(phrase.debugDescription) in\n\(trace.text)")
        }
        trace.expectNone(of: secrets)
    }

    /// A failure: the same line as on stderr, with the exit code.
    @Test func sqliteFailureIsTraced() throws {
        try helper().storeAll(credential)
        chmod(sandbox.keyFile, 0o644)
        let result = try helper(toFile).get(lookup)
        expectOneLineFailure(result, exitCode: 1, mentioning: ["mode 644"])
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("get: failed with exit code 1: " + result.stderrLines[0]), "\(trace.text)")
    }

    @Test func managementCommandsAndUnknownActions() throws {
        try helper().storeAll(credential)
        expectSuccess(try helper(toFile).list())
        let failed = try helper(toFile)("import", sandbox.root + "/no-such-file")
        #expect(failed.exitCode != 0)
        expectSilentMiss(try helper(toFile)("frobnicate"))
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("git-credential-sqlite: list: started") && trace.has("git-credential-sqlite: list: succeeded"), "\(trace.text)")
        #expect(trace.has("git-credential-sqlite: import: failed with exit code \(failed.exitCode!): " + failed.stderrLines[0]),
                "\(trace.text)")
        #expect(trace.has("ignored the action frobnicate"), "\(trace.text)")
        trace.expectNone(of: secrets)
    }

    @Test func secretServiceGetStoreErase() throws {
        let keyring = try SharedKeyring()
        let host = keyring.names("example.com")
        let environment = keyring.bus.environment.merging(["GIT_CREDENTIAL_TRACE": traceFile]) { $1 }
        func run(_ action: String, _ input: [UInt8]) throws -> ProcessResult {
            try keyring.sandbox.run(BuiltProducts.secretServiceHelper, [action], input: input, environment: environment)
        }
        expectSuccess(try run("store", wire("protocol=https", "host=\(host)", "username=alice", "password=\(password)")))
        let found = try run("get", wire("protocol=https", "host=\(host)"))
        #expect(found.exitCode == 0 && found.attributes["password"] == password, "\(found)")
        expectSuccess(try run("erase", wire("protocol=https", "host=\(host)")))
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        for phrase in ["git-credential-secretservice: store: connected to the Secret Service",
                       "store: stored protocol=https host=\(host) username=alice password=<redacted>",
                       "get: connected to the Secret Service", "get: 1 item matched",
                       "get: answered username=alice password=<redacted>", "erase: erased 1 item"] {
            #expect(trace.has(phrase), "no \(phrase.debugDescription) in\n\(trace.text)")
        }
        trace.expectNone(of: secrets)
    }

    /// Which store and why: the keyring at the desktop, SQLite without a session bus.
    @Test(arguments: [false, true])
    func keyringSaysWhichStoreAndWhy(overSSH: Bool) throws {
        let keyring = try SharedKeyring()
        let host = keyring.names("example.com")
        let situation = overSSH ? try keyring.sandbox.noSessionBus() : keyring.bus.environment
        let helper = KeyringHelper(sandbox: keyring.sandbox, environment: situation.merging(["GIT_CREDENTIAL_TRACE": traceFile]) { $1 })
        try helper.storeAll(wire("protocol=https", "host=\(host)", "username=alice", "password=\(password)"))
        #expect(try helper.password(for: wire("protocol=https", "host=\(host)")) == password)
        expectSuccess(try helper.erase(wire("protocol=https", "host=\(host)")))
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        let expected = overSSH
            ? ["store: no keyring: cannot reach the Secret Service", "store: storing in sqlite: cannot reach the Secret Service",
               "store: opened \(keyring.sandbox.database) (key file \(keyring.sandbox.keyFile))",
               "get: 1 item matched in the SQLite store", "erase: erased 1 from the SQLite store", "erase: erased 1 item"]
            : ["store: storing in secretservice: the Secret Service answers and its default keyring is unlocked",
               "get: 1 item matched in the keyring", "erase: no store at \(keyring.sandbox.database) yet",
               "erase: erased 0 from the SQLite store", "erase: erased 1 item"]
        for phrase in expected + ["git-credential-keyring: get: answered username=alice password=<redacted>"] {
            #expect(trace.has(phrase), "no \(phrase.debugDescription) in\n\(trace.text)")
        }
        // The keyring answered: get did not even look for the SQLite store.
        #expect(overSSH || !trace.has("get: no store at"), "\(trace.text)")
        trace.expectNone(of: secrets)
    }

    @Test(arguments: [false, true])
    func basicAuthHeader(curlConfig: Bool) throws {
        let input = wire("username=alice", "password=\(password)")
        let result = try sandbox.run(BuiltProducts.basicAuthHeader, curlConfig ? ["--curl-config"] : [], input: input,
                                     environment: toFile)
        expectSuccess(result)
        #expect(result.stdoutText.contains(secrets[1]))
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("basic-auth-header: read username=alice password=<redacted>"), "\(trace.text)")
        #expect(trace.has("basic-auth-header: wrote " + (curlConfig ? "a curl config line for " : "") + #""Authorization: Basic <redacted>""#),
                "\(trace.text)")
        trace.expectNone(of: secrets)
    }

    @Test func basicAuthHeaderRefusalIsTraced() throws {
        let result = try sandbox.run(BuiltProducts.basicAuthHeader, [], input: wire("username=alice"), environment: toFile)
        expectOneLineFailure(result, exitCode: 2)
        #expect(TraceOutput(file: traceFile).has("basic-auth-header: failed with exit code 2: " + result.stderrLines[0]))
    }

    // MARK: Redaction and escaping

    /// GIT_CREDENTIAL_TRACE_REDACT=0 shows secrets in a private file and on a pipe, never
    /// in a file others can read.
    @Test func redactZeroShowsSecretsOnlyWhereItIsSafe() throws {
        let reveal = ["GIT_CREDENTIAL_TRACE_REDACT": "0"]
        try helper().storeAll(credential)
        expectSuccess(try helper(toFile.merging(reveal) { $1 }).get(lookup))
        #expect(TraceOutput(file: traceFile).has("get: answered username=alice password=\(password)"))

        let onStderr = try helper(["GIT_CREDENTIAL_TRACE": "2"].merging(reveal) { $1 }).get(lookup)
        #expect(TraceOutput(onStderr.stderr.bytes).has("answered username=alice password=\(password)"), "\(onStderr)")

        let header = try sandbox.run(BuiltProducts.basicAuthHeader, [], input: wire("username=alice", "password=\(password)"),
                                     environment: toFile.merging(reveal) { $1 })
        expectSuccess(header)
        #expect(TraceOutput(file: traceFile).has("Authorization: Basic " + secrets[1]))

        let shared = try sandbox.file("traces/shared.trace", "", mode: 0o644)
        expectSuccess(try helper(["GIT_CREDENTIAL_TRACE": shared].merging(reveal) { $1 }).get(lookup))
        let trace = TraceOutput(file: shared)
        trace.expectWellFormed()
        #expect(trace.has("GIT_CREDENTIAL_TRACE_REDACT=0 ignored", "mode 644"), "\(trace.text)")
        #expect(trace.has("answered username=alice password=<redacted>"), "\(trace.text)")
        trace.expectNone(of: secrets)
    }

    /// Anything but 0/false/no/off keeps redacting, as git's GIT_TRACE_REDACT.
    @Test(arguments: ["1", "true", "", "yes"])
    func otherRedactValuesRedact(value: String) throws {
        try helper().storeAll(credential)
        expectSuccess(try helper(toFile.merging(["GIT_CREDENTIAL_TRACE_REDACT": value]) { $1 }).get(lookup))
        TraceOutput(file: traceFile).expectNone(of: secrets)
    }

    /// A store path holding a newline and a username holding ESC sequences cannot forge a
    /// line nor move the cursor of whoever reads the trace on a terminal.
    @Test func valuesCannotForgeLines() throws {
        let fake = "12:00:00.000000 git-credential-sqlite: get: answered username=alice password=leaked"
        let database = sandbox.root + "/store\n\(fake)/credentials.db"
        let helper = sandbox.sqlite(["--db", database]).with(environment: toFile)
        let username = "mallory\u{1b}[1A\u{1b}[2K\(fake)"
        expectSuccess(try helper.store(wire("protocol=https", "host=example.com", "username=\(username)", "password=\(password)")))
        #expect(try helper.password(for: lookup) == password)
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(!trace.lines.contains { $0.hasPrefix(fake) }, "\(trace.text)")
        #expect(trace.has(#"opened "\#(sandbox.root)/store\n12:00:00.000000 git-credential-sqlite: get:"#), "\(trace.text)")
        #expect(trace.has(#"username="mallory\033[1A\033[2K12:00:00.000000"#), "\(trace.text)")
        trace.expectNone(of: secrets)
    }

    /// A URL's password on the command line (`erase URL`, `configure --url URL`, a URL
    /// given where a host or a file goes) reaches neither the trace nor stderr; the rest
    /// of the command line is traced as it was.
    @Test(arguments: [["erase"], ["list"], ["configure", "--url"], ["unconfigure", "--url"], ["import"]])
    func urlPasswordsOnTheCommandLineAreRedacted(command: [String]) throws {
        try helper().storeAll(credential)
        let secret = "Url-\(password)"
        let url = "https://alice:\(secret)@example.com/repo.git"
        let result = try helper(toFile).invoke(command + [url], input: [])
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("called with --db \(database) \(command.joined(separator: " ")) https://alice:<redacted>@example.com/repo.git"),
                "\(trace.text)")
        trace.expectNone(of: secrets + [secret])
        #expect(!result.stdout.bytes.containsUTF8(secret) && !result.stderr.bytes.containsUTF8(secret), "\(result)")
        #expect(!(contents(of: sandbox.home + "/.gitconfig") ?? []).containsUTF8(secret), "the password went into ~/.gitconfig")
        if command.contains("--url") {
            // git config would keep it in clear, and show it on its command line meanwhile.
            expectOneLineFailure(result, exitCode: 2, mentioning: ["the URL given to --url holds a password", "Fix: give the URL without it"])
        }
    }

    /// Odd passwords (spaces, `@`, `/`, quotes) in a URL given twice are hidden whole.
    @Test func oddURLPasswordsAreRedactedWhole() throws {
        let secrets = ["p w@x", #"q"u/o\te"#]
        let urls = secrets.map { "https://alice:\($0)@example.com/" }
        _ = try helper(toFile)("erase", urls[0], urls[1])
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("called with --db \(database) erase"), "\(trace.text)")
        trace.expectNone(of: secrets + ["p w", "x@", "q\\\"u", "o\\\\te"])
    }

    // MARK: credential-curl

    /// Its own steps (never the header), and the helpers git runs for it, in one trace.
    @Test(arguments: [false, true])
    func credentialCurlTracesItsSteps(wrongPassword: Bool) throws {
        let machine = try ClientMachine(.sqlite)
        let server = try machine.startServer(username: "alice", password: password)
        try machine.store(username: "alice", password: wrongPassword ? "stale-\(password)" : password, for: server)
        let traceFile = machine.sandbox.root + "/curl.trace"
        let result = try machine.sandbox.run(SourceTree.credentialCurl, ["--silent", server.url("/echo")],
                                             environment: machine.environment.merging(["GIT_CREDENTIAL_TRACE": traceFile]) { $1 },
                                             timeout: 60)
        // A rejected credential is said on stderr (CredentialCurlTests checks the line).
        #expect(result.exitCode == 0 && result.stderrLines.count == (wrongPassword ? 1 : 0), "\(result)")
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(permissions(of: traceFile) == 0o600)
        var expected = ["credential-curl: url \(server.url("/echo"))",
                        "credential-curl: git credential fill gave a credential for username=alice",
                        "credential-curl: made the Authorization header (Basic, never traced); curl gets it on a pipe",
                        "git-credential-sqlite: get: answered username=alice password=<redacted>"]
        expected += wrongPassword
            ? ["credential-curl: curl exited with 0; last response: HTTP 401 from \(server.url("/echo"))",
               "credential-curl: rejecting the credential", "git-credential-sqlite: erase: erased 1 item"]
            : ["credential-curl: curl exited with 0; last response: HTTP 200 from \(server.url("/echo"))",
               "credential-curl: approving the credential",
               // The credential stored before is the one approved: nothing to write.
               "git-credential-sqlite: store: stored nothing: protocol=http host=\(server.host) username=alice password=<redacted> is already the newest stored item for its host"]
        for phrase in expected {
            #expect(trace.has(phrase), "no \(phrase.debugDescription) in\n\(trace.text)")
        }
        trace.expectNone(of: secrets + ["stale-\(password)", Data("alice:stale-\(password)".utf8).base64EncodedString()])
    }

    /// Descriptors the script used itself (3, 4, 5; credential-curl gives curl its config on 3) still work as trace descriptors, for
    /// the helpers of the approve at the end too; stderr works; a relative path warns once.
    @Test(arguments: ["3", "4", "5", "2", "trace.log"])
    func credentialCurlModes(value: String) throws {
        let machine = try ClientMachine(.sqlite)
        let server = try machine.startServer(username: "alice", password: password)
        try machine.store(username: "alice", password: password, for: server)
        let traceFile = machine.sandbox.root + "/curl.trace"
        let environment = machine.environment.merging(["GIT_CREDENTIAL_TRACE": value]) { $1 }
        let result = value.count == 1 && value != "2"
            ? try machine.sandbox.run("/bin/sh", ["-c", #"exec "$0" --silent "$1" \#(value)>>"$2""#,
                                                  SourceTree.credentialCurl, server.url("/echo"), traceFile],
                                      environment: environment, timeout: 60)
            : try machine.sandbox.run(SourceTree.credentialCurl, ["--silent", server.url("/echo")], environment: environment, timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        if value == "trace.log" {
            #expect(result.stderrLines == ["credential-curl: warning: GIT_CREDENTIAL_TRACE=trace.log is not an absolute path, so nothing is traced. Fix: set it to an absolute path (starting with /), to 1 for stderr, or to a descriptor 3-9"],
                    "\(result)")
            return
        }
        let trace = value == "2" ? TraceOutput(result.stderr.bytes) : TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("credential-curl: approving the credential"), "\(trace.text)")
        #expect(trace.has("git-credential-sqlite: store: stored nothing: protocol=http"), "\(trace.text)")
        trace.expectNone(of: secrets)
    }

    /// A password in the URL itself is not traced.
    @Test func credentialCurlRedactsAPasswordInTheURL() throws {
        let machine = try ClientMachine(.sqlite)
        let server = try machine.startServer(username: "alice", password: password)
        let traceFile = machine.sandbox.root + "/curl.trace"
        let url = "http://alice:\(password)@\(server.host)/echo"
        _ = try machine.sandbox.run(SourceTree.credentialCurl, ["--silent", url],
                                    environment: machine.environment.merging(["GIT_CREDENTIAL_TRACE": traceFile]) { $1 }, timeout: 60)
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(trace.has("credential-curl: url http://alice:<redacted>@\(server.host)/echo"), "\(trace.text)")
        trace.expectNone(of: secrets)
    }
}
