import ArgumentParser
import CredentialCore

/// Where configure and unconfigure write: git's scopes, and optionally one URL.
struct ConfigScope: ParsableArguments {
    enum Scope: String, EnumerableFlag {
        case global, system, local
        static func help(for value: Scope) -> ArgumentHelp? {
            switch value {
            case .global: "Your own git configuration (~/.gitconfig); the default."
            case .system: "Every user's (/etc/gitconfig; needs root)."
            case .local: "The current repository's."
            }
        }
    }

    @Flag var scope: Scope = .global
    @Option(help: ArgumentHelp("Only for this URL (credential.<url>.helper), e.g. https://github.com.", valueName: "url"))
    var url: String?

    /// A URL with a password is refused: the key would hold the password, in clear, in the
    /// git configuration and in git config's command line. git matches credential.<url>
    /// without the password, so the same URL without it configures the same.
    func config() throws -> GitConfig {
        if let url, Trace.redactingURLPasswords(url) != url {
            throw HelperError(.usage, "the URL given to --url holds a password, which would be kept in clear in the git configuration",
                              fix: "give the URL without it (https://alice@example.com), or no --url")
        }
        return GitConfig(scope: "--" + scope.rawValue, key: url.map { "credential.\(Self.normalized($0)).helper" } ?? "credential.helper")
    }

    /// The URL as configure and unconfigure both write and look for it: without trailing
    /// slashes, which git's URL matching ignores (`https://ex.com/other/` covers what
    /// `https://ex.com/other` does), so that either spelling finds the line of the other.
    static func normalized(_ url: String) -> String {
        var url = Substring(url)
        while url.hasSuffix("/") && !url.hasSuffix("://") { url = url.dropLast() }
        return String(url)
    }

    /// For messages: the URL as Trace.quoted writes outside data.
    var place: String { "\(scope.rawValue) git configuration" + (url.map { " for \(Trace.quoted($0))" } ?? "") }
}

