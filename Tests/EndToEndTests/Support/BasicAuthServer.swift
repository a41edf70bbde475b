import Foundation
import Testing

/// Files of the source tree that the tests run as they are: the fixtures.
enum SourceTree {
    /// The package's root, found from this file's place in it (Tests/EndToEndTests/Support).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// credential-curl, a program of the built credential-helpers executable (its name in
    /// the build directory, as `make names` links it); named here since CredentialCurlTests
    /// names it so from the days it was a script of the source tree.
    /// By SwiftPM's short name for the build directory (.build/debug, a link to the
    /// platform's) when the programs are there: a test finds it in ps by the first 60
    /// characters of its command line.
    static var credentialCurl: String {
        let short = root + "/.build/debug"
        let sameDirectory = (try? FileManager.default.destinationOfSymbolicLink(atPath: short))
            .map { (short as NSString).deletingLastPathComponent + "/" + $0 == BuiltProducts.directory } ?? false
        return (sameDirectory ? short : BuiltProducts.directory) + "/credential-curl"
    }
    static var basicAuthServer: String { root + "/Tests/Fixtures/basic_auth_server.py" }
}

/// Tests/Fixtures/basic_auth_server.py for one test: HTTP Basic auth for one user on
/// 127.0.0.1, `/echo`, redirects to listeners elsewhere on loopback, and `git http-backend`
/// under `/git/` (see the script for the routes). Its files live in the sandbox; it stops
/// when the value goes away (or, should the test process die, when its stdin closes).
final class BasicAuthServer {
    let port: Int
    /// The listeners behind the redirects, which record every request they get (see
    /// `requestsElsewhere`): `127.0.0.2:PORT` (the same port as the server's when it was
    /// free) and another port of 127.0.0.1.
    let elsewhereHost: String
    let elsewherePort: String
    /// The server's files: the accepted credential, what it recorded, its log, its repositories.
    let directory: String
    private let sandbox: Sandbox
    private let process: BackgroundProcess

    /// The host as git and curl name it in credentials: `127.0.0.1:PORT`.
    var host: String { "127.0.0.1:\(port)" }
    func url(_ path: String) -> String { "http://\(host)\(path)" }
    /// The clone URL of a repository made by `makeRepository`.
    func repositoryURL(_ name: String) -> String { url("/git/\(name).git") }

    private var credentialFile: String { directory + "/credential" }
    private var recordFile: String { directory + "/received-credential" }
    private var elsewhereRecordFile: String { directory + "/requests-elsewhere" }
    private var logFile: String { directory + "/log" }
    private var gitRoot: String { directory + "/repositories" }

    /// Starts a server that accepts `username` with `password`; with a `responseDelay`
    /// (seconds), every authenticated answer waits that long.
    /// With `oauth`, the forge is its own OAuth authorization server too (/oauth/authorize,
    /// /oauth/token: Tests/Fixtures/oauth_authority.py), and accepts only the newest token
    /// it minted, as `oauth2:TOKEN`.
    init(sandbox: Sandbox, username: String, password: String, responseDelay: Double = 0, oauth: Bool = false) throws {
        self.sandbox = sandbox
        directory = sandbox.root + "/server-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory + "/repositories", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try ChildProcess.writeFile(directory + "/credential", Array("\(username):\(password)".utf8), mode: 0o600)
        process = try BackgroundProcess(
            "/usr/bin/python3",
            [SourceTree.basicAuthServer, "--credential-file", directory + "/credential",
             "--record-file", directory + "/received-credential", "--elsewhere-record-file", directory + "/requests-elsewhere",
             "--git-root", directory + "/repositories", "--log-file", directory + "/log",
             "--lifetime", "600", "--response-delay", String(responseDelay)] + (oauth ? ["--oauth-state-dir", directory] : []),
            environment: ["PATH": Sandbox.searchPath, "LANG": "C.UTF-8", "HOME": sandbox.home], directory: directory)
        let line = try process.firstLine(timeout: 20)
        let fields = line.split(separator: " ").map(String.init)
        guard fields.count == 3, let port = Int(fields[0]), port > 0 else {
            throw SpawnError(description: "basic_auth_server.py printed \(line.debugDescription), not a port and two addresses")
        }
        self.port = port
        elsewhereHost = fields[1]
        elsewherePort = fields[2]
    }

    deinit { process.stop() }

    /// From now on the server accepts `password` (and only it) for `username`.
    func accept(username: String, password: String) throws {
        try ChildProcess.writeFile(credentialFile, Array("\(username):\(password)".utf8), mode: 0o600)
    }

    /// From now on repository `name` (of `makeRepository`) accepts `password` for `username`
    /// only, and no longer the server's credential: a second account on the same server.
    func accept(username: String, password: String, forRepository name: String) throws {
        try ChildProcess.writeFile(credentialFile + "." + name, Array("\(username):\(password)".utf8), mode: 0o600)
    }

    /// The access tokens the OAuth server minted, oldest first, and the sign-ins it saw.
    var tokensMinted: [String] { Output(bytes: contents(of: directory + "/tokens") ?? []).lines }
    var signIns: Int { Output(bytes: contents(of: directory + "/sign-ins") ?? []).lines.count }

    /// The decoded bytes of the last Basic credential sent to `/echo`, nil before any.
    var receivedCredential: [UInt8]? { contents(of: recordFile) }

    /// The Authorization header the last request to `/bearer` carried ("" for none), nil before any.
    var receivedAuthorization: String? { contents(of: recordFile + ".authorization").map { String(decoding: $0, as: UTF8.self) } }

    /// The header blocks of every request that reached the listeners behind the redirects.
    var requestsElsewhere: String { String(decoding: contents(of: elsewhereRecordFile) ?? [], as: UTF8.self) }

    /// What the server logged (each request, each 401 and why, git http-backend's stderr).
    var log: String { String(decoding: contents(of: logFile) ?? [], as: UTF8.self) }

    /// Git identity for commits made in tests.
    static let gitIdentity = ["GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
                              "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com"]

    /// A bare repository `name.git` served under /git/, holding one commit on main.
    func makeRepository(_ name: String) throws {
        let repository = gitRoot + "/\(name).git", work = directory + "/work-\(name)"
        for arguments in [["init", "--quiet", "--bare", "--initial-branch=main", repository],
                          ["init", "--quiet", "--initial-branch=main", work],
                          ["-C", work, "commit", "--quiet", "--allow-empty", "--message=initial"],
                          ["-C", work, "push", "--quiet", repository, "main"]] {
            let result = try sandbox.git(arguments, environment: Self.gitIdentity)
            guard result.exitCode == 0 else { throw SpawnError(description: "git \(arguments): \(result)") }
        }
    }

    /// The subjects of the commits on main of repository `name`, newest first.
    func commitSubjects(_ name: String) throws -> [String] {
        try sandbox.git(["-C", gitRoot + "/\(name).git", "log", "--format=%s", "main"]).stdoutLines
    }
}
