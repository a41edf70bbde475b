import Foundation
import Testing

/// list and erase read a HOST-OR-URL the same way (HostOrURL), on every helper: a host
/// alone covers every port, protocol, path and user of it; host:port that port; a URL
/// what git would send for it. Each on a keyring of the test's own.
@Suite struct HostOrURLTests: InKeyringWorld {
    enum Helper: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, secretservice, keyring
        var testDescription: String { rawValue }
    }

    let world: KeyringWorld

    func helper(_ which: Helper) -> any CredentialHelper {
        switch which {
        case .sqlite: sandbox.sqlite()
        case .secretservice: secretService
        case .keyring: keyringHelper
        }
    }

    static let stored = [
        wire("protocol=https", "host=github.com", "username=alice", "password=p1"),
        wire("protocol=https", "host=github.com:8443", "path=org/repo", "username=alice", "password=p2"),
        wire("protocol=http", "host=github.com", "username=bob", "password=p3"),
        wire("protocol=https", "host=gitlab.com", "username=alice", "password=p4"),
    ]

    /// What each HOST-OR-URL selects, as (protocol, host, user) rows sorted as list sorts them.
    static let selections: [(String, [[String]])] = [
        ("github.com", [["http", "github.com", "bob"], ["https", "github.com", "alice"], ["https", "github.com:8443", "alice"]]),
        ("github.com:8443", [["https", "github.com:8443", "alice"]]),
        ("https://github.com", [["https", "github.com", "alice"]]),
        ("https://alice@github.com:8443/org/repo", [["https", "github.com:8443", "alice"]]),
        ("https://bob@github.com", []),
        // The URL a repository was cloned with: git sent no path for it, nor stored one.
        ("https://github.com/org/repo.git", [["https", "github.com", "alice"]]),
        ("alice@github.com", [["https", "github.com", "alice"], ["https", "github.com:8443", "alice"]]),
        ("gitlab.com:443", []),
    ]

    func rows(_ result: ProcessResult) -> [[String]] {
        result.stdoutLines.dropFirst().map { row in
            let columns = row.split(separator: " ").map(String.init)
            return [columns[0], columns[1], columns[3]]
        }
    }

    @Test(arguments: Helper.allCases)
    func listAndEraseSelectTheSame(_ which: Helper) throws {
        let helper = helper(which)
        for credential in Self.stored { try helper.storeAll(credential) }
        let everything = try helper("list")
        #expect(everything.exitCode == 0 && rows(everything).count == 4, "\(everything)")
        for (target, expected) in Self.selections {
            let listed = try helper("list", target)
            #expect(listed.exitCode == 0 && listed.stderr.isEmpty && rows(listed) == expected, "list \(target): \(listed)")
        }
        // Erase each in turn, on a full store each time: it erases what list showed, no more.
        for (target, expected) in Self.selections {
            for credential in Self.stored { try helper.storeAll(credential) }
            let erased = try helper("erase", target)
            #expect(erased.exitCode == 0 && erased.stderrText == "erased \(expected.count) credential\(expected.count == 1 ? "" : "s")\n",
                    "erase \(target): \(erased)")
            let left = rows(try helper("list"))
            #expect(left.count == 4 - expected.count && expected.allSatisfy { !left.contains($0) }, "after erase \(target): \(left)")
        }
    }

    /// How each command says "every host": the fix of a text that names none fits it.
    static let everything = ["list": "leave it out to list everything", "erase": "use erase-all to erase everything",
                             "which": "leave it out to see only where a store would go"]

    @Test(arguments: Helper.allCases)
    func aHostOrURLThatNamesNoHostIsRefusedAlike(_ which: Helper) throws {
        let helper = helper(which)
        try helper.storeAll(Self.stored[0])
        let program = "git-credential-\(which)"
        for command in ["list", "erase"] + (which == .keyring ? ["which"] : []) {
            // An empty host, with a port or without, in both forms.
            for (text, shown) in [("", "\"\""), ("https://", "https://"), (":8443", ":8443"), ("https://:8443", "https://:8443"),
                                  ("alice@:443", "alice@:443")] {
                let refused = try helper(command, text)
                #expect(refused.exitCode == 2 && refused.stdout.isEmpty && refused.stderrLines
                        == ["\(program): \(shown) names no host. Fix: give a host, or \(Self.everything[command]!)"],
                        "\(command) \(text): \(refused)")
            }
            // What is no port after a host's last colon.
            for (text, port) in [("k1.test:99999", "99999"), (":0", "0"), ("k1.test:0443", "0443"), ("inv.test:abc", "abc"),
                                 ("https://github.com:65536", "65536")] {
                let refused = try helper(command, text)
                #expect(refused.exitCode == 2 && refused.stdout.isEmpty && refused.stderrLines
                        == ["\(program): \(text) is not a host[:port]: \(port) is no port (1 to 65535, without a leading zero)."
                            + " Fix: give a host (github.com, github.com:8443) or a URL (https://alice@github.com/org/repo)"],
                        "\(command) \(text): \(refused)")
            }
            let withPassword = try helper(command, "https://alice:hunter2@github.com")
            expectOneLineFailure(withPassword, exitCode: 2, mentioning: ["holds a password", "leave the password out"])
            #expect(!withPassword.stderrText.contains("hunter2"), "\(withPassword)")
        }
        #expect(rows(try helper("list")).count == 1, "a refused erase erased something")
    }
}