public struct ConfigureCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "configure",
            abstract: "Make git use this helper (writes credential.helper).",
            discussion: """
                Appends an empty credential.helper line and then this helper, so helpers \
                configured before (a plaintext git-credential-store, say) are no longer asked \
                or given credentials. The helper is written by the full path of this program, \
                so that git finds it whatever PATH git runs with (cron, systemd, an IDE), with \
                the store options given, if any (paths made absolute), quoted for git's \
                shell. A path others could put their program at (under /tmp) is refused. Its \
                own line, or the pair configure wrote for another of these helpers, is \
                replaced, and it says so; running it again changes nothing. A plaintext ~/.git-credentials or \
                $XDG_CONFIG_HOME/git/credentials is pointed out, with the import command that \
                moves it into the store.

                Examples:
                  git-credential-\(name) configure
                  git-credential-\(name) configure --url https://github.com
                  sudo git-credential-\(name) configure --system
                """)
    }

    @OptionGroup var options: Options
    @OptionGroup var target: ConfigScope

    public func run() throws {
        let name = Options.Settings.helperName
        let config = try target.config()
        let arguments = try options.settings.helperArguments()
        try options.settings.checkStorePlace()
        let line = try HelperLine.forThisProgram(name, arguments: arguments).value
        let values = try config.values()
        let (others, theirs) = Self.removingSuitePairs(Self.removingOurs(values, name: name))
        if others + ["", line] == values {
            SystemIO.writeAll(2, "already configured: \(Trace.quoted(config.key)) is \(Trace.quoted(line)) in the \(target.place)\n")
        } else {
            // Ours anywhere, and the reset+helper pairs configure wrote for the suite's
            // other helpers: the reset stops them anyway, and kept they pile up, one pair
            // per configure (sqlite, then pass, then keyring, then sqlite: four pairs).
            let replaced = values.filter { HelperLine(parsing: $0).runs(name) } + theirs
            let before = target.url == nil ? try? GitConfig.helperLines() : nil
            try config.replace(values, with: others + ["", line])
            let earlier = others.filter { !$0.isEmpty }
            let reset = earlier.isEmpty ? "" : " after a reset line, so earlier helpers no longer run (\(earlier.map(Trace.quoted).joined(separator: ", ")))"
            // The lines the reset stops, and those replaced by one with another store.
            var notes: [(value: String, text: String)] = []
            for value in earlier + replaced.filter({ $0 != line }) {
                if let note = try Self.strandedStore(of: value, settings: options.settings, arguments: arguments) { notes.append((value, note)) }
            }
            // A replaced line of another helper: what its store holds, which git no longer
            // reads, and the command that moves it (unless a note above gives one).
            // import without options follows git's line, now this one: the line's own options suffice.
            let shown = replaced.filter { $0 != line }.map { value in
                Trace.quoted(value) + (OtherStores.replaced(value, by: name, ownArguments: arguments.map(ShellWord.quoted),
                                                            moving: !notes.contains { $0.value == value }).map { " (\($0))" } ?? "")
            }
            // The same line elsewhere in the list (other helpers after it) is moved, not replaced.
            SystemIO.writeAll(2, replaced.allSatisfy { $0 == line }
                ? "configured: \(Trace.quoted(config.key)) = \(Trace.quoted(line)) in the \(target.place)\(reset)\n"
                : Trace.printable("replaced \(shown.joined(separator: ", ")) with \(Trace.quoted(line)) as \(Trace.quoted(config.key)) in the \(target.place)\(reset)") + "\n")
            for note in notes { SystemIO.writeAll(2, note.text + "\n") }
            if let before { try Self.keepingURLLines(before, scope: target.scope.rawValue) }
        }
        if let warning = options.settings.configureWarning() { SystemIO.writeAll(2, Trace.printable("warning: " + warning) + "\n") }
        if let move = PlaintextFiles.importLine(name, arguments: arguments) {
            let (verb, pronoun) = move.count == 1 ? ("holds", "it") : ("hold", "them")
            SystemIO.writeAll(2, Trace.printable("note: \(move.files) \(verb) credentials in clear; to move them into the store and wipe \(pronoun): \(move.command)") + "\n")
        }
    }

    /// git builds one list per request from credential.helper and the matching
    /// credential.<url>.helper lines, in config order, a reset clearing all before it: the
    /// general pair just written stops the URL lines before it. A URL section of the same
    /// file holding one of the suite's helpers (configure --url wrote it) is moved after
    /// the pair, so it keeps working; any other URL line the reset stopped is said, one
    /// line per URL.
    static func keepingURLLines(_ before: GitConfig.HelperLines, scope: String) throws {
        let helpers = Programs.all.compactMap(\.helperName)
        func stopped(_ now: GitConfig.HelperLines) -> [(url: String, lines: [GitConfig.HelperLines.Entry])] {
            before.byURL.map { url, lines in
                let running = now.running(for: url)
                return (url, lines.filter { old in !old.isGeneral && !running.contains { $0.key == old.key && $0.value == old.value } })
            }.filter { !$0.lines.isEmpty }
        }
        var now = try GitConfig.helperLines()
        let ours = stopped(now).filter { _, lines in
            lines.contains { $0.scope == scope && helpers.contains(where: HelperLine(parsing: $0.value).runs) }
        }
        // One left in place (a bare boolean key in its section) is said below, as stopped.
        for (url, _) in ours where try GitConfig.moveSectionToEnd("credential." + url, scope: "--" + scope) {
            SystemIO.writeAll(2, "moved credential.\(Trace.quoted(url)).helper after the new line, so that git still asks it for \(Trace.quoted(url))\n")
        }
        if !ours.isEmpty { now = try GitConfig.helperLines() }
        for (url, lines) in stopped(now) {
            let scopes = Set(lines.map(\.scope)).sorted().joined(separator: " and ")
            SystemIO.writeAll(2, Trace.printable("note: git no longer asks \(lines.map { Trace.quoted($0.value) }.joined(separator: ", ")) for \(Trace.quoted(url)): its credential.<url>.helper line in the \(scopes) configuration comes before the reset line just written in the \(scope) one") + "\n")
        }
    }

    /// A line of these helpers that the reset stops or the new line replaces, whose
    /// credentials the new line does not read: another SQLite store (sqlite, keyring), or
    /// the desktop keyring (secretservice, keyring) for sqlite. The command that copies
    /// them names both stores explicitly (management commands otherwise follow git's line,
    /// which now names the new one). keyring reads the other SQLite store through the
    /// sqlite helper, named by its variables; sqlite pipes its own export of it into import.
    static func strandedStore(of value: String, settings: Options.Settings, arguments: [String]) throws -> String? {
        let name = Options.Settings.helperName
        let line = HelperLine(parsing: value)
        // Where each line's helper keeps credentials (Programs): a SQLite store and the desktop keyring are what can be stranded.
        guard !Options.Settings.storeOptionNames.isEmpty, let own = Programs.helper(name)?.keeps,
              let other = Programs.all.first(where: { $0.helperName.map(line.runs) == true && !$0.keeps.contains(.passwordStore) })?.keeps
        else { return nil }
        let ownArguments = try settings.explicitStoreArguments().map(ShellWord.quoted)
        var stores: [String] = []
        var commands: [String] = []
        if other.contains(.sqliteFile), let previous = Options.Settings(gitArguments: line.arguments[...]),
           previous.storeArguments != Options.Settings(gitArguments: arguments[...])?.storeArguments,
           let sqlite = Programs.helper(keepingOnly: .sqliteFile) {
            let theirs = try previous.storeInUse()
            stores.append(previous.storeArguments.isEmpty ? "the default SQLite store" : ShellWord.command(previous.storeArguments))
            if own == [.sqliteFile] {
                let program = HelperLine.invocation(name)
                commands.append(([program, "export"] + OptionPairs.words(theirs).map(ShellWord.quoted) + ["--plaintext", "--format", "protocol", "|", program, "import"] + ownArguments + ["/dev/stdin"]).joined(separator: " "))
            } else {
                let variables = theirs.compactMap { option in option.value.map { option.variable + "=" + ShellWord.quoted($0) } }
                commands.append((variables + [HelperLine.invocation(name), "import", "--from", sqlite] + ownArguments).joined(separator: " "))
            }
        }
        if other.contains(.desktopKeyring) && !own.contains(.desktopKeyring), let keyring = Programs.helper(keepingOnly: .desktopKeyring) {
            stores.append("the desktop keyring")
            commands.append(([HelperLine.invocation(name), "import", "--from", keyring] + ownArguments).joined(separator: " "))
        }
        guard !stores.isEmpty else { return nil }
        return Trace.printable("note: this line does not read the credentials that \(Trace.quoted(value)) keeps in \(stores.joined(separator: " and ")); to copy them over: \(commands.joined(separator: "; "))")
    }

    /// The values without the pairs configure writes for the suite's helpers (a reset
    /// line, then a line running one of them): a line of theirs written by hand, with no
    /// reset before it, stays as the person wrote it.
    /// Returns what is kept, and the helper lines removed.
    static func removingSuitePairs(_ values: [String]) -> (kept: [String], removed: [String]) {
        let helpers = Programs.all.compactMap(\.helperName)
        var kept: [String] = []
        var removed: [String] = []
        for value in values {
            let line = HelperLine(parsing: value)
            if kept.last == "", helpers.contains(where: line.runs) {
                kept.removeLast()
                removed.append(value)
            } else {
                kept.append(value)
            }
        }
        return (kept, removed)
    }

    /// The values without this helper's lines, and without the reset line configure put
    /// before each: what is left is the other helpers' lines, as they were.
    static func removingOurs(_ values: [String], name: String) -> [String] {
        var kept: [String] = []
        for value in values {
            if HelperLine(parsing: value).runs(name) {
                if kept.last == "" { kept.removeLast() }
            } else {
                kept.append(value)
            }
        }
        return kept
    }
}

public struct UnconfigureCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "unconfigure",
            abstract: "Stop git using this helper (removes what configure wrote).",
            discussion: """
                Removes this helper's credential.helper lines and the empty line configure \
                put before each, so earlier helpers run again. Stored credentials stay \
                (erase-all removes them). Running it again changes nothing.

                Examples:
                  git-credential-\(name) unconfigure
                  git-credential-\(name) unconfigure --url https://github.com
                """)
    }

    @OptionGroup var options: Options
    @OptionGroup var target: ConfigScope

    public func run() throws {
        let name = Options.Settings.helperName
        let config = try target.config()
        let values = try config.values()
        guard values.contains(where: { HelperLine(parsing: $0).runs(name) }) else {
            return SystemIO.writeAll(2, "not configured: \(Trace.quoted(config.key)) does not name \(name) in the \(target.place)\n")
        }
        try config.replace(values, with: ConfigureCommand<Options>.removingOurs(values, name: name))
        SystemIO.writeAll(2, "unconfigured: \(Trace.quoted(config.key)) no longer names \(name) in the \(target.place)\n")
    }
}
