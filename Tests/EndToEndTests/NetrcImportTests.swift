import Foundation
import Testing

/// `import` of a netrc file stores, for each entry, exactly what real curl sends for that
/// host from the same file (compared on the wire, against a loopback server that records
/// the Basic credential), never one machine's login or password under another, and notes
/// each entry it cannot carry over exactly, which keeps the file under --remove-source.
@Suite struct NetrcImportTests: InSQLiteWorld {
    let world: SQLiteWorld

    /// The reviewer's file, and entries that curl 7.88 reads in surprising ways.
    static let netrc = Array("""
        machine gitlab.example login alice password #Xyz9
        machine api.other.example login bob password pw2
        machine ftp.example login carol password "a\\tb" account acct1
        macdef init
        cd /pub

        machine quoted.example login "dan d" password "p\\"w\\\\x y"
        MACHINE upper.example LOGIN erin PASSWORD "e#1"
        machine crlf.example\r
        login frank\r
        password f1\r
        machine trailing.example login gina password \("")
          g1
        machine hash.example login hal password ab#cd
        machine hash.example login ivan password other

        """.utf8)

    static let hosts = ["gitlab.example", "api.other.example", "ftp.example", "quoted.example", "upper.example",
                        "crlf.example", "trailing.example", "hash.example"]

    /// What the store answers for `host`: `login:password`, as Basic auth carries it.
    func stored(_ host: String) throws -> String? {
        let answer = try helper.get(wire("protocol=https", "host=" + host)).attributes
        guard let user = answer["username"], let password = answer["password"] else { return nil }
        return user + ":" + password
    }

    /// What curl sends for `host` from `file`, as the server received it; nil when curl failed.
    func sentByCurl(_ host: String, netrc file: String, to server: BasicAuthServer) throws -> String? {
        let result = try sandbox.run("/usr/bin/curl", ["-q", "-s", "-o", "/dev/null", "--netrc-file", file,
                                                       "--resolve", "\(host):\(server.port):127.0.0.1", "http://\(host):\(server.port)/echo"])
        guard result.exitCode == 0, let bytes = server.receivedCredential else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func importStoresExactlyWhatCurlSendsAndKeepsTheFileOtherwise() throws {
        let file = try sandbox.file("netrc", Self.netrc)
        let result = try helper.run(["import", "--remove-source", file])
        #expect(result.exitCode == 1, "\(result)")
        #expect(contents(of: file) == Self.netrc, "the netrc file was changed or removed")
        #expect(result.stderrLines.last?.hasPrefix("git-credential-sqlite: kept \(file): ") == true, "\(result)")
        for (line, reason) in [("line 1: machine gitlab.example", "no value"), ("line 3: machine ftp.example", "control character"),
                               ("line 4:", "macro init"), ("line 12: machine trailing.example", "curl reads another"),
                               ("line 15: machine hash.example", "curl reads another")] {
            #expect(result.stderrLines.contains { $0.hasPrefix("not imported from \(file): \(line)") && $0.contains(reason) },
                    "no note for \(line): \(result)")
        }

        // Never a field of one machine under another; each as written, escapes and all.
        #expect(try stored("gitlab.example") == nil)
        #expect(try stored("ftp.example") == nil)
        #expect(try stored("trailing.example") == nil)
        #expect(try stored("api.other.example") == "bob:pw2")
        #expect(try stored("quoted.example") == "dan d:p\"w\\x y")
        #expect(try stored("upper.example") == "erin:e#1")
        #expect(try stored("crlf.example") == "frank:f1")
        #expect(try stored("hash.example") == "hal:ab#cd")

        // Real curl, same file: for every entry imported, exactly what it sends.
        let server = try BasicAuthServer(sandbox: sandbox, username: "nobody", password: "nothing")
        for host in Self.hosts {
            guard let stored = try stored(host) else { continue }
            #expect(try sentByCurl(host, netrc: file, to: server) == stored, "curl sends something else for \(host)")
        }
    }

