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
        return GitConfig(scope: "--" + scope.rawValue, key: url.map { "credential.\($0).helper" } ?? "credential.helper")
    }

    /// For messages: the URL as Trace.quoted writes outside data.
    var place: String { "\(scope.rawValue) git configuration" + (url.map { " for \(Trace.quoted($0))" } ?? "") }
}

/// How git config names this helper: by its short name when git will find this very
/// program on PATH as git-credential-NAME, else by its full path.
enum HelperName {
    static func value(_ name: String) -> String {
        let here = Subprocess.currentExecutable
        if let found = Subprocess.which("git-credential-" + name), Subprocess.realPath(found) == here { return name }
        guard let here else { return name }
        // git runs a helper given by absolute path through the shell: a path with anything
        // but plainly safe characters (an allow-list: a deny-list forgot TAB, where git's
        // shell split it) is single-quoted, behind `!`, since git takes a value that does
        // not start with `/` for a helper's short name.
        return here.unicodeScalars.allSatisfy(isShellSafe) ? here : "!'" + here.replacingQuotes() + "'"
    }

    /// The program of a helper value as git's shell reads it: a path configure quoted
    /// is still ours. Blanks end the word; quotes and backslashes group.
    static func firstWord(_ value: String) -> String {
        var word = ""
        var quote: Character?
        var escaped = false
        for character in value {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "\\" {
                escaped = true
            } else if character == " " || character == "\t" || character == "\n" {
                if !word.isEmpty { return word }
            } else {
                word.append(character)
            }
        }
        return word
    }

    /// Characters no shell gives a meaning to in a word.
    static func isShellSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "/", ".", "_", "-", "+", ",", ":", "@", "%", "=": true
        default: false
        }
    }

    /// Whether a credential.helper value runs this helper, with or without options.
    static func isOurs(_ value: String, name: String) -> Bool {
        let program = firstWord(value.hasPrefix("!") ? String(value.dropFirst()) : value)
        return program == name || program.hasSuffix("/git-credential-" + name) || program == "git-credential-" + name
    }
}

extension String {
    func replacingQuotes() -> String { split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") }
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
                or given credentials. Running it again changes nothing.

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
        let values = try config.values()
        if values.count >= 2, values[values.count - 2].isEmpty, HelperName.isOurs(values[values.count - 1], name: name),
           !values.dropLast().contains(where: { HelperName.isOurs($0, name: name) }) {
            return SystemIO.writeAll(2, "already configured: \(Trace.quoted(config.key)) is \(Trace.quoted(values.last!)) in the \(target.place)\n")
        }
        let value = HelperName.value(name)
        try config.replace(values, with: values.filter { !HelperName.isOurs($0, name: name) } + ["", value])
        let earlier = values.filter { !$0.isEmpty && !HelperName.isOurs($0, name: name) }
        let reset = earlier.isEmpty ? "" : " after a reset line, so earlier helpers no longer run (\(earlier.map(Trace.quoted).joined(separator: ", ")))"
        SystemIO.writeAll(2, "configured: \(Trace.quoted(config.key)) = \(Trace.quoted(value)) in the \(target.place)\(reset)\n")
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
        guard values.contains(where: { HelperName.isOurs($0, name: name) }) else {
            return SystemIO.writeAll(2, "not configured: \(Trace.quoted(config.key)) does not name \(name) in the \(target.place)\n")
        }
        var kept: [String] = []
        for value in values {
            if HelperName.isOurs(value, name: name) {
                if kept.last == "" { kept.removeLast() }
            } else {
                kept.append(value)
            }
        }
        try config.replace(values, with: kept)
        SystemIO.writeAll(2, "unconfigured: \(Trace.quoted(config.key)) no longer names \(name) in the \(target.place)\n")
    }
}
