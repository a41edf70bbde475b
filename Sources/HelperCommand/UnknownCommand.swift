import CredentialCore

/// What a person who mistyped a command is told. git runs a helper with actions it may
/// not know yet, and the helper must ignore them silently (exit 0, nothing written); but
/// git never runs a helper with a terminal on standard input, so a call from a terminal is
/// a person's, who gets one line naming the command they probably meant.
enum UnknownCommand {
    /// The line for `arguments`, whose action (a word) names none of `known`: the word
    /// closest to a known name (`lsit --db x` means `list`), else the action (git's last).
    static func line(program: String, arguments: [String], known: [String]) -> String {
        let words = arguments.filter { !$0.hasPrefix("-") }
        let guesses = words.compactMap { word in closest(to: word, among: known).map { (word, $0) } }
        let text: String
        if let (word, guess) = guesses.min(by: { $0.1.distance < $1.1.distance }) {
            text = "\(program): unknown command '\(word)'; did you mean '\(guess.name)'? (see --help)"
        } else {
            text = "\(program): unknown command '\(arguments.last ?? "")' (see --help)"
        }
        // A typed word may be anything: a URL with a password, an escape sequence.
        return Trace.redactingURLPasswords(Trace.printable(String(text.map { $0.isNewline ? " " : $0 })))
    }

    /// The known name nearest to `word`, if a typo away: at most two edits, and fewer than
    /// the word has letters (so that `x` suggests nothing). The first of equals wins.
    static func closest(to word: String, among known: [String]) -> (name: String, distance: Int)? {
        let word = word.lowercased()
        let limit = min(2, word.count - 1)
        return known.map { ($0, editDistance(word, $0)) }
            .filter { $0.1 <= limit }
            .min { $0.1 < $1.1 }
            .map { (name: $0.0, distance: $0.1) }
    }

    /// Insertions, deletions, substitutions and swaps of neighbours (`lsit` is one from
    /// `list`): the optimal string alignment distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
