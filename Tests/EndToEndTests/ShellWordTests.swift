import CredentialCore
import Foundation
import Testing

/// Every path in a Fix line goes through ShellWord, for a person to paste into their
/// shell, whichever it is: each shell must read the word back as exactly itself, and run
/// nothing. (An attacker's finding: fish reads `\'` inside single quotes, so a directory
/// named `a\'; touch PWNED #` made a pasted `chmod go-w '…'` run `touch`.)
@Suite struct ShellWordTests {
    static let hostile = ["a\\'; touch PWNED #", "ends in a backslash\\", "it's", "a b", "$(touch PWNED)", "`touch PWNED`",
                          "\\\\", "'", "", "tab\there", "new\nline", "-\u{1B}[31m%s\u{202E}'\\", "semi;colon&amp|pipe", "!bang", "~/tilde", "*glob?"]

    @Test(arguments: ["sh", "bash", "zsh", "fish"])
    func eachShellReadsTheWordBackAsItself(shell: String) throws {
        let sandbox = try Sandbox()
        // For a person (a control character as printf's octal) and for git's shell (as it is).
        for (word, quoted) in Self.hostile.flatMap({ [($0, ShellWord.quoted($0)), ($0, ShellWord.quotedForScript($0))] }) {
            let result = try sandbox.run(try #require(Sandbox.which(shell), "\(shell) is not installed"),
                                         ["-c", "printf '%s|' " + quoted])
            #expect(result.exitCode == 0 && result.stdoutText == word + "|", "\(shell): \(word.debugDescription) as \(quoted): \(result)")
            #expect(!fileExists(sandbox.home + "/PWNED"), "\(shell) ran a command in \(quoted)")
        }
    }
}

/// A command a person is told to run, read back by each shell from the line that prints it:
/// the command begins with its first word and ends somewhere before the line does (prose
/// may follow), so each end at a word's boundary is tried; one must give exactly `words`,
/// and none may run anything (a hostile name's `touch INJECTED`).
enum ShellReadBack {
    /// `beginning`: the command is the line's start (its first word is quoted, so it cannot
    /// be looked for as it is).
    static func expect(in line: String, beginning: Bool = false, words: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let sandbox = try Sandbox()
        guard let start = beginning ? line.startIndex : line.range(of: words[0] + " ")?.lowerBound else {
            Issue.record("no \(words[0]) command in: \(line)", sourceLocation: sourceLocation)
            return
        }
        let command = String(line[start...])
        let ends = command.indices.filter { [" ", ",", ")", ";"].contains(command[$0]) } + [command.endIndex]
        let expected = words.map { "<\($0)>" }.joined()
        for shell in ["sh", "bash", "zsh", "fish"] {
            let program = try #require(Sandbox.which(shell), "\(shell) is not installed")
            var read = false
            for end in ends where !read {
                let script = try sandbox.file("candidate", "printf '<%s>' " + command[..<end] + "\n")
                let result = try sandbox.run(program, [script])
                read = result.exitCode == 0 && result.stdoutText == expected
            }
            #expect(read, "\(shell) reads no prefix of \(command.debugDescription) as \(words)", sourceLocation: sourceLocation)
            #expect(!fileExists(sandbox.home + "/INJECTED"), "\(shell) ran a command in \(command.debugDescription)", sourceLocation: sourceLocation)
        }
    }
}
