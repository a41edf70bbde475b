import CredentialCore

/// git's configuration, read and written by running git itself: it knows where each
/// scope's file is, how to quote, and how to write atomically.
public struct GitConfig {
    /// `--global`, `--system` or `--local`; `nil` for what git uses (every scope, in order).
    let scope: String?
    /// `credential.helper`, or `credential.<url>.helper` for one URL.
    let key: String

    /// The key's values in this scope, in order.
    func values() throws -> [String] {
        // -z: each value ends in NUL, so a value holding a newline (a quoted path) stays one.
        let result = try Self.git(["config", "-z"] + (scope.map { [$0] } ?? []) + ["--get-all", key])
        // Exit 1: the key is not set. Anything else git said is an error.
        if result.status == 1 { return [] }
        try Self.check(result, doing: "read \(key)")
        return result.outputText.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The credential.helper lines of git's configuration, from one run of git (a
    /// management command and each TAB pays for it): the one reader of them.
    public struct HelperLines: Equatable, Sendable {
        /// One line: the scope that sets it (`system`, `global`, `local`, `worktree`,
        /// `command`), its key (`credential.helper`, `credential.<url>.helper`), its value.
        public struct Entry: Equatable, Sendable {
            public var scope: String
            public var key: String
            public var value: String
            /// Where git read it (`git config --show-origin`): `file:PATH` (an include.path
            /// file's own path too), `command line:` for git -c and GIT_CONFIG_COUNT.
            public var origin: String = ""
            /// `credential.helper` itself, not one for a URL.
            public var isGeneral: Bool { key.lowercased() == "credential.helper" }
        }

        /// Every line, in git's order.
        public var entries: [Entry]

        /// The `credential.helper` lines git runs, with their scopes: those after the last
        /// reset line (an empty value).
        public var activeGeneral: [Entry] { Self.afterLastReset(entries.filter(\.isGeneral), value: \.value) }

        /// The `credential.<url>.helper` lines, with their scopes.
        public var forURLs: [Entry] { entries.filter { !$0.isGeneral } }

        /// The lines git runs: the general ones after the last reset line, then those for
        /// one URL (they count as much: git uses them there).
        public var active: [String] { (activeGeneral + forURLs).map(\.value) }

        /// Each URL of a `credential.<url>.helper` key, in git's order, with the lines git
        /// runs for a request for it (`running(for:)`).
        public var byURL: [(url: String, lines: [Entry])] {
            var urls: [String] = []
            for entry in forURLs where !urls.contains(Self.url(of: entry.key)) { urls.append(Self.url(of: entry.key)) }
            return urls.map { ($0, running(for: $0)) }
        }

        /// The lines git runs for a request for `url` (credential.c credential_apply_config):
        /// one list built in config order from credential.helper and every
        /// credential.<pattern>.helper whose pattern matches the URL (URLPattern), an empty
        /// value clearing the list so far, whichever key it is under. So a general reset
        /// written after a URL's lines clears them too.
        public func running(for url: String) -> [Entry] {
            var list: [Entry] = []
            for entry in entries where entry.isGeneral || URLPattern.matches(Self.url(of: entry.key), url) {
                if entry.value.isEmpty { list.removeAll() } else { list.append(entry) }
            }
            return list
        }

        /// `credential.URL.helper`'s URL (git lowercases the section and the name, not the URL).
        static func url(of key: String) -> String { String(key.dropFirst("credential.".count).dropLast(".helper".count)) }

        /// Every line that runs something, those a reset stops too.
        public var all: [String] { entries.map(\.value).filter { !$0.isEmpty } }

        /// `values` after the last empty one: git's reset of the helper list.
        static func afterLastReset<Line>(_ values: [Line], value: (Line) -> String) -> [Line] {
            Array(values.lastIndex { value($0).isEmpty }.map { values[($0 + 1)...] } ?? values[...])
        }

        /// git config -z --show-scope --show-origin --get-regexp's output: each line its
        /// scope, NUL, its origin, NUL, the key, a newline, the value, NUL (a value may hold
        /// a newline).
        init(parsing output: String) {
            let fields = output.split(separator: "\0", omittingEmptySubsequences: false).dropLast()
            entries = stride(from: 0, to: fields.count - 2, by: 3).compactMap { index in
                let entry = fields[fields.startIndex + index + 2]
                guard let newline = entry.firstIndex(of: "\n") else { return nil }
                return Entry(scope: String(fields[fields.startIndex + index]), key: String(entry[..<newline]),
                             value: String(entry[entry.index(after: newline)...]), origin: String(fields[fields.startIndex + index + 1]))
            }
        }

        init(entries: [Entry]) { self.entries = entries }
    }

    /// `outsideAnyRepository`: the lines git's credential commands run outside any
    /// repository see (credential-curl's), not those of the repository we are in.
    public static func helperLines(outsideAnyRepository: Bool = false) throws -> HelperLines {
        let arguments = ["config", "-z", "--show-scope", "--show-origin", "--get-regexp", #"^credential\.(.+\.)?helper$"#]
        let result: Subprocess.Result
        if outsideAnyRepository {
            guard let outside = runOutsideAnyRepository(arguments) else {
                throw HelperError(.failure, "cannot run git: \(SystemIO.errorText())", fix: "install git (apt-get install git)")
            }
            result = outside
        } else {
            result = try git(arguments)
        }
        if result.status == 1 { return HelperLines(entries: []) }
        try check(result, doing: "read credential.helper")
        return HelperLines(parsing: result.outputText)
    }

    /// Sets the key's values in this scope to `values`, in order.
    func replace(_ old: [String], with values: [String]) throws {
        let scope = self.scope.map { [$0] } ?? []
        if !old.isEmpty { try Self.check(try Self.git(["config"] + scope + ["--unset-all", key]), doing: "change \(key)") }
        for value in values {
            try Self.check(try Self.git(["config"] + scope + ["--add", key, value]), doing: "change \(key)")
        }
    }

    /// Moves every `section` of this scope's file after all else (removed, then its keys
    /// added back in order): git reads a file top to bottom, so its lines now come last.
    /// False when nothing was moved (a section with a bare boolean key is left as it is).
    @discardableResult
    static func moveSectionToEnd(_ section: String, scope: String) throws -> Bool {
        let listed = try git(["config", "-z", scope, "--list"])
        try check(listed, doing: "read \(section)")
        // Each entry is the key, a newline and the value; a key without a value (a bare
        // boolean) has no newline, and --add cannot write it back: such a section is left.
        let keys: [(String, String?)] = listed.outputText.split(separator: "\0").compactMap { entry in
            let newline = entry.firstIndex(of: "\n")
            let key = String(entry[..<(newline ?? entry.endIndex)])
            // git lowercases the section and the name, not the subsection (the URL).
            guard let dot = key.lastIndex(of: "."), key[..<dot].lowercased() == section.lowercased(),
                  key[..<dot].dropFirst("credential.".count) == section.dropFirst("credential.".count) else { return nil }
            return (key, newline.map { String(entry[$0...].dropFirst()) })
        }
        guard !keys.isEmpty, keys.allSatisfy({ $0.1 != nil }) else { return false }
        try check(try git(["config", scope, "--remove-section", section]), doing: "move \(section)")
        for case let (key, value?) in keys { try check(try git(["config", scope, "--add", key, value]), doing: "move \(section)") }
        return true
    }

    /// git run outside any repository: the configuration of a repository (the .git/config
    /// of the directory we were started in, an untrusted checkout, or a hook's GIT_DIR)
    /// could name a helper that would be handed the credential. The global and system
    /// configuration, and the caller's `git -c`, apply. `nil` when git cannot run.
    /// `environment` and `timeoutSeconds`: as Subprocess.run takes them.
    public static func runOutsideAnyRepository(_ arguments: [String], input: [UInt8]? = nil, collectErrors: Bool = true,
                                               environment: [String: String?] = [:], timeoutSeconds: Double? = nil) -> Subprocess.Result? {
        let outside: [String: String?] = ["GIT_DIR": nil, "GIT_WORK_TREE": nil, "GIT_COMMON_DIR": nil, "GIT_INDEX_FILE": nil, "GIT_OBJECT_DIRECTORY": nil]
        return Subprocess.run("git", ["-C", "/"] + arguments, input: input, collectErrors: collectErrors,
                              environment: outside.merging(environment) { $1 }, timeoutSeconds: timeoutSeconds)
    }

    /// git's version, major and minor, from `git --version`'s line (0, 0 when unread).
    public static func versionNumbers(of versionText: String) -> (Int, Int) {
        let numbers = versionText.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
        return (numbers.first ?? 0, numbers.dropFirst().first ?? 0)
    }

    /// The version line of the git on PATH, nil when it does not run.
    public static func versionLine() -> String? {
        guard let result = try? git(["--version"]), result.succeeded else { return nil }
        return result.outputText.split(separator: "\n").first.map(String.init)
    }

    static func git(_ arguments: [String]) throws -> Subprocess.Result {
        guard let result = Subprocess.run("git", arguments, input: []) else {
            throw HelperError(.failure, "cannot run git: \(SystemIO.errorText())", fix: "install git (apt-get install git)")
        }
        return result
    }

    static func check(_ result: Subprocess.Result, doing action: String) throws {
        guard result.succeeded else {
            throw HelperError(.failure, "git config could not \(action): \(result.lastErrorLine)",
                              fix: "run it where git can write that configuration (--local needs a repository, --system needs root)")
        }
    }
}
