import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// A credential.helper value as git runs it (credential.c, credential_do): `!cmd` is
/// run by the shell as it stands, an absolute path too, and anything else is a short
/// name, `NAME args` running `git credential-NAME args`; each through `sh -c` with the
/// action appended. Read and written here only, so that configure, doctor and init read
/// a value as git's shell does.
public struct HelperLine: Equatable, Sendable {
    /// The first shell word: a short name, a program found on PATH, or a path.
    public var program: String
    /// The other shell words: the helper's options.
    public var arguments: [String]
    /// Whether git runs the program as `git credential-PROGRAM` (neither `!` nor a path).
    public var isShortName: Bool

    public init(program: String, arguments: [String]) {
        self.program = program
        self.arguments = arguments
        isShortName = false
    }

    /// A configured value read as git's shell would split it.
    public init(parsing value: String) {
        let command = value.hasPrefix("!") ? String(value.dropFirst()) : value
        let words = Self.words(command)
        program = words.first ?? ""
        arguments = Array(words.dropFirst())
        isShortName = !value.hasPrefix("!") && !value.hasPrefix("/")
    }

    /// Whether the value runs git-credential-NAME, with or without options: by its
    /// short name, on PATH, or by a path ending in it.
    public func runs(_ name: String) -> Bool {
        isShortName ? program == name : program == "git-credential-" + name || program.hasSuffix("/git-credential-" + name)
    }

    /// The value for git config. An absolute path with only plainly safe characters is
    /// written as it is (git takes a value starting with `/` as a path); any other is
    /// single-quoted behind `!`, since git takes a value that does not start with `/` or
    /// `!` for a short name. Each argument is quoted the same way.
    public var value: String {
        let head = isShortName || (program.hasPrefix("/") && Self.isPlain(program)) ? program : "!" + Self.quoted(program)
        return ([head] + arguments.map(Self.quoted)).joined(separator: " ")
    }

    /// The shell words of `command` as sh splits them: blanks end a word, single quotes
    /// keep everything, double quotes keep all but `\` before `$`, `` ` ``, `"`, `\` and a
    /// line break, and a backslash outside quotes keeps the next character. Expansions
    /// are kept as written (a helper value with one is not ours to rewrite anyway).
    public static func words(_ command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in command {
            if escaped {
                // Inside double quotes a backslash stays unless it escapes one of these;
                // before a line break it joins lines.
                if quote == "\"" && !"$`\"\\\n".contains(character) { word.append("\\") }
                if character != "\n" { word.append(character) }
                escaped = false
            } else if quote == "'" {
                if character == "'" { quote = nil } else { word.append(character) }
            } else if quote == "\"" {
                if character == "\"" {
                    quote = nil
                } else if character == "\\" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " || character == "\t" || character == "\n" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// A word as git's shell reads it back unchanged (ShellWord, which quotes every Fix line too).
    public static func quoted(_ word: String) -> String { ShellWord.quotedForScript(word) }

    static func isPlain(_ word: String) -> Bool { ShellWord.isPlain(word) }

    /// The line configure writes for this program: its absolute path, so that git finds
    /// it whatever PATH git runs with (cron, systemd, an IDE). The path PATH leads to
    /// when that is this very file (a package's /usr/bin, or a link a package manager
    /// moves to each new version on upgrade), else the file itself (a build directory).
    /// Refused when someone else could put their program at that path (`whyUnsafeToRun`).
    public static func forThisProgram(_ name: String, arguments: [String]) throws(HelperError) -> HelperLine {
        let program = thisProgram(name) ?? "git-credential-" + name
        if program.contains("/"), let why = whyUnsafeToRun(program) {
            throw HelperError(.failure, "git would run \(program), which others could replace: \(why)", fix: unsafeProgramFix)
        }
        return HelperLine(program: program, arguments: arguments)
    }

    /// Why git must not be told to run `path`, or `nil`: git hands that program every
    /// credential, so no one but us and root may be able to put theirs there
    /// (PrivateFiles.checkProgram: a copy under /tmp is anyone's once /tmp is emptied).
    public static func whyUnsafeToRun(_ path: String) -> String? {
        do throws(HelperError) { try PrivateFiles.checkProgram(path) } catch { return error.message }
        return nil
    }

    public static let unsafeProgramFix = "install the helpers where only you and root can write (make install, the .deb, or a copy in ~/.local/bin), and run configure from there"

    /// PATH's link only when only we and root can change what it runs: a link someone else
    /// made, in a directory they can write, leads to us today and to their program
    /// tomorrow, which git would then give every credential.
    static func thisProgram(_ name: String) -> String? {
        let here = Subprocess.currentExecutable
        // which takes only what checkProgram accepts (whyUnsafeToRun's rule).
        if let found = Subprocess.which("git-credential-" + name), here == nil || Subprocess.realPath(found) == here {
            return found
        }
        return here
    }

    /// How a person runs this program, for a fix to type: by name when PATH leads here.
    public static func invocation(_ name: String) -> String {
        let program = "git-credential-" + name
        if let found = Subprocess.which(program), Subprocess.realPath(found) == Subprocess.currentExecutable { return program }
        return Subprocess.currentExecutable.map(ShellWord.quoted) ?? program
    }
}
