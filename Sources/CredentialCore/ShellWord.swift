/// A word written for a person to paste into a shell, or for git's shell to run: every
/// path in a Fix line and in a helper line goes through here, so that a space in a path
/// cannot split it (`chmod 700 ~/my stores` would change two other files).
public enum ShellWord {
    /// The word as the shell reads it back unchanged, for a person, in a one-line message, which escapes control and format characters (a
    /// tab, an ESC, a bidirectional override: a name from a synced store can hold them): a
    /// word holding one is written as what printf makes of octal escapes,
    /// `"$(printf 'a\011b')"`, which sh, bash, zsh and fish (3.4 and later) read alike
    /// (inside single quotes fish takes only `\'` and `\\` as escapes, and the format has
    /// neither: a backslash, a quote and a `%` are octal too, and so is a leading `-`). A
    /// trailing newline is lost to the command substitution.
    public static func quoted(_ word: String) -> String {
        guard word.unicodeScalars.contains(where: Trace.isHazard) else { return quotedForScript(word) }
        let format = word.utf8.enumerated().map { index, byte in
            let plain = (0x20...0x7E).contains(byte) && ![UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "%")].contains(byte)
                && !(index == 0 && byte == UInt8(ascii: "-"))
            return plain ? String(UnicodeScalar(byte)) : Trace.octal(byte)
        }.joined()
        return "\"$(printf '" + format + "')\""
    }

    /// For a shell that reads the bytes as they are (the line git's shell runs for a helper,
    /// which configure writes and reads back): as it is when plain, else in single quotes.
    /// sh gives nothing a meaning inside them, but fish reads `\'` and `\\` there (a path
    /// ending in a backslash closed the quote early and ran the rest): a quote or a
    /// backslash goes outside the quotes, escaped, which sh, bash, zsh and fish all read
    /// as that one character.
    public static func quotedForScript(_ word: String) -> String {
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
