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
            "get: no store at \(database) yet", "get: answered nothing",
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
               "get: 0 from the keyring, 1 from the SQLite store", "erase: erased 1 from the SQLite store", "erase: erased 1 item"]
            : ["store: storing in secretservice: the Secret Service answers and its default keyring is unlocked",
               "get: 1 from the keyring, 0 from the SQLite store", "get: no store at \(keyring.sandbox.database) yet",
               "erase: erased 0 from the SQLite store", "erase: erased 1 item"]
        for phrase in expected + ["git-credential-keyring: get: answered username=alice password=<redacted>"] {
            #expect(trace.has(phrase), "no \(phrase.debugDescription) in\n\(trace.text)")
        }
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
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        let trace = TraceOutput(file: traceFile)
        trace.expectWellFormed()
        #expect(permissions(of: traceFile) == 0o600)
        var expected = ["credential-curl: url \(server.url("/echo"))",
                        "credential-curl: git credential fill gave a credential for username=alice",
                        "credential-curl: basic-auth-header made the Authorization header (never traced)",
                        "git-credential-sqlite: get: answered username=alice password=<redacted>",
                        #"basic-auth-header: wrote a curl config line for "Authorization: Basic <redacted>""#]
        expected += wrongPassword
            ? ["credential-curl: curl exited with 0; last response: HTTP 401 from \(server.url("/echo"))",
               "credential-curl: rejecting the credential", "git-credential-sqlite: erase: erased 1 item"]
            : ["credential-curl: curl exited with 0; last response: HTTP 200 from \(server.url("/echo"))",
               "credential-curl: approving the credential",
               "git-credential-sqlite: store: stored protocol=http host=\(server.host) username=alice password=<redacted>"]
        for phrase in expected {
            #expect(trace.has(phrase), "no \(phrase.debugDescription) in\n\(trace.text)")
        }
        trace.expectNone(of: secrets + ["stale-\(password)", Data("alice:stale-\(password)".utf8).base64EncodedString()])
    }

    /// Descriptors the script uses itself (3, 4, 5) still work as trace descriptors, for
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
        #expect(trace.has("git-credential-sqlite: store: stored protocol=http"), "\(trace.text)")
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
