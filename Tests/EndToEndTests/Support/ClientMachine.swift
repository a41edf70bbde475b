import Foundation
import Testing

extension BuiltProducts {
    static var keyringHelper: String { directory + "/git-credential-keyring" }
    static var basicAuthHeader: String { directory + "/basic-auth-header" }
}

/// The helpers a person names in `credential.helper`, git-credential-keyring both at the
/// desktop (the test keyring's bus) and over SSH (no session bus: the SQLite store).
enum StoringHelper: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite = "git-credential-sqlite"
    case secretService = "git-credential-secretservice"
    case keyring = "git-credential-keyring"
    case keyringOverSSH = "git-credential-keyring without a session bus"

    var testDescription: String { rawValue }
}

extension Sandbox {
    /// What a process finds over SSH, in a container or CI: no DBUS_SESSION_BUS_ADDRESS
    /// (the sandbox's environment has none), no DISPLAY, an empty XDG_RUNTIME_DIR.
    func noSessionBus() throws -> [String: String] {
        let runtime = root + "/runtime-without-bus"
        if !fileExists(runtime) {
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        }
        return ["XDG_RUNTIME_DIR": runtime]
    }
}

/// git-credential-keyring as a test drives it: in a sandbox, with the environment of the
/// situation (a session bus with the test keyring, or none).
struct KeyringHelper: CredentialHelper {
    let sandbox: Sandbox
    var environment: [String: String] = [:]

    func invoke(_ arguments: [String], input: [UInt8]) throws -> ProcessResult {
        let result = try sandbox.run(BuiltProducts.keyringHelper, arguments, input: input, environment: environment)
        #expect(!result.timedOut, "git-credential-keyring \(arguments) hung: \(result)")
        expectNoGLibNoise(result)
        return result
    }

    /// What `which` says, one line expected.
    func which(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try self("which")
        #expect(result.exitCode == 0 && result.stdoutLines.count == 1 && result.stderr.isEmpty,
                "which: \(result)", sourceLocation: sourceLocation)
        return result.stdoutText
    }
}

/// A GIT_ASKPASS program in a sandbox that answers git's `Username for ...` and
/// `Password for ...` prompts from files (so that no answer is in any argv) and logs
/// every prompt it is shown.
struct Askpass {
    let program: String
    private let promptLog: String

    init(sandbox: Sandbox, username: String, password: String) throws {
        let directory = "askpass-" + UUID().uuidString.prefix(8)
        let usernameFile = try sandbox.file("\(directory)/username", username)
        let passwordFile = try sandbox.file("\(directory)/password", password)
        promptLog = sandbox.root + "/\(directory)/prompts"
        program = try sandbox.file("\(directory)/askpass", """
            #!/bin/sh
            printf '%s\\n' "$1" >>'\(promptLog)'
            case "$1" in
                Username*) exec cat '\(usernameFile)' ;;
                Password*) exec cat '\(passwordFile)' ;;
            esac
            exit 1

            """, mode: 0o700)
    }

    var environment: [String: String] { ["GIT_ASKPASS": program] }

    /// The prompts shown so far, in order.
    var prompts: [String] {
        Output(bytes: contents(of: promptLog) ?? []).lines
    }
}

/// A person's machine for the real-client tests: a sandbox whose ~/.gitconfig names one
/// of our helpers, where git and credential-curl run with the built executables first on
/// PATH, on the session bus of the test keyring when the helper uses it. Never a prompt
/// on a terminal (GIT_TERMINAL_PROMPT=0), and no askpass unless a call brings one.
final class ClientMachine {
    let sandbox: Sandbox
    /// The configured helper, run directly with the same options and environment: what it
    /// returns is what git would get.
    let helper: any CredentialHelper
    /// What git, credential-curl and the helper run with beyond the sandbox's environment.
    let environment: [String: String]
    private let keyring: SharedKeyring?
    private var servers: [Int] = []

