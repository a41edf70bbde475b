/// A word written for a person to paste into a shell, or for git's shell to run: every
/// path in a Fix line and in a helper line goes through here, so that a space in a path
/// cannot split it (`chmod 700 ~/my stores` would change two other files).
public enum ShellWord {
    /// The word as the shell reads it back unchanged: as it is when plain, else in single
    /// quotes. sh gives nothing a meaning inside them, but fish reads `\'` and `\\` there
    /// (a path ending in a backslash closed the quote early and ran the rest): a quote or a
    /// backslash goes outside the quotes, escaped, which sh, bash, zsh and fish all read
    /// as that one character.
    public static func quoted(_ word: String) -> String {
        guard word.isEmpty || !isPlain(word) else { return word }
        var result = "'"
        for character in word {
            if character == "'" || character == "\\" { result += "'\\" + String(character) + "'" } else { result.append(character) }
        }
        return result + "'"
    }

    /// Only characters no shell gives a meaning to in a word (an allow-list: a deny-list
    /// once forgot TAB, where git's shell split a path).
    public static func isPlain(_ word: String) -> Bool {
        word.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "/", ".", "_", "-", "+", ",", ":", "@", "%", "=": true
            default: false
            }
        }
    }

    /// A command line of words, each quoted.
    public static func command(_ words: [String]) -> String { words.map(quoted).joined(separator: " ") }
}
