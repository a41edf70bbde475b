import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// The files git's plaintext helper, git-credential-store, uses when given none, found
/// as it finds them: ~/.git-credentials, and $XDG_CONFIG_HOME/git/credentials (~/.config
/// without the variable). import reads them by default; configure and doctor point them
/// out with the import line that moves them into the store.
public enum PlaintextFiles {
    /// Without HOME, git has no ~ and leaves those out; so do we (not /.git-credentials).
    public static var all: [String] {
        let home = SystemIO.environment("HOME")
        let config = SystemIO.environment("XDG_CONFIG_HOME") ?? home.map { $0 + "/.config" }
        return [home.map { $0 + "/.git-credentials" }, config.map { $0 + "/git/credentials" }].compactMap { $0 }
    }

    public static var existing: [String] { all.filter { access($0, F_OK) == 0 } }

    /// The files a `store` helper line writes: its --file, else the default ones, those that exist.
    static func files(of line: HelperLine) -> [String] {
        var words = line.arguments[...]
        while let word = words.popFirst() {
            if word == "--file", let file = words.first { return access(file, F_OK) == 0 ? [file] : [] }
            if word.hasPrefix("--file=") { let file = String(word.dropFirst(7)); return access(file, F_OK) == 0 ? [file] : [] }
        }
        return existing
    }

    /// The existing files that may hold something (an empty one holds nothing; one that
    /// cannot be examined may), joined for a message, and the command that imports them
    /// into this helper's store, with its store options, and wipes them.
    static func importLine(_ name: String, arguments: [String], files candidates: [String] = existing,
                           removingSource: Bool = true) -> (files: String, count: Int, command: String)? {
        let files = candidates.filter { path in
            var info = stat()
            return stat(path, &info) != 0 || info.st_size > 0
        }
        guard !files.isEmpty else { return nil }
        let command = ([HelperLine.invocation(name), "import"] + arguments.map(ShellWord.quoted) + (removingSource ? ["--remove-source"] : [])
            + files.map(ShellWord.quoted)).joined(separator: " ")
        return (files.joined(separator: " and "), files.count, command)
    }
}
