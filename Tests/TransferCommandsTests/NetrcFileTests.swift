import CredentialCore
import Testing
@testable import HelperCommand
@testable import TransferCommands

/// How a netrc file is read for import, without a process: the entries as written, curl
/// 7.88's reading of the same file, and what is left out with a note. NetrcImportTests
/// imports real files through the helper, and checks them against real curl.
@Suite("NetrcFile: default, macdef, quoting, comments, bad input")
struct NetrcFileTests {
    static func read(_ text: String) -> ImportSource { NetrcFile.read(Array(text.utf8), name: "netrc") }

    static func https(_ host: Value, _ login: Value, _ password: Value) -> Credential {
        Credential(protocol: "https", host: host, username: login, password: password)
    }

    /// The notes' texts, each as `line N: why`.
    static func notes(_ source: ImportSource) -> [String] { source.notes.map(\.text) }

    // MARK: Recognising a netrc file

    @Test(arguments: ["machine example.com login alice password s\n", "# written by hand\n\n  MACHINE example.com\n",
                      "default login anonymous password guest\n", "macdef init\n"])
    func aNetrcFileIsRecognised(text: String) {
        #expect(NetrcFile.looksLikeNetrc(Array(text.utf8)))
    }

    @Test(arguments: ["", "\n# only a comment\n", "https://alice:s@example.com\n", "protocol=https\nhost=example.com\n",
                      "login alice password s\n"])
    func otherFilesAreNot(text: String) {
        #expect(!NetrcFile.looksLikeNetrc(Array(text.utf8)))
    }

    // MARK: Entries

