import Foundation
import Testing

/// completions/ in the real shells (bash with bash-completion, zsh, fish), loaded the way
/// each shell finds an installed script: every executable's commands and options, stored
/// hosts for `list` and `erase` (never a secret), and credential-curl completing as curl.
@Suite struct CompletionTests {
    let sandbox: Sandbox
    let completion: ShellCompletion

    init() throws {
        sandbox = try Sandbox()
        completion = try ShellCompletion.ofSourceTree(in: sandbox)
    }

    /// Every credential helper (packaging/programs).
    static let helpers = ProgramTable.helpers

    static var shellsAndHelpers: [(Shell, String)] { Shell.allCases.flatMap { shell in helpers.map { (shell, $0) } } }

    /// Every subcommand --help lists is offered after the executable's name.
    @Test(arguments: shellsAndHelpers)
    func everySubcommandIsOffered(shell: Shell, helper: String) throws {
        let help = try sandbox.run(BuiltProducts.directory + "/" + helper, ["--help"])
        let subcommands = HelpText(help.stdoutText).subcommands
        #expect(subcommands.count >= 6, "\(help)")
        let (candidates, run) = try completion.candidates(shell, [helper, ""])
        #expect(Set(subcommands).isSubset(of: candidates), "\(shell) offers \(candidates) for \(helper): \(run)")
    }

    /// What an executable prints for `--generate-completion-script SHELL` (what a user
    /// sources by hand) is the script installed and tested here, which inserts stored names
    /// literally, never the argument parser's own, whose bash script runs a stored `$(...)`.
    @Test(arguments: shellsAndHelpers + Shell.allCases.map { ($0, "basic-auth-header") })
    func theGeneratedScriptIsTheSafeOne(shell: Shell, helper: String) throws {
        let installed = try String(contentsOfFile: shell.sourceDirectory + "/" + (shell == .zsh ? "_" : "") + helper
                                   + (shell == .fish ? ".fish" : ""), encoding: .utf8)
        for arguments in [["--generate-completion-script", shell.rawValue], ["--generate-completion-script=" + shell.rawValue]] {
            let printed = try sandbox.run(BuiltProducts.directory + "/" + helper, arguments)
            #expect(printed.exitCode == 0 && printed.stdoutText == installed, "\(helper) \(arguments) prints another script: \(printed.stderrText)")
            #expect(!printed.stdoutText.contains("-W \"$("), "\(helper) \(arguments)")
        }
    }

    @Test(arguments: Shell.allCases)
    func optionsAreOffered(shell: Shell) throws {
        let (sqlite, run) = try completion.candidates(shell, ["git-credential-sqlite", "list", "--k"])
        #expect(sqlite == ["--key-file"], "\(run)")
        let (header, headerRun) = try completion.candidates(shell, ["basic-auth-header", "--c"])
        #expect(header == ["--curl-config"], "\(headerRun)")
    }

    /// File names after every option that takes a path (--db, --key-file, -o/--output) and
    /// for import's files, whichever command they follow.
    @Test(arguments: Shell.allCases)
    func fileNamesAreOfferedForPaths(shell: Shell) throws {
        try sandbox.file("home/creds-store.db", "")
        for words in [["git-credential-sqlite", "--db", "creds-"], ["git-credential-sqlite", "list", "--db", "creds-"],
                      ["git-credential-sqlite", "doctor", "--key-file", "creds-"], ["git-credential-keyring", "erase", "--key-file", "creds-"],
                      ["git-credential-sqlite", "export", "-o", "creds-"], ["git-credential-secretservice", "import", "creds-"]] {
            let (candidates, run) = try completion.candidates(shell, words)
            #expect(candidates == ["creds-store.db"], "\(shell) offers \(candidates) after \(words.joined(separator: " ")): \(run)")
        }
    }

    /// A port begun after the host completes in every shell (bash offers what follows the
    /// colon, which it replaces: see hostAndPortCompleteInBash for what the line becomes).
    @Test(arguments: Shell.allCases)
    func hostAndPortComplete(shell: Shell) throws {
        try storeCredentials()
        let (candidates, run) = try completion.candidates(shell, ["git-credential-sqlite", "erase", "127.0.0.1:84"])
        let unescaped = candidates.map { $0.replacingOccurrences(of: "\\:", with: ":") }
        #expect(unescaped == [shell == .bash ? "8443" : "127.0.0.1:8443"], "\(shell) offers \(candidates): \(run)")
    }

