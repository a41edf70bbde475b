import CredentialCore
import Testing

/// Every path in a Fix line goes through ShellWord, for a person to paste into their
/// shell, whichever it is: each shell must read the word back as exactly itself, and run
/// nothing. (An attacker's finding: fish reads `\'` inside single quotes, so a directory
/// named `a\'; touch PWNED #` made a pasted `chmod go-w '…'` run `touch`.)
@Suite struct ShellWordTests {
    static let hostile = ["a\\'; touch PWNED #", "ends in a backslash\\", "it's", "a b", "$(touch PWNED)", "`touch PWNED`",
                          "\\\\", "'", "", "tab\there", "new\nline", "semi;colon&amp|pipe", "!bang", "~/tilde", "*glob?"]

    @Test(arguments: ["sh", "bash", "zsh", "fish"])
    func eachShellReadsTheWordBackAsItself(shell: String) throws {
        let sandbox = try Sandbox()
        for word in Self.hostile {
            let result = try sandbox.run(try #require(Sandbox.which(shell), "\(shell) is not installed"),
                                         ["-c", "printf '%s|' " + ShellWord.quoted(word)])
            #expect(result.exitCode == 0 && result.stdoutText == word + "|", "\(shell): \(word.debugDescription) as \(ShellWord.quoted(word)): \(result)")
            #expect(!fileExists(sandbox.home + "/PWNED"), "\(shell) ran a command in \(ShellWord.quoted(word))")
        }
    }
}