    /// Keywords in any case; a machine name lowered (curl matches it regardless of case).
    @Test func entriesOnOneLineOrManyBecomeHTTPSCredentials() {
        let source = Self.read("""
            machine a.example login alice password pa
            machine b.example
                login bob
                password pb
            MACHINE C.Example LOGIN carol PASSWORD pc

            """)
        #expect(source.credentials == [Self.https("a.example", "alice", "pa"), Self.https("b.example", "bob", "pb"),
                                       Self.https("c.example", "carol", "pc")])
        #expect(source.lines == [1, 2, 5] && source.skippedLines.isEmpty && source.isNetrc)
    }

    /// Quotes hold white space, `#`, `\"` and `\\`, as curl reads them.
    @Test func quotedValuesAreReadAsCurlReadsThem() {
        let source = Self.read(#"machine q.example login "al ice" password "p#w \"q\" \\z""# + "\n")
        #expect(source.credentials == [Self.https("q.example", "al ice", #"p#w "q" \z"#)], "\(Self.notes(source))")
    }

    /// Whitespace at a line's end is an empty token for curl: it changes nothing here.
    @Test func trailingBlanksChangeNothing() {
        #expect(Self.read("machine t.example login alice password pa \t\n").credentials == [Self.https("t.example", "alice", "pa")])
    }

    // MARK: Comments

    @Test func commentLinesAndCommentsAfterAValueAreSkipped() {
        let source = Self.read("# my hosts\nmachine a.example login alice password pa # work\n  # indented\n")
        #expect(source.credentials == [Self.https("a.example", "alice", "pa")] && source.skippedLines.isEmpty)
    }

    /// `password #x` ends the line for curl, which then takes the next line's `machine` as
    /// the password: the entry is not imported, the next one still is.
    @Test func aValueStartingWithHashIsNoValue() {
        let source = Self.read("machine a.example login alice password #x\nmachine b.example login bob password pb\n")
        #expect(source.credentials == [Self.https("b.example", "bob", "pb")])
        #expect(Self.notes(source) == ["line 1: machine a.example: password has no value (one starting with # must be quoted)"])
    }

    // MARK: default and macdef

    @Test func aDefaultEntryIsNotImported() {
        let source = Self.read("default login anonymous password guest\n")
        #expect(source.credentials.isEmpty && Self.notes(source) == ["line 1: a default entry: git credentials need a host"])
    }

    /// curl takes a default before a machine for that machine too: what the machine says
    /// is not what curl sends, so neither is imported.
    @Test func aDefaultBeforeAMachineWinsForIt() {
        let source = Self.read("default login d password dp\nmachine m.example login m password mp\n")
        #expect(source.credentials.isEmpty && source.skippedLines == [1, 2])
        #expect(Self.notes(source).last?.hasPrefix("line 2: machine m.example: curl reads another login or password for this host") == true,
                "\(Self.notes(source))")
    }

    @Test func aDefaultAfterTheMachineChangesNothingForIt() {
        let source = Self.read("machine m.example login m password mp\ndefault login d password dp\n")
        #expect(source.credentials == [Self.https("m.example", "m", "mp")] && source.skippedLines == [2])
    }

    /// A macro runs to an empty line; its body is never read as entries.
    @Test func aMacroIsNotCarriedOverAndItsBodyIsNotRead() {
        let source = Self.read("macdef init\nmachine evil.example login x password y\n\nmachine m.example login m password mp\n")
        #expect(source.credentials == [Self.https("m.example", "m", "mp")])
        #expect(Self.notes(source) == ["line 1: macro init is not carried over (git credentials hold no macros)"])
    }

    // MARK: What cannot carry over exactly

    @Test(arguments: [
        ("machine a.example login alice login bob password pa\n", "machine a.example: login given twice"),
        ("machine a.example login alice password two words\n", "machine a.example: a word that is no netrc keyword curl uses"),
        ("machine a.example login alice\n", "machine a.example: no password"),
        ("machine a.example password pa\n", "machine a.example: no login"),
        (#"machine a.example login alice password "tab\there""# + "\n", "machine a.example: a control character in the host, login or password"),
        ("machine a.example:8443 login alice password pa\n", "machine a.example:8443: not a host name curl matches"),
        ("login alice\n", "login outside a machine entry"),
    ])
    func whatWouldNotCarryOverIsNotedNotImported(text: String, note: String) {
        let source = Self.read(text)
        #expect(source.credentials.isEmpty && source.skippedLines == [1])
        #expect(Self.notes(source).first?.hasPrefix("line 1: " + note) == true, "\(Self.notes(source))")
    }

    /// curl steps over `account` and sends login and password: the entry is imported,
    /// and what was left out said (the entry was skipped). A machine name in capitals is
    /// stored in lower case, as curl matches it and as git sends a remote URL's host.
    @Test func anAccountIsLeftOutAndAHostLowered() {
        let source = Self.read("machine Upper.EX.com login alice password pa account acct\n")
        #expect(source.credentials == [Self.https("upper.ex.com", "alice", "pa")])
        #expect(source.skippedLines.isEmpty && source.notes.isEmpty)
        #expect(source.leftOut == ["line 1: machine Upper.EX.com: its account was left out (curl never sends one either; git credentials hold none)"])
    }

    // MARK: Bad input

    /// An unclosed quote makes curl fail on the whole file from there on.
    @Test func anUnclosedQuoteStopsTheRest() {
        let source = Self.read("machine a.example login alice password pa\nmachine b.example login bob password \"unclosed\nmachine c.example login c password pc\n")
        #expect(source.credentials == [Self.https("a.example", "alice", "pa")] && source.skippedLines == [2])
        #expect(Self.notes(source).first?.contains("a quote is not closed") == true, "\(Self.notes(source))")
    }

    @Test func aBackslashAtTheEndIsAnUnclosedQuote() {
        #expect(Tokens.of(Array(#""abc\"#.utf8)[...]).failed)
        #expect(!Tokens.of(Array(#""abc\\""#.utf8)[...]).failed)
    }

    /// curl stops at a NUL byte, and skips a line longer than its buffer: so does import.
    @Test func aNulByteEndsTheFile() {
        let source = NetrcFile.read(Array("machine a.example login alice password pa\nmachine b.example\0\nmachine c.example login c password pc\n".utf8), name: "netrc")
        #expect(source.credentials == [Self.https("a.example", "alice", "pa")] && source.skippedLines == [2])
        #expect(Self.notes(source).first?.contains("a NUL byte, where curl stops reading the file") == true)
    }

    @Test func aLineLongerThanCurlsBufferIsSkipped() {
        let long = "machine l.example login alice password " + String(repeating: "x", count: Lines.limit) + "\n"
        let source = Self.read(long + "machine a.example login alice password pa\n")
        #expect(source.credentials == [Self.https("a.example", "alice", "pa")] && source.skippedLines == [1])
        #expect(Self.notes(source).first?.contains("longer than the 4095 bytes curl reads") == true)
    }

    @Test func tokensAreCutAsCurlCutsThem() {
        func cut(_ text: String) -> [String] { Tokens.of(Array(text.utf8)[...]).tokens.map { String(decoding: $0, as: UTF8.self) } }
        #expect(cut("machine  a\tb\n") == ["machine", "a", "b"])
        #expect(cut("a #b c\n") == ["a"])
        #expect(cut("a b \n") == ["a", "b", ""])
        #expect(cut(#""x\ny\tz\q""#) == ["x\ny\tzq"])
        #expect(cut(#""a"b c"#) == ["a", "c"], "curl steps over the character after a closing quote")
    }
}