    /// bash splits the word being completed at the colon of host:port: TAB after a port
    /// begun completes the stored host:port, once, in an interactive bash.
    @Test func hostAndPortCompleteInBash() throws {
        try storeCredentials()
        for (typed, completed) in [("list 127.0.0.1:84", "list 127.0.0.1:8443"), ("erase 127.0.0.1:", "erase 127.0.0.1:8443"),
                                   ("list 127.0.0.", "list 127.0.0.1:8443"), ("list git.ex", "list git.example.com")] {
            let (line, run) = try completion.interactiveBash(typing: "git-credential-sqlite " + typed)
            #expect(line == "git-credential-sqlite " + completed, "TAB after \(typed): \(run)")
        }
        // After a colon too, a stored name is inserted as it is, and runs nothing (only a
        // port may follow a host's last colon: a name that list reads back as itself).
        try sandbox.sqlite().storeAll(wire("protocol=https", "host=x:$(touch pwned-dollar):8443", "username=u", "password=p"))
        let (line, run) = try completion.interactiveBash(typing: "git-credential-sqlite list x:")
        #expect(line == "git-credential-sqlite list x:$(touch pwned-dollar):8443", "\(run)")
        #expect(pwned.isEmpty, "completing after a colon ran a stored name: \(run)")
    }

    /// The curl options credential-curl passes on (as it lists them), never one it refuses.
    @Test(arguments: Shell.allCases)
    func credentialCurlCompletesTheOptionsItPassesOn(shell: Shell) throws {
        let (silent, run) = try completion.candidates(shell, ["credential-curl", "--sil"])
        #expect(silent == ["--silent"], "\(run)")
        let (location, locationRun) = try completion.candidates(shell, ["credential-curl", "--location"])
        #expect(location == ["--location"], "--location-trusted offered: \(locationRun)")
        let (verbose, verboseRun) = try completion.candidates(shell, ["credential-curl", "--verb"])
        #expect(verbose.isEmpty, "\(verboseRun)")
    }

    // MARK: Stored hosts

    static let stored = [
        (host: "git.example.com", username: "alice", password: "pw-alice-\(UUID().uuidString)"),
        (host: "github.com", username: "bob", password: "pw-bob-\(UUID().uuidString)"),
        (host: "127.0.0.1:8443", username: "carol", password: "pw-carol-\(UUID().uuidString)"),
    ]

    func storeCredentials() throws {
        let helper = sandbox.sqlite()
        for credential in Self.stored {
            try helper.storeAll(wire("protocol=https", "host=\(credential.host)", "username=\(credential.username)",
                                     "password=\(credential.password)"))
        }
    }