    init(_ kind: StoringHelper) throws {
        let helperSetting: String
        var bus: [String: String] = [:]
        switch kind {
        case .sqlite:
            let sandbox = try Sandbox(), database = sandbox.root + "/git-store/credentials.db"
            self.sandbox = sandbox
            keyring = nil
            helper = sandbox.sqlite(["--db", database])
            helperSetting = "\(BuiltProducts.sqliteHelper) --db \(database)"
        case .secretService:
            let keyring = try SharedKeyring()
            self.keyring = keyring
            sandbox = keyring.sandbox
            bus = keyring.bus.environment
            helper = keyring.helper
            helperSetting = BuiltProducts.secretServiceHelper
        case .keyring:
            let keyring = try SharedKeyring()
            self.keyring = keyring
            sandbox = keyring.sandbox
            bus = keyring.bus.environment
            helper = KeyringHelper(sandbox: sandbox, environment: bus)
            helperSetting = BuiltProducts.keyringHelper
        case .keyringOverSSH:
            sandbox = try Sandbox()
            keyring = nil
            bus = try sandbox.noSessionBus()
            helper = KeyringHelper(sandbox: sandbox, environment: bus)
            helperSetting = BuiltProducts.keyringHelper
        }
        environment = bus.merging(["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath]) { $1 }
        let configured = try sandbox.git(["config", "--global", "credential.helper", helperSetting])
        guard configured.exitCode == 0 else { throw SpawnError(description: "git config: \(configured)") }
    }

    /// Removes what the test keyring holds for the servers the test started.
    deinit {
        for port in servers { try? keyring?.secretTool.clear(["server": "127.0.0.1", "port": String(port)]) }
    }

    /// Starts a server for this machine's clients (see `BasicAuthServer`).
    func startServer(username: String, password: String, responseDelay: Double = 0) throws -> BasicAuthServer {
        let server = try BasicAuthServer(sandbox: sandbox, username: username, password: password, responseDelay: responseDelay)
        servers.append(server.port)
        return server
    }

    /// git in the sandbox's home directory (`-C` for a work tree), with an askpass if given.
    func git(_ arguments: [String], askpass: Askpass? = nil, environment extra: [String: String] = [:]) throws -> ProcessResult {
        try sandbox.run(Sandbox.which("git") ?? "/usr/bin/git", arguments,
                        environment: environment.merging(askpass?.environment ?? [:]) { $1 }
                            .merging(BasicAuthServer.gitIdentity) { $1 }.merging(extra) { $1 },
                        timeout: 60)
    }

    /// credential-curl as built (SourceTree.credentialCurl), `input` on its stdin, run in the
    /// sandbox's home directory or `directory`, with `extra` in its environment.
    func credentialCurl(_ arguments: [String], input: [UInt8] = [], askpass: Askpass? = nil,
                        environment extra: [String: String] = [:], directory: String? = nil) throws -> ProcessResult {
        try sandbox.run(SourceTree.credentialCurl, arguments, input: input,
                        environment: environment.merging(askpass?.environment ?? [:]) { $1 }.merging(extra) { $1 },
                        directory: directory, timeout: 60)
    }

    /// The password the configured helper returns for the server (user any), nil for none.
    func storedPassword(for server: BasicAuthServer, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let result = try helper.get(wire("protocol=http", "host=\(server.host)"))
        #expect(result.exitCode == 0, "get: \(result)", sourceLocation: sourceLocation)
        return result.attributes["password"]
    }

    /// Stores a credential for the server through the configured helper.
    func store(username: String, password: String, for server: BasicAuthServer,
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        try helper.storeAll(wire("protocol=http", "host=\(server.host)", "username=\(username)", "password=\(password)"),
                            sourceLocation: sourceLocation)
    }
}

/// A password with every character that URL encoding, shell quoting, curl's config
/// syntax or Base64 handling could get wrong, made unique to the test (so that a sample
/// of every process on the machine finds only this test's).
func awkwardPassword() -> String {
    #"p: @ / % # ? " \ £ 😀 "# + UUID().uuidString.prefix(8)
}
