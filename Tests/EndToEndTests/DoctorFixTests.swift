import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every warning and FAIL of git-credential-sqlite's doctor whose cause a command can
/// remove: made, doctor run, the Fix doctor printed run as printed (by sh, the programs
/// on PATH as installed), doctor run again: nothing is left to warn about. (Before: a
/// ~/.netrc with a `default` entry got `import --remove-source`, which keeps such a file,
/// and doctor gave the same Fix again; several Fixes were a command with prose after it,
/// "(it resets the list)", which the shell cannot run.)
///
/// Not here, because their Fix is a change to the environment a shell sets, not a
/// command: PATH not finding the program, PATH finding another copy, and PATH entries
/// the helpers skip. Nor the FAILs no command can mend (git does not run, a damaged
/// store: "restore it from a backup", a round trip that fails: "report this as a bug").
@Suite struct DoctorFixTests {
    enum Condition: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case notConfigured = "no credential.helper line names sqlite"
        case anotherHelperFirst = "another helper's line comes first"
        case plaintextHelperToo = "git-credential-store runs too, with a ~/.git-credentials"
        case programGone = "the line runs a program that is gone"
        case onlyOnThisPath = "a short name found on this PATH only"
        case noOptions = "a line without the options of the store checked"
        case anotherCopy = "the line runs another copy of the program"
        case replaceableHelper = "another helper's program is under /tmp"
        case plaintextFile = "a ~/.git-credentials"
        case netrc = "a ~/.netrc"
        case netrcWithDefault = "a ~/.netrc with a default entry"
        case storeDirectoryMode = "the store's directory is 0755"
        case keyFileMode = "the key file is 0644"
        case lockedPassphraseStore = "a passphrase store, locked"
        case plaintextHelperAfterAStorePerURL = "git-credential-store runs too, beside a store per URL (configure --url)"
        case replaceableHelperIncluded = "another helper's program is under /tmp, twice in an include.path file"
        case plaintextHelperFromEnvironment = "git-credential-store runs too, from GIT_CONFIG_COUNT"

        var testDescription: String { rawValue }

