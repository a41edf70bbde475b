import Foundation
import Testing

/// `make uninstall` says what it leaves behind for the user running it, as it is now: the
/// default SQLite store and its key file, git's items in the Secret Service, the git config
/// lines naming a helper; each with a command that removes it, which does.
@Suite struct UninstallReportTests: InKeyringWorld {
    let world: KeyringWorld
    var prefix: String { sandbox.root + "/prefix" }
    var systemConfig: String { sandbox.root + "/etc-gitconfig" }

    static let executables = ["git-credential-sqlite", "git-credential-secretservice", "git-credential-keyring", "basic-auth-header"]

    /// The sandbox's environment, its own system git configuration and the session bus.
    var environment: [String: String] {
        session.bus.environment.merging(["GIT_CONFIG_NOSYSTEM": "0", "GIT_CONFIG_SYSTEM": systemConfig]) { $1 }
    }

    /// An installation under PREFIX: the built programs, linked into PREFIX/bin.
    func install() throws {
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        for executable in Self.executables {
            try FileManager.default.createSymbolicLink(atPath: prefix + "/bin/" + executable, withDestinationPath: BuiltProducts.directory + "/" + executable)
        }
    }

    func uninstall() throws -> ProcessResult {
        try sandbox.run(Sandbox.which("make") ?? "/usr/bin/make", ["--no-print-directory", "-C", SourceTree.root, "uninstall", "PREFIX=\(prefix)"],
                        environment: environment, timeout: 60)
    }

    /// What the report said, without make's own echo of the rm line.
    func report(_ result: ProcessResult) -> [String] { result.stdoutLines.filter { !$0.hasPrefix("rm -f ") && !$0.hasPrefix("\t") } }

    func run(_ helper: String, _ arguments: [String], input: [UInt8] = []) throws -> ProcessResult {
        try sandbox.run(BuiltProducts.directory + "/" + helper, arguments, input: input, environment: environment)
    }

    @Test func nothingLeftSaysNothing() throws {
        try install()
        // Another program's helper line is not ours to report.
        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", "store"], environment: environment))
        let result = try uninstall()
        #expect(result.exitCode == 0 && result.stderr.isEmpty && report(result).isEmpty, "\(result)")
        #expect(!fileExists(prefix + "/bin/git-credential-sqlite"))
    }

