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

    /// The key's values, in order, each with the scope that sets it (`system`, `global`,
    /// `local`, `worktree`, `command`).
    func scopedValues() throws -> [(scope: String, value: String)] {
        let result = try Self.git(["config", "-z", "--show-scope"] + (scope.map { [$0] } ?? []) + ["--get-all", key])
        if result.status == 1 { return [] }
        try Self.check(result, doing: "read \(key)")
        // Each value is its scope, NUL, the value, NUL.
        let fields = result.outputText.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
        return stride(from: 0, to: fields.count - 1, by: 2).map { (fields[$0], fields[$0 + 1]) }
    }

    /// The credential.helper lines of git's configuration, from one run of git (a
    /// management command and each TAB pays for it): the one reader of them.
    public struct HelperLines: Equatable, Sendable {
        /// Every `credential.helper` value, in order, reset lines (empty values) included.
        public var general: [String]
        /// Every `credential.<url>.helper` value, in order.
        public var forURLs: [String]

        /// The lines git runs: the general ones after the last reset line, then those for
        /// one URL (they count as much: git uses them there).
        public var active: [String] { Self.afterLastReset(general, value: { $0 }) + forURLs }

        /// Every line that runs something, those a reset stops too.
        public var all: [String] { (general + forURLs).filter { !$0.isEmpty } }

        /// `values` after the last empty one: git's reset of the helper list.
        static func afterLastReset<Entry>(_ values: [Entry], value: (Entry) -> String) -> [Entry] {
            Array(values.lastIndex { value($0).isEmpty }.map { values[($0 + 1)...] } ?? values[...])
        }

        /// git config -z --get-regexp's output: each entry the key, a newline, the value, NUL.
        init(parsing output: String) {
            general = []
            forURLs = []
            for entry in output.split(separator: "\0") {
                guard let newline = entry.firstIndex(of: "\n") else { continue }
                let value = String(entry[entry.index(after: newline)...])
                if entry[..<newline].lowercased() == "credential.helper" { general.append(value) } else { forURLs.append(value) }
            }
        }

        init(general: [String], forURLs: [String]) {
            self.general = general
            self.forURLs = forURLs
        }
    }

    public static func helperLines() throws -> HelperLines {
        let result = try git(["config", "-z", "--get-regexp", #"^credential\.(.+\.)?helper$"#])
        if result.status == 1 { return HelperLines(general: [], forURLs: []) }
        try check(result, doing: "read credential.helper")
        return HelperLines(parsing: result.outputText)
    }

    /// Every `credential.<url>.helper` value, with its scope and the key that holds it.
    static func helpersForURLs() throws -> [(scope: String, key: String, value: String)] {
        let result = try git(["config", "-z", "--show-scope", "--get-regexp", #"^credential\..+\.helper$"#])
        if result.status == 1 { return [] }
        try check(result, doing: "read credential.<url>.helper")
        // Each entry is its scope, NUL, the key, a newline, the value, NUL.
        let fields = result.outputText.split(separator: "\0", omittingEmptySubsequences: false).dropLast()
        return stride(from: 0, to: fields.count - 1, by: 2).compactMap { index in
            let entry = fields[fields.startIndex + index + 1]
            guard let newline = entry.firstIndex(of: "\n") else { return nil }
            return (String(fields[fields.startIndex + index]), String(entry[..<newline]), String(entry[entry.index(after: newline)...]))
        }
    }

    /// Sets the key's values in this scope to `values`, in order.
    func replace(_ old: [String], with values: [String]) throws {
        let scope = self.scope.map { [$0] } ?? []
        if !old.isEmpty { try Self.check(try Self.git(["config"] + scope + ["--unset-all", key]), doing: "change \(key)") }
        for value in values {
            try Self.check(try Self.git(["config"] + scope + ["--add", key, value]), doing: "change \(key)")
        }
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
