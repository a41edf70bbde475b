import Testing
@testable import HelperCommand

/// git's credential.helper lines as the one reader reads them (GitConfig.HelperLines):
/// `git config -z --show-scope --get-regexp` output in, the lines git runs out.
@Suite("HelperLines: credential.helper lines, reset applied")
struct HelperLinesTests {
    static func output(_ entries: [(String, String)], scope: String = "global") -> String { entries.map { "\(scope)\0file:/home/u/.gitconfig\0\($0.0)\n\($0.1)\0" }.joined() }
    static func lines(general: [String], forURLs: [String]) -> GitConfig.HelperLines {
        GitConfig.HelperLines(parsing: output(general.map { ("credential.helper", $0) } + forURLs.map { ("credential.https://x.example.helper", $0) }))
    }

    @Test func generalAndPerURLLines() {
        let lines = GitConfig.HelperLines(parsing: Self.output([
            ("credential.helper", "cache"), ("credential.https://example.com.helper", "pass"), ("Credential.Helper", "sqlite"),
        ]))
        #expect(lines.activeGeneral.map(\.value) == ["cache", "sqlite"])
        #expect(lines.forURLs.map(\.value) == ["pass"])
        #expect(lines.forURLs.map(\.key) == ["credential.https://example.com.helper"])
        #expect(lines.entries.allSatisfy { $0.scope == "global" })
        #expect(lines.active == ["cache", "sqlite", "pass"])
    }

    /// An empty value resets the list: git runs only what follows the last one; lines
    /// for one URL still count. `all` keeps the switched-off lines (init must not wipe a
    /// key file one of them names).
    @Test func theLastResetWins() {
        let lines = GitConfig.HelperLines(parsing: Self.output([
            ("credential.helper", "store"), ("credential.helper", ""), ("credential.helper", "cache"),
            ("credential.helper", ""), ("credential.helper", "/usr/bin/git-credential-sqlite --db /x"),
            ("credential.https://a.example.helper", "keyring"),
        ]))
        #expect(lines.active == ["/usr/bin/git-credential-sqlite --db /x", "keyring"])
        #expect(lines.all == ["store", "cache", "/usr/bin/git-credential-sqlite --db /x", "keyring"])
    }

    /// What git runs for a request under each URL: configure --url's reset line clears the
    /// general lines there; a URL's line without one comes after them.
    @Test func eachURLsLinesAsGitRunsThem() {
        let lines = GitConfig.HelperLines(parsing: Self.output([
            ("credential.helper", "cache"), ("credential.https://work.example/acme.helper", ""),
            ("credential.https://work.example/acme.helper", "/usr/bin/git-credential-sqlite --db /work.db"),
            ("credential.https://other.example.helper", "pass"),
        ]))
        #expect(lines.byURL.map(\.url) == ["https://work.example/acme", "https://other.example"])
        #expect(lines.byURL.map { $0.lines.map(\.value) } == [["/usr/bin/git-credential-sqlite --db /work.db"], ["cache", "pass"]])
    }

    /// git builds ONE list per request, in config order: a general reset written after a
    /// URL's pair clears that pair too (configure after configure --url), and every
    /// pattern matching the URL counts, the host's as well as the path's.
    @Test func aLaterGeneralResetClearsAURLsLines() {
        let lines = GitConfig.HelperLines(parsing: Self.output([
            ("credential.https://ex.example/work.git.helper", ""), ("credential.https://ex.example/work.git.helper", "sqlite --db /work.db"),
            ("credential.helper", ""), ("credential.helper", "sqlite"),
            ("credential.https://ex.example.helper", "pass"), ("credential.https://ex.example/other/.helper", "cache"),
        ]))
        #expect(lines.byURL.map(\.url) == ["https://ex.example/work.git", "https://ex.example", "https://ex.example/other/"])
        #expect(lines.byURL.map { $0.lines.map(\.value) } == [["sqlite", "pass"], ["sqlite", "pass"], ["sqlite", "pass", "cache"]])
        #expect(lines.running(for: "https://ex.example/other/sub.git").map(\.value) == ["sqlite", "pass", "cache"])
        #expect(lines.running(for: "https://ex.example/otherwise.git").map(\.value) == ["sqlite", "pass"])
        #expect(lines.running(for: "http://ex.example/work.git").map(\.value) == ["sqlite"])
    }

