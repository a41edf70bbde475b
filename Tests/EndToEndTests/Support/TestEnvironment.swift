import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built executables: beside the test binary (SwiftPM puts both in its build
/// directory), unless HELPER_BIN_DIR names another directory. SwiftPM builds the two
/// executables, not the programs' names: `make names` links each name there to its
/// executable (the Makefile's table, as the release build and make install do), anew
/// for every run of the tests (a build replaces the executables' files).
enum BuiltProducts {
    static let directory: String = {
        if let override = ProcessInfo.processInfo.environment["HELPER_BIN_DIR"], !override.isEmpty {
            return override
        }
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let built = (testBinary as NSString).deletingLastPathComponent
        // Where the helpers trust a program (PATH, configure): a copy when the build is not.
        var directory = built
        if TrustedPlace.root != SourceTree.root + "/.build" {
            directory = TrustedPlace.root + "/bin"
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            for executable in ["credential-helpers", "credential-helpers-libsecret"] {
                try? FileManager.default.copyItem(atPath: built + "/" + executable, toPath: directory + "/" + executable)
            }
        }
        // posix_spawn and waitpid (ChildProcess), not Foundation's Process, whose
        // waitUntilExit once never returned after make had exited, hanging the whole run.
        // A failure shows on stderr; every test of a program then fails to start it.
        do {
            let made = try ChildProcess.run("/usr/bin/make", ["--no-print-directory", "-s", "-C", SourceTree.root, "names", "NAMES_DIR=" + directory],
                                            environment: ProcessInfo.processInfo.environment, timeout: 120)
            if made.exitCode != 0 { print("make names failed: \(made)") }
        } catch { print("cannot run make names: \(error)") }
        return directory
    }()

    static var sqliteHelper: String { directory + "/git-credential-sqlite" }
    static var secretServiceHelper: String { directory + "/git-credential-secretservice" }
}

/// A directory where the helpers trust a program (PATH's directories, what configure writes:
/// PrivateFiles.checkProgram): no directory on the way from / that anyone but the user and
/// root can write, sticky or not. The build directory when it is one; a source tree under
/// /tmp (a fresh clone there) is not, and another place serves instead: for root (as CI
/// runs), one under /var/cache, where the other users of the other-user tests can run the
/// programs too (root's HOME is root's alone); for anyone else, one in HOME's .cache.
enum TrustedPlace {
    static let root: String = {
        let build = SourceTree.root + "/.build"
        if isTrusted(build) { return build }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let place = geteuid() == 0 ? "/var/cache/git-credential-helpers-tests" : home + "/.cache/git-credential-helpers-tests"
        try? FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chmod(place, 0o755)
        return place
    }()

    /// Each directory from / to `path` (links followed) the user's or root's, and not
    /// writable by group or others.
    static func isTrusted(_ path: String) -> Bool {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var info = stat()
            guard stat(prefix, &info) == 0, info.st_uid == geteuid() || info.st_uid == 0, info.st_mode & 0o022 == 0 else { return false }
        }
        return true
    }
}

/// One test's private world: a fresh directory serving as HOME, XDG_DATA_HOME and
/// XDG_CONFIG_HOME, and a minimal environment built from nothing (no GIT_ASKPASS or
/// SSH_ASKPASS unless a test adds them). Removed when the test is done with it.
final class Sandbox {
    static let searchPath = "/usr/local/bin:/usr/bin:/bin"

    let root: String
    var home: String { root + "/home" }
    var dataHome: String { root + "/data" }
    var configHome: String { root + "/config" }

    /// Where git-credential-sqlite keeps its files when no option or variable says otherwise.
    var databaseDirectory: String { dataHome + "/git-credential-sqlite" }
    var database: String { databaseDirectory + "/credentials.db" }
    var keyDirectory: String { configHome + "/git-credential-sqlite" }
    var keyFile: String { keyDirectory + "/key" }