        /// The verdict and subject of doctor's line for it.
        var line: String {
            switch self {
            case .notConfigured: "FAIL  git config:"
            case .anotherHelperFirst, .plaintextHelperToo, .plaintextHelperFromEnvironment, .plaintextHelperAfterAStorePerURL: "warn  git config:"
            case .programGone, .replaceableHelper, .replaceableHelperIncluded: "FAIL  helper:"
            case .onlyOnThisPath, .noOptions, .anotherCopy: "warn  helper:"
            case .plaintextFile: "warn  plaintext:"
            case .netrc, .netrcWithDefault: "warn  netrc:"
            case .storeDirectoryMode: "warn  store directory:"
            case .keyFileMode: "FAIL  key file:"
            case .lockedPassphraseStore: "warn  key:"
            }
        }
    }

    let sandbox: Sandbox
    init() throws { sandbox = try Sandbox() }

    /// As after `make install`: the programs first on PATH.
    var onPath: [String: String] { ["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath] }
    let phrase = "a passphrase long enough"

    func git(_ arguments: String...) throws { expectSuccess(try sandbox.git(arguments)) }

    func doctor(_ extra: [String: String] = [:]) throws -> ProcessResult {
        try sandbox.run(BuiltProducts.sqliteHelper, ["doctor"], environment: onPath.merging(extra) { $1 })
    }

    /// A line given in the environment (scope `command`): its Fix unsets the variables, and
    /// doctor run without them is what follows it.
    static let workURL = "https://u.example/work.git"
    static let fromEnvironment = ["GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "credential.helper", "GIT_CONFIG_VALUE_0": "store"]

    /// A person's askpass, typing the passphrase: in a directory of the user's own.
    func askpass() throws -> String {
        let program = try sandbox.ownDirectory() + "/askpass"
        try ChildProcess.writeFile(program, Array("#!/bin/sh\necho '\(phrase)'\n".utf8), mode: 0o700)
        return program
    }

    func make(_ condition: Condition) throws {
        let sqlite = sandbox.sqlite().with(environment: onPath)
        if condition != .notConfigured { expectSuccess(try sqlite.run(["configure"]).withoutStderr) }
        let ours = try sandbox.git(["config", "--global", "--get-all", "credential.helper"]).stdoutLines.last ?? ""
        let credential = wire("protocol=https", "host=a.example", "username=alice", "password=pa")
        switch condition {
        case .notConfigured: break
        case .anotherHelperFirst:
            try git("config", "--global", "--unset-all", "credential.helper")
            try git("config", "--global", "--add", "credential.helper", "!true")
            try git("config", "--global", "--add", "credential.helper", ours)
        case .plaintextHelperToo:
            try git("config", "--global", "--add", "credential.helper", "store")
            try sandbox.file("home/.git-credentials", "https://bob:pb@b.example\n")
        case .programGone:
            try git("config", "--global", "--replace-all", "credential.helper", "/nonexistent/git-credential-sqlite")
        case .onlyOnThisPath:
            try git("config", "--global", "--replace-all", "credential.helper", "sqlite")
        case .noOptions:
            try git("config", "--global", "--replace-all", "credential.helper", BuiltProducts.sqliteHelper)
        case .anotherCopy:
            let copy = try sandbox.ownDirectory() + "/git-credential-sqlite"
            try FileManager.default.linkItem(atPath: BuiltProducts.directory + "/credential-helpers", toPath: copy)
            try git("config", "--global", "--replace-all", "credential.helper", ours.replacingOccurrences(of: BuiltProducts.sqliteHelper, with: copy))
        case .replaceableHelper:
            let other = sandbox.root + "/tmp-install/git-credential-other"
            try sandbox.file("tmp-install/git-credential-other", "#!/bin/sh\n", mode: 0o755)
            try git("config", "--global", "--add", "credential.helper", other)
        case .plaintextHelperAfterAStorePerURL:
            let perURL = try sqlite.run(["configure", "--url", Self.workURL, "--db", sandbox.root + "/work/credentials.db"])
            #expect(perURL.exitCode == 0, "configure --url: \(perURL)")
            try git("config", "--global", "--add", "credential.helper", "store")
            try sandbox.file("home/.git-credentials", "https://bob:pb@b.example\n")
        case .replaceableHelperIncluded:
            let other = sandbox.root + "/tmp-install/git-credential-other"
            try sandbox.file("tmp-install/git-credential-other", "#!/bin/sh\n", mode: 0o755)
            // Twice: a Fix of `--unset` (not `--unset-all`) then exits 5 and removes nothing.
            let included = try sandbox.file("home/included.gitconfig", Array("[credential]\n\thelper = \(other)\n\thelper = \(other)\n".utf8))
            try git("config", "--global", "--add", "include.path", included)
        case .plaintextHelperFromEnvironment:
            try sandbox.file("home/.git-credentials", "https://bob:pb@b.example\n")
        case .plaintextFile:
            try sandbox.file("home/.git-credentials", "https://bob:pb@b.example\n")
        case .netrc:
            try sandbox.file("home/.netrc", "machine b.example login bob password pb\n")
        case .netrcWithDefault:
            try sandbox.file("home/.netrc", "machine b.example login bob password pb\ndefault login anonymous password guest\n")
        case .storeDirectoryMode:
            try sqlite.storeAll(credential)
            #expect(chmod(sandbox.databaseDirectory, 0o755) == 0)
        case .keyFileMode:
            try sqlite.storeAll(credential)
            #expect(chmod(sandbox.keyFile, 0o644) == 0)
        case .lockedPassphraseStore:
            let file = try sandbox.file("secrets/phrase", phrase + "\n")
            let created = try sqlite.with(passphraseFile: file).initPassphrase()
            #expect(created.exitCode == 0, "\(created)")
            try sqlite.with(passphraseFile: file).storeAll(credential)
        }
    }

    @Test(arguments: Condition.allCases)
    func followingTheFixMakesTheWarningGoAway(condition: Condition) throws {
        let clean = try doctor()
        #expect(clean.exitCode == 1 && clean.stdoutLines.filter { $0.hasPrefix("warn") || $0.hasPrefix("FAIL") }.count == 1, "before: \(clean)")
        try make(condition)
        let environment = condition == .plaintextHelperFromEnvironment ? Self.fromEnvironment : [:]
        let before = try doctor(environment)
        let warning = try #require(before.stdoutLines.first { $0.hasPrefix(condition.line) }, "no \(condition.line) line: \(before)")
        let fix = String(warning[try #require(warning.range(of: ". Fix: ")).upperBound...])
        if condition == .plaintextHelperFromEnvironment {
            // Said as what it is, and the Fix drops it from the environment (doctor without it).
            #expect(warning.contains("(from the environment: git -c, or GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n)")
                    && fix == "unset GIT_CONFIG_COUNT GIT_CONFIG_PARAMETERS", "\(warning)")
            // ~/.git-credentials is still there: its own warning, with its own Fix.
            let after = try doctor()
            #expect(!after.stdoutLines.contains { $0.hasPrefix(condition.line) }, "without the variables: \(after)")
            return
        }
        let ran = try sandbox.run("/bin/sh", ["-c", fix], environment: onPath.merging(["GIT_ASKPASS": try askpass()]) { $1 })
        #expect(ran.exitCode == 0, "the Fix \(fix) failed: \(ran)")
        let after = try doctor()
        #expect(!after.stdoutLines.contains { $0.hasPrefix(condition.line) }, "after \(fix): \(after)")
        // A store per URL is another store than the one checked: doctor says so (and how to
        // check that one), which is the URL's line at work, not a warning left.
        let otherStore = "for \(Self.workURL), so the store checked here is not the one git uses"
        #expect(after.exitCode == 0 && !after.stdoutLines.contains { ($0.hasPrefix("warn") || $0.hasPrefix("FAIL")) && !$0.contains(otherStore) }, "after \(fix): \(after)")
        if condition == .lockedPassphraseStore { _ = try sandbox.sqlite()("lock") }
        if condition == .plaintextHelperAfterAStorePerURL {
            // The Fix's configure wrote a general reset after the URL's pair: git must still
            // run the URL's store there (it ran only the general one).
            let fill = try sandbox.git(["credential", "fill"], input: Array("url=\(Self.workURL)\n\n".utf8), environment: ["GIT_TRACE": "1"])
            #expect(fill.stderrLines.contains { $0.contains("run_command:") && $0.contains(sandbox.root + "/work/credentials.db") }, "git credential fill: \(fill)")
        }
    }
}
