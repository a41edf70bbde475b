import CredentialCore

/// What a person who mistyped a command is told. git runs a helper with actions it may
/// not know yet, and the helper must ignore them silently (exit 0, nothing written); but
/// git never runs a helper with a terminal on standard input, so a call from a terminal is
/// a person's, who gets one line naming the command they probably meant. And git puts
/// its action last: a word before it (`expot -o FILE`) is a person's or a script's
/// mistake wherever stdin is, an error (exit 2) that a backup script cannot miss.
enum UnknownCommand {
    /// The error for the command `words` (HelperRunner.commandWords), of which none but
    /// "help" names a command in `known`: the unknown word closest to a known name
    /// (`lsit` means `list`), else the first unknown one. Its line is redacted and escaped
    /// as every error line is: a typed word may be a URL with a password, or an escape
    /// sequence.
    static func error(program: String, words: [String], known: [String]) -> HelperError {
        let unknown = words.filter { !known.contains($0) }
        let guesses = unknown.compactMap { word in closest(to: word, among: known).map { (word, $0) } }
        let see = "see \(program) --help"
        if let (word, guess) = guesses.min(by: { $0.1.distance < $1.1.distance }) {
            return HelperError(.usage, "unknown command '\(word)'", fix: "did you mean '\(guess.name)'? (\(see))")
        }
        return HelperError(.usage, "unknown command '\(unknown.first ?? words.last ?? "")'", fix: see)
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