    /// urlmatch.c's rules: scheme, user, host (with `*` labels), default port, and a path
    /// prefix on a `/` boundary; a pattern without a scheme names a host.
    @Test func urlPatternsMatchAsGitMatchesThem() {
        #expect(URLPattern.matches("https://EX.example", "https://ex.example:443/a.git"))
        #expect(URLPattern.matches("https://*.example", "https://git.example/a"))
        #expect(!URLPattern.matches("https://*.example", "https://a.git.example/a"))
        #expect(URLPattern.matches("https://alice@ex.example", "https://alice@ex.example/a"))
        #expect(!URLPattern.matches("https://alice@ex.example", "https://ex.example/a"))
        #expect(URLPattern.matches("https://ex.example", "https://bob@ex.example/a"))
        #expect(!URLPattern.matches("https://ex.example:8443", "https://ex.example/a"))
        #expect(URLPattern.matches("ex.example", "https://ex.example/a"))
    }

    @Test func aResetLastLeavesNothing() {
        #expect(Self.lines(general: ["cache", ""], forURLs: []).active == [])
        #expect(Self.lines(general: [], forURLs: []).active == [])
        #expect(GitConfig.HelperLines(parsing: "").active == [])
    }

    /// A value holding a line break stays one value (-z).
    @Test func aValueWithALineBreak() {
        let lines = GitConfig.HelperLines(parsing: Self.output([("credential.helper", "!f() {\n echo; }; f")]))
        #expect(lines.active == ["!f() {\n echo; }; f"])
    }

    /// Each line keeps the scope that sets it (doctor names it in its fix); a reset in
    /// one scope stops the lines of the scopes git reads before it.
    @Test func scopedEntriesResetTheSameWay() {
        let lines = GitConfig.HelperLines(parsing: Self.output([("credential.helper", "store")], scope: "global")
            + Self.output([("credential.helper", ""), ("credential.helper", "sqlite")], scope: "local"))
        #expect(lines.activeGeneral.map(\.scope) == ["local"])
        #expect(lines.active == ["sqlite"])
        #expect(lines.all == ["store", "sqlite"])
    }
}

/// A helper line as git's shell splits it, and as configure writes it (HelperLine).
@Suite("HelperLine: quoting and parsing")
struct HelperLineTests {
    @Test func shortNamePathAndBang() {
        let short = HelperLine(parsing: "sqlite --db /x")
        #expect(short.isShortName && short.program == "sqlite" && short.arguments == ["--db", "/x"])
        #expect(short.runs("sqlite") && !short.runs("keyring"))
        let path = HelperLine(parsing: "/usr/bin/git-credential-keyring")
        #expect(!path.isShortName && path.runs("keyring"))
        let bang = HelperLine(parsing: "!'/opt/my dir/git-credential-pass'")
        #expect(bang.program == "/opt/my dir/git-credential-pass" && bang.runs("pass"))
        #expect(!HelperLine(parsing: "!git credential-sqlite").runs("sqlite"))
    }

    @Test func shellWords() {
        #expect(HelperLine.words(#"a 'b c' "d \"e\" \$f" g\ h"#) == ["a", "b c", #"d "e" $f"#, "g h"])
        #expect(HelperLine.words("  a\t\tb \n") == ["a", "b"])
        #expect(HelperLine.words(#""a\b""#) == [#"a\b"#])
        #expect(HelperLine.words("''") == [""])
    }

    /// What configure writes reads back as the same program and arguments.
    @Test(arguments: [
        ("/usr/bin/git-credential-sqlite", ["--db", "/home/a/my db", "--key-file", "/k'ey"]),
        ("/tmp/odd path/git-credential-sqlite", ["--grace-period", "300"]),
        ("/usr/bin/git-credential-pass", []),
    ])
    func writtenLinesReadBack(_ program: String, _ arguments: [String]) {
        let line = HelperLine(program: program, arguments: arguments)
        let read = HelperLine(parsing: line.value)
        #expect(read.program == program && read.arguments == arguments && !read.isShortName)
    }
}