    /// Attack finding: a line break in a helper line's value moved the text after it into
    /// the printed "Remove it:" command, which then ran it when pasted.
    @Test func aLineBreakInAValuePutsNothingInTheCommand() throws {
        try install()
        expectSuccess(try sandbox.git(["config", "--global", "credential.helper", "sqlite\n; touch /tmp/PWNED ;"], environment: environment))
        let result = try uninstall()
        let lines = report(result).filter { $0.contains("Remove it:") }
        #expect(result.exitCode == 0 && lines.count == 1, "\(result)")
        for line in lines {
            let command = line[try #require(line.range(of: ". Remove it: ")).upperBound...]
            #expect(command == "git-credential-sqlite unconfigure --global", "\(line)")
        }
    }

    @Test func whatIsLeftIsToldWithTheCommandsThatRemoveIt() throws {
        try install()
        let credential = wire("protocol=https", "host=example.com", "username=alice", "password=alice-pw")
        #expect(try sandbox.run(BuiltProducts.sqliteHelper, ["store"], input: credential, environment: environment).exitCode == 0)
        let secretService = SecretServiceHelper(sandbox: sandbox, bus: session.bus)
        try secretService.storeAll(credential, wire("protocol=https", "host=example.org", "username=bob", "password=bob-pw"))
        // A store of its own for one URL, named on its line.
        let other = sandbox.root + "/other store/credentials.db"
        #expect(try run("git-credential-sqlite", ["--db", other, "store"], input: credential).exitCode == 0)
        for (helper, arguments) in [("git-credential-sqlite", ["configure"]), ("git-credential-keyring", ["configure", "--url", "https://git.example.com/team x"]),
                                    ("git-credential-sqlite", ["--db", other, "configure", "--url", "https://other.example"]),
                                    ("git-credential-secretservice", ["configure", "--system"])] {
            #expect(try run(helper, arguments).exitCode == 0)
        }
        // Lines written by hand: a short name, and a quoted path with a blank behind "!".
        for (key, value) in [("credential.helper", "sqlite"), ("credential.https://x.example.helper", "!'/opt/my tools/git-credential-keyring' --db /x")] {
            expectSuccess(try sandbox.git(["config", "--global", "--add", key, value], environment: environment))
        }
        let bin = BuiltProducts.directory, database = sandbox.database, keyFile = sandbox.keyFile
        let store = "--db \(database) --key-file \(keyFile)"

        let result = try uninstall()
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        #expect(report(result) == [
            "make uninstall leaves behind, for \(String(cString: getpwuid(geteuid()).pointee.pw_name)) (\(sandbox.home)):",
            "  the SQLite store \(database). Erase its credentials: git-credential-sqlite \(store) erase-all; remove its files: rm -- \(database) \(database)-wal \(database)-shm",
            "  the SQLite store '\(other)'. Erase its credentials: git-credential-sqlite --db '\(other)' --key-file \(keyFile) erase-all; remove its files: rm -- '\(other)' '\(other)-wal' '\(other)-shm'",
            "  the SQLite store's key file \(keyFile). Remove it: shred -u -- \(keyFile) \(keyFile).stores",
            "  2 credential(s) in the Secret Service (git's items, which git-credential-libsecret reads too). Erase them: git-credential-secretservice erase-all",
            "  git config --global: credential.helper = \(bin)/git-credential-sqlite \(store). Remove it: git-credential-sqlite unconfigure --global",
            "  git config --global: credential.helper = sqlite. Remove it: git-credential-sqlite unconfigure --global",
            "  git config --global: credential.https://git.example.com/team x.helper = \(bin)/git-credential-keyring \(store). Remove it: git-credential-keyring unconfigure --global --url 'https://git.example.com/team x'",
            "  git config --global: credential.https://other.example.helper = \(bin)/git-credential-sqlite --db '\(other)' --key-file \(keyFile). Remove it: git-credential-sqlite unconfigure --global --url https://other.example",
            "  git config --global: credential.https://x.example.helper = !'/opt/my tools/git-credential-keyring' --db /x. Remove it: git-credential-keyring unconfigure --global --url https://x.example",
            "  git config --system: credential.helper = \(bin)/git-credential-secretservice. Remove it: git-credential-secretservice unconfigure --system",
            "(make install again first to run the git-credential commands; they are removed now)",
        ], "\(report(result).joined(separator: "\n"))")
        #expect(Self.executables.allSatisfy { !fileExists(prefix + "/bin/" + $0) }, "the programs were not removed")

        // Each command given removes what it is given for: then nothing is left to tell.
        for line in report(result).dropFirst().dropLast() {
            let command = try #require(line.range(of: ". Remove it: ") ?? line.range(of: ". Erase them: ") ?? line.range(of: ". Erase its credentials: "))
            for part in line[command.upperBound...].components(separatedBy: "; remove its files: ") {
                let words = try #require(ShellWords.split(part), "\(part)")
                let program = words[0].hasPrefix("git-credential-") ? BuiltProducts.directory + "/" + words[0] : Sandbox.which(words[0]) ?? words[0]
                let removed = try sandbox.run(program, Array(words.dropFirst()) + (words.contains("erase-all") ? ["--yes"] : []), environment: environment)
                #expect(removed.exitCode == 0, "\(part): \(removed)")
            }
        }
        try install()
        let again = try uninstall()
        #expect(again.exitCode == 0 && report(again).isEmpty, "\(again)")
    }
}

/// Words of a simple shell command as the report writes them: separated by spaces, each
/// perhaps in single quotes.
enum ShellWords {
    static func split(_ text: String) -> [String]? {
        var words: [String] = [], current = "", inQuotes = false, started = false
        for character in text {
            if inQuotes {
                if character == "'" { inQuotes = false } else { current.append(character) }
            } else if character == "'" {
                inQuotes = true; started = true
            } else if character == " " {
                if started { words.append(current); current = ""; started = false }
            } else {
                current.append(character); started = true
            }
        }
        if inQuotes { return nil }
        if started { words.append(current) }
        return words
    }
}
