import Foundation
import Testing

/// The passphrase asked on the terminal (/dev/tty, echo off), as a person at a
/// terminal sees it. A pseudo-terminal driven by python3 plays the person: it waits for
/// each prompt before typing the answer, as someone would.
@Suite struct TerminalPromptTests {
    let sandbox: Sandbox
    let helper: SQLiteHelper

    init() throws {
        sandbox = try Sandbox()
        helper = sandbox.sqlite()
    }

    static let credential = wire("protocol=https", "host=tty.example", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=tty.example")

    func atTerminal(_ arguments: [String], input: [UInt8] = [], answers: [String]) throws -> TerminalSession {
        try sandbox.atTerminal(BuiltProducts.sqliteHelper, arguments, input: input, answers: answers)
    }

    @Test func initAndUnlockAskOnTheTerminalWithoutEcho() throws {
        let created = try atTerminal(["init", "--passphrase", "--scrypt-cost", "10"], answers: ["tty phrase", "tty phrase"])
        #expect(created.code == 0)
        #expect(created.terminal.contains("New passphrase for") && created.terminal.contains("Repeat the passphrase"))
        #expect(!created.terminal.contains("tty phrase"), "the passphrase was echoed")

        let unlocked = try atTerminal(["unlock", "--timeout", "60"], answers: ["tty phrase"])
        #expect(unlocked.code == 0)
        try helper.storeAll(Self.credential)
        #expect(try helper.get(Self.lookup).stdoutLines.contains("password=alice-secret"))
        _ = try helper("lock")
    }

    @Test func getAsksWhenLockedAndATerminalIsThere() throws {
        _ = try atTerminal(["init", "--passphrase", "--scrypt-cost", "10"], answers: ["tty phrase", "tty phrase"])
        let store = try atTerminal(["store"], input: Self.credential, answers: ["tty phrase"])
        #expect(store.code == 0)
        let found = try atTerminal(["get"], input: Self.lookup, answers: ["tty phrase"])
        #expect(found.code == 0)
        #expect(found.stdout == "username=alice\npassword=alice-secret\n")
        #expect(found.terminal.contains("Passphrase for"))
    }

    @Test func twoDifferentNewPassphrasesAreRefused() throws {
        let created = try atTerminal(["init", "--passphrase", "--scrypt-cost", "10"], answers: ["one phrase", "another"])
        #expect(created.code == 2)
        #expect(!fileExists(sandbox.database))
    }
}