    /// The hosts stored with git-credential-sqlite are offered for `list` and `erase`;
    /// no password appears anywhere in what the shell printed.
    @Test(arguments: Shell.allCases, ["list", "erase"])
    func storedHostsAreOfferedAndSecretsNever(shell: Shell, command: String) throws {
        try storeCredentials()
        let (candidates, run) = try completion.candidates(shell, ["git-credential-sqlite", command, ""])
        let hosts = Self.stored.map(\.host)
        // zsh and bash may offer a host:port with the colon escaped.
        let unescaped = candidates.map { $0.replacingOccurrences(of: "\\:", with: ":") }
        #expect(Set(hosts).isSubset(of: unescaped), "\(shell) offers \(candidates) after \(command): \(run)")
        for credential in Self.stored {
            #expect(!run.stdout.bytes.containsUTF8(credential.password) && !run.stderr.bytes.containsUTF8(credential.password),
                    "\(shell) completion showed a password: \(run)")
        }
        let (narrowed, narrowedRun) = try completion.candidates(shell, ["git-credential-sqlite", command, "git"])
        #expect(narrowed.sorted() == ["git.example.com", "github.com"], "\(narrowedRun)")
    }

    /// Stored hosts are anyone's text (an imported file, another program's keyring item).
    /// What a shell inserts for one, read back by that shell, is the stored name, and
    /// completing runs nothing: bash's compgen -W used to run the $(...) and backquotes of
    /// a stored name at TAB, and bash's quoting of file names leaves `$` and backquotes
    /// for Enter to run, and zsh's quoting left `!` to history expansion at Enter.
    static let literalHosts = ["$(touch pwned-dollar)", "`touch pwned-backquote`", "x;touch pwned-semicolon", "*",
                               "two words", #"q'uo"te"#, "$HOME", #"back\slash"#, "a:8443", "~root", "=ls",
                               "x!!", "{a,b}"]
    /// Left out: no shell inserts them as they are (a tab splits fish's candidate from its
    /// description), or they would not read back as themselves (a bidirectional override,
    /// a zero-width space), or they would be read as an option.
    static let leftOutHosts = ["tab\there", "rlo\u{202E}moc.elgoog", "zero\u{200B}width", "-leading"]

    @Test(arguments: Shell.allCases)
    func hostileStoredHostsAreOfferedLiterallyAndRunNothing(shell: Shell) throws {
        let helper = sandbox.sqlite()
        for (index, host) in (Self.literalHosts + Self.leftOutHosts).enumerated() {
            try helper.storeAll(wire("protocol=https", "host=\(host)", "username=u\(index)", "password=p\(index)"))
        }
        let (candidates, run) = try completion.candidates(shell, ["git-credential-sqlite", "list", ""])
        #expect(pwned.isEmpty, "\(shell) ran a stored name (\(pwned)): \(run)")
        let offered = try readBack(shell, candidates)
        #expect(pwned.isEmpty, "what \(shell) inserts runs a stored name (\(pwned)): \(candidates)")
        for host in Self.literalHosts {
            #expect(offered.contains(host), "\(shell) does not insert \(host.debugDescription) as it is: \(offered) from \(candidates) \(run)")
        }
        // History expansion happens at Enter, after the line is read: reading back cannot show it.
        #expect(shell == .fish || candidates.contains(#"x\!\!"#), "\(shell) leaves x!! to history expansion: \(candidates)")
        for host in Self.leftOutHosts {
            #expect(!candidates.contains { $0.hasPrefix(host.prefix(3)) }, "\(shell) offers \(host.debugDescription): \(run)")
        }
        let (narrowed, narrowedRun) = try completion.candidates(shell, ["git-credential-sqlite", "erase", "two"])
        #expect(try readBack(shell, narrowed) == ["two words"], "\(narrowedRun)")
        #expect(pwned.isEmpty, "\(shell) ran a stored name (\(pwned)): \(narrowedRun)")
    }

    /// Only a host that list and erase read back as that very host (HostOrURL) is offered:
    /// not one with a `/` (read as a path), an `@` (a user), a `%41` (a decoded byte), or
    /// what is no port after its last colon (refused). The others are offered beside them.
    static let unreadableHosts = ["slash.example/org", "alice@at.example", "pct%41.example", "k1.test:99999", "k2.test:0",
                                  "k3.test:0443", "inv.test:abc", ":8443", "hash.example#x", "query.example?x"]

    @Test(arguments: Shell.allCases)
    func onlyHostsThatReadBackAsThemselvesAreOffered(shell: Shell) throws {
        let helper = sandbox.sqlite()
        for (index, host) in (Self.unreadableHosts + ["fine.example", "fine.example:8443"]).enumerated() {
            try helper.storeAll(wire("protocol=https", "host=\(host)", "username=u\(index)", "password=p\(index)"))
        }
        let (candidates, run) = try completion.candidates(shell, ["git-credential-sqlite", "erase", ""])
        let offered = try readBack(shell, candidates)
        #expect(offered.sorted() == ["fine.example", "fine.example:8443"], "\(shell) offers \(offered) from \(candidates): \(run)")
        for host in Self.unreadableHosts {
            let listed = try helper("list", host)
            #expect(listed.exitCode == 2 || !listed.stdoutText.contains(" \(host) "),
                    "list \(host) would select that very host after all: \(listed)")
        }
    }

    /// A store that cannot be read now (its key file moved away) offers no hosts: nothing,
    /// not an empty name that bash would insert as `''`.
    @Test(arguments: Shell.allCases)
    func anUnreadableStoreOffersNothing(shell: Shell) throws {
        let helper = sandbox.sqlite()
        try helper.storeAll(wire("protocol=https", "host=a.example", "username=u", "password=p"))
        try FileManager.default.moveItem(atPath: sandbox.keyFile, toPath: sandbox.keyFile + ".away")
        let (candidates, run) = try completion.candidates(shell, ["git-credential-sqlite", "erase", ""])
        #expect(candidates.isEmpty, "\(shell) offers \(candidates) for an unreadable store: \(run)")
    }

    /// Another program's keyring item can hold what git's wire format cannot: a newline,
    /// which would make two candidates of one name (`evil` and a look-alike on the next
    /// line). Such a name is left out; the others are offered as they are, running nothing.
    @Test(arguments: Shell.allCases)
    func hostileKeyringItemsAreOfferedLiterallyOrLeftOut(shell: Shell) throws {
        // A keyring of its own: the shared one, busy with every other test, once answered
        // too late under CI's load, and holds their names too.
        let world = try KeyringWorld(in: sandbox), session = world.session
        let tool = world.secretTool
        let dollar = "$(touch pwned-dollar).test", newline = "line\n$(touch pwned-newline).test"
        for host in [dollar, newline] {
            try tool.store(label: "Git: https://\(host)/", secret: "p", schema: "org.git.Password",
                           ["protocol": "https", "server": host, "user": "alice"])
        }
        let (candidates, run) = try completion.candidates(shell, ["git-credential-secretservice", "list", ""],
                                                          environment: session.bus.environment)
        let ran = ["dollar", "newline"].filter { fileExists(sandbox.home + "/pwned-" + $0) }
        #expect(ran.isEmpty, "\(shell) ran a stored name (\(ran)): \(run)")
        let offered = try readBack(shell, candidates, in: sandbox)
        #expect(offered.contains(dollar), "\(shell) does not insert \(dollar.debugDescription) as it is: \(candidates) \(run)")
        #expect(offered.allSatisfy { $0 == dollar }, "\(shell) offers a piece of a name: \(offered)")
    }

    /// New-user finding (stop 20): `erase <Tab>` froze the shell for 5 s on a keyring of
    /// thousands of items (now: as long as gnome-keyring takes to describe them all). A
    /// completion that cannot answer within 2 s offers nothing; here, a keyring that never answers.
    @Test func aCompletionThatCannotAnswerSoonOffersNothing() throws {
        let bus = try PrivateSessionBus(sandbox: sandbox, services: .none)
        try bus.startKeyring()
        bus.freezeKeyring()
        let start = Date()
        let (candidates, run) = try completion.candidates(.bash, ["git-credential-secretservice", "erase", ""], environment: bus.bus.environment)
        let took = Date().timeIntervalSince(start)
        #expect(candidates.isEmpty && took < 4.5, "took \(took) s: \(candidates) \(run)")
    }

    /// The stored names' commands that ran.
    var pwned: [String] { ["dollar", "backquote", "semicolon"].filter { fileExists(sandbox.home + "/pwned-" + $0) } }

    /// The words the shell reads from `candidates` as it inserts them on a command line
    /// (bash and zsh show them quoted for it; fish shows them as they are, and quotes
    /// them when it inserts them).
    func readBack(_ shell: Shell, _ candidates: [String], in sandbox: Sandbox? = nil) throws -> [String] {
        if shell == .fish || candidates.isEmpty { return candidates }
        let sandbox = sandbox ?? self.sandbox
        let script = (shell == .bash ? "printf '%s\\n' " : "print -rl -- ") + candidates.joined(separator: " ")
        let result = try sandbox.run(Sandbox.which(shell.rawValue) ?? "/usr/bin/" + shell.rawValue,
                                     (shell == .zsh ? ["-f"] : []) + ["-c", script], environment: ["HOME": sandbox.home])
        #expect(result.exitCode == 0, "\(result)")
        return result.stdoutLines
    }

    /// Nothing stored: nothing offered, and completing creates no store.
    @Test(arguments: Shell.allCases)
    func noStoreNoHostsAndNothingCreated(shell: Shell) throws {
        let (candidates, run) = try completion.candidates(shell, ["git-credential-sqlite", "list", ""])
        #expect(!candidates.contains { $0.contains(".") }, "\(run)")
        #expect(!fileExists(sandbox.databaseDirectory), "completion created the database directory")
        #expect(!fileExists(sandbox.keyDirectory), "completion created the key directory")
    }
}

/// The parts of an argument-parser --help text that tests walk.
struct HelpText {
    let text: String
    init(_ text: String) { self.text = text }

    /// The names in the SUBCOMMANDS section: the first word of each line indented by two
    /// spaces (wrapped abstracts are indented further).
    var subcommands: [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        return lines[(start + 1)...]
            .prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }
}
