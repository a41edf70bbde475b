import Testing
@testable import HelperCommand

/// The one reading of `--name value` / `--name=value` pairs (OptionPairs), strict for
/// git's call and lenient for configured lines and words being completed.
@Suite("OptionPairs: store option pairs read without the argument parser")
struct OptionPairsTests {
    /// Reads `words`, taking the names in `known` (any value), and says what it took.
    static func read(_ words: [String], strict: Bool, known: Set<String> = ["db", "key-file"]) -> (Bool, [String]) {
        var taken: [String] = []
        let ok = OptionPairs.read(words[...], strict: strict) { name, value in
            guard known.contains(name) else { return false }
            taken.append(name + "=" + value)
            return true
        }
        return (ok, taken)
    }

    @Test func oneWordOption() {
        for (word, name, value) in [("--db=/x", "db", "/x"), ("--db=", "db", ""), ("--db=a=b", "db", "a=b"), ("--db", "db", nil)] as [(String, String, String?)] {
            let read = OptionPairs.option(word)
            #expect(read?.name == name && read?.value == value, "\(word)")
        }
        #expect(OptionPairs.option("-d") == nil)
        #expect(OptionPairs.option("get") == nil)
    }

    @Test func strictTakesPairsInEitherSpelling() {
        let (ok, taken) = Self.read(["--db", "/a", "--key-file=/b"], strict: true)
        #expect(ok)
        #expect(taken == ["db=/a", "key-file=/b"])
    }

    /// Anything the full parser should report: a positional word, a missing, empty or
    /// dash value, an option the settings do not know.
    @Test(arguments: [["get"], ["--db"], ["--db", ""], ["--db="], ["--db", "--key-file", "/b"], ["--db=-x"], ["--unknown", "x"]])
    func strictRefuses(_ words: [String]) {
        #expect(!Self.read(words, strict: true).0)
    }

    /// A configured line's other words and unknown options are passed over; a refused
    /// value is read as the next word.
    @Test func lenientTakesWhatItCan() {
        let (ok, taken) = Self.read(["--grace-period", "5m", "--db", "/a", "word", "--key-file=/b", "--db"], strict: false)
        #expect(ok)
        #expect(taken == ["db=/a", "key-file=/b"])
        #expect(Self.read(["--unknown", "--db", "/a"], strict: false).1 == ["db=/a"])
    }

    @Test func wordsOfOptionsWithValues() {
        let options = [StoreOption(name: "db", variable: "DB", value: "/a"), StoreOption(name: "key-file", variable: "KEY", value: nil)]
        #expect(OptionPairs.words(options) == ["--db", "/a"])
        #expect(options[0].flag == "--db")
    }
}