    init() throws {
        root = FileManager.default.temporaryDirectory.path + "/e2e-" + UUID().uuidString
        for directory in [root, root + "/home", root + "/data", root + "/config"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
        if let ownDirectoryMade { try? FileManager.default.removeItem(atPath: ownDirectoryMade) }
    }

    /// A directory of the user's own where no one else can write on the way from /, for
    /// a program that git is told to run by its path (configure refuses one under the
    /// sandbox: /tmp above it is writable by all, and once it is emptied anyone could put
    /// a program at the same path). Beside the built programs, which pass the same rule.
    private var ownDirectoryMade: String?
    func ownDirectory() throws -> String {
        if let ownDirectoryMade { return ownDirectoryMade }
        let path = TrustedPlace.root + "/e2e-own/" + (root as NSString).lastPathComponent
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        ownDirectoryMade = path
        return path
    }

    var environment: [String: String] {
        ["PATH": Self.searchPath, "HOME": home, "XDG_DATA_HOME": dataHome, "XDG_CONFIG_HOME": configHome,
         "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "LANG": "C.UTF-8"]
    }

    /// Runs `executable` in the sandbox's home directory with its environment plus `extra`.
    func run(
        _ executable: String, _ arguments: [String], input: [UInt8] = [],
        environment extra: [String: String] = [:], inputFiles: [Int32: String] = [:], directory: String? = nil,
        timeout: Double = 30
    ) throws -> ProcessResult {
        try ChildProcess.run(executable, arguments, stdin: input,
                             environment: environment.merging(extra) { $1 }, inputFiles: inputFiles, directory: directory ?? home,
                             timeout: timeout)
    }

    /// The second user of the other-user tests (nobody), which root becomes through
    /// setpriv: the tests that need one run only as root, as CI runs them.
    static let anotherUser: uid_t = 65534
    static let asAnotherUser = [which("setpriv") ?? "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// Runs `executable` as `anotherUser`, as `run` runs it.
    func runAsAnotherUser(
        _ executable: String, _ arguments: [String], input: [UInt8] = [], environment extra: [String: String] = [:]
    ) throws -> ProcessResult {
        try run(Self.asAnotherUser[0], Array(Self.asAnotherUser.dropFirst()) + [executable] + arguments, input: input, environment: extra)
    }

    /// git, run in the sandbox's home directory (outside any repository).
    func git(_ arguments: [String], input: [UInt8] = [], environment extra: [String: String] = [:]) throws -> ProcessResult {
        try run(Self.which("git") ?? "/usr/bin/git", arguments, input: input, environment: extra)
    }

    /// git-credential-sqlite with its default (XDG) locations, or with `options`.
    func sqlite(_ options: [String] = []) -> SQLiteHelper { SQLiteHelper(sandbox: self, options: options) }

    /// Writes a file (mode 0600 unless told) in the sandbox and returns its path.
    @discardableResult
    func file(_ name: String, _ contents: [UInt8], mode: Int = 0o600) throws -> String {
        let path = root + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try ChildProcess.writeFile(path, contents, mode: mode_t(mode))
        return path
    }

    @discardableResult
    func file(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        try file(name, Array(text.utf8), mode: mode)
    }

    /// The full path of a program on the sandbox's PATH.
    static func which(_ program: String) -> String? {
        searchPath.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A helper executable as tests drive it: arguments (an action last, as git runs it)
/// and a request on stdin.
protocol CredentialHelper {
    /// Runs the helper with its fixed options, then `arguments`.
    func invoke(_ arguments: [String], input: [UInt8]) throws -> ProcessResult
}

extension CredentialHelper {
    /// `helper OPTIONS ARGUMENTS` with `input` on stdin.
    func callAsFunction(_ arguments: String..., input: [UInt8] = []) throws -> ProcessResult {
        try invoke(arguments, input: input)
    }

    func get(_ request: [UInt8]) throws -> ProcessResult { try self("get", input: request) }
    func store(_ credential: [UInt8]) throws -> ProcessResult { try self("store", input: credential) }
    func erase(_ request: [UInt8]) throws -> ProcessResult { try self("erase", input: request) }
    func list() throws -> ProcessResult { try self("list") }

    /// Stores each credential, expecting every store to succeed silently.
    func storeAll(_ credentials: [UInt8]..., sourceLocation: SourceLocation = #_sourceLocation) throws {
        for credential in credentials {
            let result = try store(credential)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "store failed: \(result)", sourceLocation: sourceLocation)
        }
    }

    /// The password a get answers with, or nil when it answers none.
    func password(for request: [UInt8]) throws -> String? { try get(request).attributes["password"] }
}

/// git-credential-sqlite as a test drives it: fixed leading options (`--db X` ...),
/// extra environment and descriptors (a passphrase on fd 3), then an action.
struct SQLiteHelper: CredentialHelper {
    let sandbox: Sandbox
    var options: [String] = []
    var environment: [String: String] = [:]
    var inputFiles: [Int32: String] = [:]

    func invoke(_ arguments: [String], input: [UInt8]) throws -> ProcessResult {
        try run(options + arguments, input: input)
    }

    /// The arguments exactly as given, without the helper's fixed options.
    func run(_ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
        try sandbox.run(BuiltProducts.sqliteHelper, arguments, input: input,
                        environment: environment, inputFiles: inputFiles)
    }

    /// The same helper with the passphrase file open on descriptor `fd`.
    func with(passphraseFile path: String, on fd: Int32 = 3) -> SQLiteHelper {
        var copy = self
        copy.inputFiles[fd] = path
        copy.options += ["--passphrase-fd", String(fd)]
        return copy
    }

    /// scrypt's cost in tests: 2^10, milliseconds, where the default (2^17) takes every
    /// passphrase init, unlock and export a large part of a second and 128 MiB.
    static let lowScryptCost = ["--scrypt-cost", "10"]

    /// `init --passphrase` with this helper's options (its passphrase file: `with(passphraseFile:)`)
    /// and scrypt's cost lowered: how the tests make a passphrase-protected store.
    func initPassphrase() throws -> ProcessResult {
        try run(options + ["init", "--passphrase"] + Self.lowScryptCost)
    }

    func with(environment extra: [String: String]) -> SQLiteHelper {
        var copy = self
        copy.environment.merge(extra) { $1 }
        return copy
    }
}

// MARK: Wire format

/// A request or credential as git writes it: one `key=value` line each, then a blank line.
func wire(_ lines: String...) -> [UInt8] { wire(lines) }
func wire(_ lines: [String]) -> [UInt8] { Array((lines.map { $0 + "\n" }.joined() + "\n").utf8) }

/// Input that breaks the wire format: a credential whose password line is replaced by
/// something no helper may accept.
struct BadInput: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let passwordLine: @Sendable (_ host: String) -> String

    static let secret = "bad-secret"
    static let all = [
        BadInput(testDescription: "line without =") { _ in "password=\(secret)\nno equals sign here" },
        BadInput(testDescription: "NUL") { _ in "password=\(secret)\0tail" },
        BadInput(testDescription: "CR before LF") { _ in "password=\(secret)\r" },
        // What a helper that split lines at CR would read as a second host.
        BadInput(testDescription: "lone CR") { "password=\(secret)\rhost=evil.\($0)" },
        BadInput(testDescription: "65536-byte line") { _ in "password=" + secret + String(repeating: "x", count: 65535 - 9 - secret.count) },
    ]

    /// A credential for `host` (user mallory) with the bad password line.
    func bytes(host: String) -> [UInt8] {
        wire("protocol=https", "host=\(host)", "username=mallory").dropLast() + Array(passwordLine(host).utf8) + [0x0A, 0x0A]
    }
}

// MARK: Files

/// Permission bits of a file or directory (no symlinks followed).
func permissions(of path: String) -> Int? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return Int(info.st_mode & 0o7777)
}

func fileExists(_ path: String) -> Bool { permissions(of: path) != nil }

func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

/// The regular files directly inside `directory`.
func files(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().map { directory + "/" + $0 }
}

extension Array where Element == UInt8 {
    /// Whether the UTF-8 bytes of `text` occur anywhere in these bytes.
    func containsUTF8(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { start in self[start..<start + needle.count].elementsEqual(needle) }
    }
}

// MARK: Expectations

extension Output: CustomTestStringConvertible {
    var testDescription: String { description }
}

/// Exit 0, nothing on stderr.
func expectSuccess(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
}

/// A get that found nothing: exit 0, no output at all (git compares stderr exactly).
func expectSilentMiss(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty,
            "expected a silent miss: \(result)", sourceLocation: sourceLocation)
}

/// Input refused as a protocol violation: exit 2, one line that does not quote the secret, no output.
func expectRejectedInput(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
    expectOneLineFailure(result, exitCode: 2, sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    #expect(!result.stderrText.contains(BadInput.secret), "the error quotes the secret: \(result)", sourceLocation: sourceLocation)
}

/// A failure reported as exactly one line on stderr that contains each of `phrases`;
/// returns whether it was.
@discardableResult
func expectOneLineFailure(
    _ result: ProcessResult, exitCode: Int32? = nil, mentioning phrases: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    var passed = true
    func check(_ condition: Bool, _ comment: @autoclosure () -> String) {
        passed = passed && condition
        #expect(condition, Comment(rawValue: comment()), sourceLocation: sourceLocation)
    }
    if let exitCode {
        check(result.exitCode == exitCode, "\(result)")
    } else {
        check(result.exitCode != nil && result.exitCode != 0, "expected a failure: \(result)")
    }
    check(result.stderrLines.count == 1 && result.stderrText.hasSuffix("\n"), "expected one line on stderr: \(result)")
    for phrase in phrases {
        check(result.stderrText.contains(phrase), "stderr lacks \(phrase.debugDescription): \(result)")
    }
    return passed
}