    /// A quote left open: curl fails on the whole file from there; the old reader made the
    /// rest of the file, line breaks and later machines included, one password.
    @Test func anUnclosedQuoteImportsNothingFromThereAndKeepsTheFile() throws {
        let text = Array("machine a.example login x password \"oops\nmachine b.example login y password z\n".utf8)
        let file = try sandbox.file("netrc", text)
        let result = try helper.run(["import", "--remove-source", file])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderrLines.contains { $0.contains("line 1: machine a.example: a quote is not closed") }, "\(result)")
        #expect(try stored("a.example") == nil && stored("b.example") == nil)
        #expect(contents(of: file) == text)
        let server = try BasicAuthServer(sandbox: sandbox, username: "nobody", password: "nothing")
        #expect(try sentByCurl("b.example", netrc: file, to: server) == nil, "curl read the file after all")
    }

    /// A file curl reads as written is imported whole and then wiped.
    @Test func aPlainNetrcIsImportedAndRemoved() throws {
        let file = try sandbox.file("netrc", "machine a.example login x password y\r\nmachine b.example\n  login \"u v\" password \"w\\\\z\"\n")
        let result = try helper.run(["import", "--remove-source", file])
        #expect(result.exitCode == 0 && result.stderrLines.last == "removed \(file)", "\(result)")
        #expect(try stored("a.example") == "x:y" && stored("b.example") == "u v:w\\z")
    }

    /// `machine Upper.EX.com ... account acct1`: curl sends login and password for
    /// upper.ex.com (it matches hosts regardless of case and never sends the account).
    /// The entry was skipped for its account, and stored as typed, which git's get for
    /// upper.ex.com (git compares hosts exactly) never found. Imported now, lowered, the
    /// account said left out; git fills what curl sends.
    @Test func aMachineInCapitalsWithAnAccountIsImportedAsCurlSendsIt() throws {
        let text = "machine Upper.EX.com login alice password pa account acct1\n"
        let kept = try sandbox.file("netrc-copy", text)
        let file = try sandbox.file("netrc", text)
        let result = try helper.run(["import", "--remove-source", file])
        #expect(result.exitCode == 0 && result.stderrLines.last == "removed \(file)", "\(result)")
        #expect(result.stderrLines.contains("imported from \(file) without a part: line 1: machine Upper.EX.com: its account was left out "
            + "(curl never sends one either; git credentials hold none)"), "\(result)")
        let git = GitCredential(sandbox: sandbox, helper: BuiltProducts.sqliteHelper)
        #expect(try git.filledPassword("url=https://upper.ex.com/team/repo.git") == "pa")
        let server = try BasicAuthServer(sandbox: sandbox, username: "nobody", password: "nothing")
        #expect(try sentByCurl("upper.ex.com", netrc: kept, to: server) == "alice:pa")
    }

    /// A password written with a blank and no quotes: curl takes its first word; the entry
    /// is noted without echoing the rest of it, which is part of a secret.
    @Test func aNoteNeverShowsAWordThatMayBeASecret() throws {
        let file = try sandbox.file("netrc", "machine a.example login x password correct horse-battery\n")
        let result = try helper.run(["import", file])
        #expect(result.stderrLines.contains { $0.contains("line 1: machine a.example: a word that is no netrc keyword") }, "\(result)")
        #expect(!result.stderrText.contains("horse") && !result.stderrText.contains("correct"), "\(result)")
        #expect(try stored("a.example") == nil)
    }

    /// Many entries after a `default` without a password: curl reads the file from that
    /// default for every host; the check is bounded, and what it did not finish is noted.
    @Test func aFileCurlReadsToTheEndForEveryHostIsCheckedInBoundedTime() throws {
        let entries = (0..<3000).map { "machine h\($0).example login u\($0) password p\($0)\n" }.joined()
        let file = try sandbox.file("netrc", "default login x\n" + entries)
        let started = Date()
        let result = try sandbox.run(BuiltProducts.sqliteHelper, ["import", file], timeout: 60)
        #expect(result.exitCode == 0, "\(result)")
        #expect(Date().timeIntervalSince(started) < 30, "took \(Date().timeIntervalSince(started)) s")
        #expect(try stored("h0.example") == "u0:p0")
    }
}
