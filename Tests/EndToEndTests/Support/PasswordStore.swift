import Foundation
import Testing

extension BuiltProducts {
    static var passHelper: String { directory + "/git-credential-pass" }
}

/// The pass world: a person's pass setup in a sandbox: a throwaway GNUPGHOME with a key made for the test
/// (no passphrase unless asked: a pinentry is slow), a password store initialised for
/// it as a git repository, and a git identity for pass's commits. gpg-agent, which gpg
/// starts on demand with its socket in GNUPGHOME, is killed when the world goes away.
final class PasswordStore {
    let sandbox: Sandbox
    var gnupgHome: String { sandbox.root + "/gnupg" }
    var storeDirectory: String { sandbox.home + "/.password-store" }
    /// The fingerprint of each key made so far.
    private(set) var keys: [String] = []

    /// `initialise`: pass init with a first key, and pass git init.
    /// In `sandbox` when given, else in a new one.
    init(sandbox: Sandbox? = nil, passphrase: String? = nil, initialise: Bool = true) throws {
        let sandbox = try sandbox ?? Sandbox()
        self.sandbox = sandbox
        try FileManager.default.createDirectory(atPath: sandbox.root + "/gnupg", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try sandbox.file("home/.gitconfig", "[user]\n\temail = tester@example.com\n\tname = Tester\n[init]\n\tdefaultBranch = main\n")
        if initialise {
            let key = try makeKey("Tester <tester@example.com>", passphrase: passphrase)
            try expectSuccess(pass(["init", key]))
            try expectSuccess(pass(["git", "init"]))
        }
    }

    deinit {
        _ = try? sandbox.run("/usr/bin/gpgconf", ["--kill", "all"], environment: environment)
    }

    var environment: [String: String] {
        ["GNUPGHOME": gnupgHome, "PASSWORD_STORE_DIR": storeDirectory]
    }

    /// A new key (sign and encrypt, no expiry), trusted ultimately as one's own keys are;
    /// returns its fingerprint.
    @discardableResult
    func makeKey(_ user: String, passphrase: String? = nil) throws -> String {
        let unattended = ["--batch", "--pinentry-mode", "loopback", "--passphrase", passphrase ?? ""]
        try expectSuccess(gpg(unattended + ["--quick-gen-key", user, "ed25519", "cert,sign", "never"]))
        let listing = try gpg(["--batch", "--with-colons", "--list-keys", user]).stdoutLines
        let fingerprint = String(try #require(listing.first { $0.hasPrefix("fpr:") }?.split(separator: ":", omittingEmptySubsequences: false)[9]))
        try expectSuccess(gpg(unattended + ["--quick-add-key", fingerprint, "cv25519", "encr", "never"]))
        keys.append(fingerprint)
        return fingerprint
    }

    /// Imports another person's public key and trusts it fully, as a team member does once.
    func trust(publicKeyOf other: PasswordStore, _ fingerprint: String) throws {
        try importKey(of: other, fingerprint)
        try expectSuccess(gpg(["--batch", "--import-ownertrust"], input: Array("\(fingerprint):6:\n".utf8)))
    }

    /// Imports another person's public key and nothing more: neither signed nor trusted,
    /// as a small team's keys usually are.
    func importKey(of other: PasswordStore, _ fingerprint: String) throws {
        let exported = try other.gpg(["--batch", "--armor", "--export", fingerprint])
        try expectSuccess(gpg(["--batch", "--import"], input: exported.stdout.bytes))
    }

    func gpg(_ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
        try sandbox.run("/usr/bin/gpg", arguments, input: input, environment: environment)
    }

    func pass(_ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
        try sandbox.run("/usr/bin/pass", arguments, input: input, environment: environment)
    }

    /// git-credential-pass in this world.
    var helper: PassHelperProcess { PassHelperProcess(store: self) }

    /// git configured with git-credential-pass (by its full path).
    var git: GitCredential { GitCredential(sandbox: sandbox, helper: BuiltProducts.passHelper, environment: environment) }

    /// The entry names under git/ that `pass` itself sees (the .gpg files).
    func entryNames() -> [String] {
        let root = storeDirectory + "/git"
        let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".gpg") }.map { "git/" + $0.dropLast(4) }.sorted()
    }

    func expectSuccess(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        if result.exitCode != 0 { throw PasswordStoreSetupFailed(description: "\(result)") }
    }
}

struct PasswordStoreSetupFailed: Error, CustomStringConvertible { let description: String }

/// git-credential-pass as a test drives it.
struct PassHelperProcess: CredentialHelper {
    let store: PasswordStore
    var environment: [String: String] = [:]

    func invoke(_ arguments: [String], input: [UInt8]) throws -> ProcessResult {
        try store.sandbox.run(BuiltProducts.passHelper, arguments, input: input,
                              environment: store.environment.merging(environment) { $1 })
    }
}
