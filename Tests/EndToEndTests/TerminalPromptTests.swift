import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The passphrase asked on the terminal (/dev/tty, echo off), as a person at a
/// terminal sees it. A pseudo-terminal driven by python3 plays the person: it waits for
/// each prompt before typing the answer, as someone would.
@Suite struct TerminalPromptTests: InSQLiteWorld {
    let world: SQLiteWorld

    static let credential = wire("protocol=https", "host=tty.example", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=tty.example")

    func atTerminal(_ arguments: [String], input: [UInt8] = [], answers: [String],
                    environment: [String: String] = [:]) throws -> TerminalSession {
        try sandbox.atTerminal(BuiltProducts.sqliteHelper, arguments, input: input, answers: answers, environment: environment)
    }

    @Test func initAndUnlockAskOnTheTerminalWithoutEcho() throws {
        let created = try atTerminal(["init", "--passphrase", "--scrypt-cost", "10"], answers: ["tty phrase", "tty phrase"])
        #expect(created.code == 0)
        #expect(created.terminal.contains("New passphrase for") && created.terminal.contains("Repeat the passphrase"))
        #expect(!created.terminal.contains("tty phrase"), "the passphrase was echoed")
        #expect(created.echo, "the terminal was left without echo")

        let unlocked = try atTerminal(["unlock", "--timeout", "60"], answers: ["tty phrase"])
        #expect(unlocked.code == 0)
        try helper.storeAll(Self.credential)
        #expect(try helper.get(Self.lookup).stdoutLines.contains("password=alice-secret"))
        _ = try helper("lock")
    }

    @Test func getAsksWhenLockedAndATerminalIsThere() throws {
        // Locked from the start: a passphrase typed keeps it unlocked for the grace period.
        _ = try atTerminal(["--grace-period", "0", "init", "--passphrase", "--scrypt-cost", "10"], answers: ["tty phrase", "tty phrase"])
        // No grace period: the get must find the store locked again.
        let store = try atTerminal(["--grace-period", "0", "store"], input: Self.credential, answers: ["tty phrase"])
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

    /// Ctrl-C (SIGINT through the terminal itself) or SIGTERM while a passphrase is typed:
    /// the program dies of the signal as before, and the terminal echoes again, for the
    /// shell and whatever runs next.
    @Test(arguments: ["\u{03}", "signal:15"])
    func aSignalAtThePromptGivesTheTerminalItsEchoBack(_ interruption: String) throws {
        let other = Sandbox.sqliteElsewhere(sandbox)
        try other.storeAll(Self.credential)
        let phrase = try sandbox.file("phrase", "export phrase\n")
        let file = sandbox.root + "/backup.gitcred"
        let exported = try sandbox.run(BuiltProducts.sqliteHelper,
                                       other.options + ["export", "--output", file, "--file-passphrase-fd", "3", "--scrypt-cost", "10"],
                                       inputFiles: [3: phrase])
        #expect(exported.exitCode == 0, "\(exported)")

        let session = try atTerminal(["import", file], answers: [interruption])
        #expect(session.terminal.contains("Passphrase for"), "\(session)")
        #expect(session.code == (interruption == "signal:15" ? -Int(SIGTERM) : -Int(SIGINT)), "not ended by the signal: \(session)")
        #expect(session.echo, "the terminal was left without echo")
        #expect(!fileExists(sandbox.database), "an interrupted import stored something")
    }

    /// GIT_TERMINAL_PROMPT false (git's booleans): git never prompts on the terminal then,
    /// and neither does a helper it runs: `git credential fill` with a locked store ends at
    /// once, without "Passphrase for" on /dev/tty, and the store is not opened.
    @Test(arguments: ["0", "false", "No", "off", ""])
    func noTerminalPromptWhenGitTerminalPromptIsFalse(_ value: String) throws {
        _ = try atTerminal(["--grace-period", "0", "init", "--passphrase", "--scrypt-cost", "10"], answers: ["tty phrase", "tty phrase"])
        #expect(try atTerminal(["--grace-period", "0", "store"], input: Self.credential, answers: ["tty phrase"]).code == 0)
        let git = try sandbox.atTerminal(Sandbox.which("git") ?? "/usr/bin/git",
                                         ["-c", "credential.helper=" + BuiltProducts.sqliteHelper, "credential", "fill"],
                                         input: Self.lookup, answers: ["tty phrase"], stderrOnTerminal: true,
                                         environment: ["GIT_TERMINAL_PROMPT": value])
        #expect(!git.terminal.contains("Passphrase for"), "a terminal prompt with GIT_TERMINAL_PROMPT=\(value): \(git)")
        #expect(!git.stdout.contains("alice-secret"), "\(git)")
        #expect(git.code != 0, "git should fail as it does without a terminal: \(git)")
        // The control: the same with prompts on asks, and the answer opens the store.
        let asked = try sandbox.atTerminal(Sandbox.which("git") ?? "/usr/bin/git",
                                           ["-c", "credential.helper=" + BuiltProducts.sqliteHelper, "credential", "fill"],
                                           input: Self.lookup, answers: ["tty phrase"], stderrOnTerminal: true)
        #expect(asked.terminal.contains("Passphrase for") && asked.stdout.contains("password=alice-secret"), "\(asked)")
    }

    /// With the terminal forbidden, an askpass program is still asked, as git asks it.
    @Test func askpassStillAnswersWhenGitTerminalPromptIsFalse() throws {
        _ = try atTerminal(["--grace-period", "0", "init", "--passphrase", "--scrypt-cost", "10"], answers: ["tty phrase", "tty phrase"])
        #expect(try atTerminal(["--grace-period", "0", "store"], input: Self.credential, answers: ["tty phrase"]).code == 0)
        let askpass = try sandbox.file("askpass", "#!/bin/sh\necho 'tty phrase'\n", mode: 0o700)
        let found = try atTerminal(["get"], input: Self.lookup, answers: [],
                                   environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": askpass])
        #expect(found.stdout == "username=alice\npassword=alice-secret\n", "\(found)")
        #expect(!found.terminal.contains("Passphrase for"), "\(found)")
    }
}
