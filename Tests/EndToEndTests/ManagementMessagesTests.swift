import Foundation
import Testing

/// What the management commands say, checked line for line: each says what is true, what
/// was done and one fix, and nothing was lost or half-written.
@Suite struct ManagementMessagesTests: InSQLiteWorld {
    let world: SQLiteWorld

    @Test func importSaysWhatIsNewReplacedAndUnchanged() throws {
        let file = try sandbox.file("credentials", "https://alice:pa@a.example\nhttps://bob:pb@b.example\nhttps://carol:pc@c.example\n")
        let first = try helper.run(["import", file])
        #expect(first.exitCode == 0 && first.stderrLines == ["read 3 credentials from \(file): 3 new, 0 replaced, 0 unchanged"], "\(first)")
        let again = try helper.run(["import", file])
        #expect(again.exitCode == 0 && again.stderrLines == ["read 3 credentials from \(file): 0 new, 0 replaced, 3 unchanged"], "\(again)")
        try sandbox.file("credentials", "https://alice:pa@a.example\nhttps://bob:changed@b.example\nhttps://dave:pd@d.example\n")
        let changed = try helper.run(["import", file])
        #expect(changed.exitCode == 0 && changed.stderrLines == ["read 3 credentials from \(file): 1 new, 1 replaced, 1 unchanged"], "\(changed)")
        #expect(try helper.password(for: wire("protocol=https", "host=b.example")) == "changed")
        #expect(try helper.password(for: wire("protocol=https", "host=c.example")) == "pc", "an import lost a credential it did not name")
        #expect(try helper("list").stdoutLines.count == 5)
    }

    @Test func importNamesTheSkippedLinesAndWhyWithoutTheirText() throws {
        let file = try sandbox.file("credentials", """
            https://alice:pa@a.example

            https://nopassword-secretword@b.example
            https://bob:pb@b.example
            https://carol:pc@c.example/repo.git

            not a url secretword
            https://e.example/repo.git

            """)
        let result = try helper.run(["import", file])
        #expect(result.exitCode == 0 && result.stderrLines == [
            "read 3 credentials from \(file): 3 new, 0 replaced, 0 unchanged; skipped 3 incomplete entries (lines 3, 7, 8)",
            "not imported from \(file): line 3: no password",
            "not imported from \(file): line 7: not a URL as git-credential-store writes it (url has no scheme)",
            "not imported from \(file): line 8: no username or password",
        ], "\(result)")
        #expect(!result.stderrText.contains("secretword"))
        // --remove-source keeps such a file, and says which lines.
        let kept = try helper.run(["import", "--remove-source", file])
        #expect(kept.exitCode == 1 && kept.stderrLines.last
                == "git-credential-sqlite: kept \(file): 3 entries in it were not imported (lines 3, 7, 8). Fix: move them by hand, then remove the file",
                "\(kept)")
        #expect(fileExists(file))
        // Many skipped lines: the first five, and how many more.
        let many = try sandbox.file("many", String(repeating: "https://x@only-user.example\n", count: 7) + "https://dan:pd@d.example\n")
        let counted = try helper.run(["import", many])
        #expect(counted.stderrLines.first == "read 1 credential from \(many): 1 new, 0 replaced, 0 unchanged; skipped 7 incomplete entries (lines 1, 2, 3, 4, 5 and 2 more)",
                "\(counted)")
    }

    @Test func badInputSaysWhatWasNotDone() throws {
        let bad = BadInput.all[0].bytes(host: "a.example")
        for (action, outcome) in [("get", "nothing was looked up"), ("store", "nothing was stored"), ("erase", "nothing was erased")] {
            let result = try helper.run([action], input: bad)
            expectRejectedInput(result)
            #expect(result.stderrLines == ["git-credential-sqlite: invalid credential input: line 5 has no '='; every line must be key=value; \(outcome). Fix: send key=value lines as git does (see git help credential)"],
                    "\(action): \(result)")
        }
        #expect(!fileExists(sandbox.database), "bad input created the store")
        let header = try sandbox.run(BuiltProducts.basicAuthHeader, [], input: bad)
        expectRejectedInput(header)
        #expect(header.stderrText.hasPrefix("basic-auth-header: invalid credential input: ")
                && header.stderrText.contains("; no header was written. Fix: ") && !header.stderrText.contains("stored"), "\(header)")
    }
}

/// Messages of imports between the backends.
@Suite struct ImportAcrossBackendsMessagesTests: InKeyringWorld {
    let world: KeyringWorld

    /// The sibling's error comes with its own fix only, not ours after it.
    @Test func aRelayedErrorHasOneFix() throws {
        let phrase = try sandbox.file("phrase", "a long enough passphrase\n")
        let sqlite = sandbox.sqlite().with(passphraseFile: phrase)
        expectSuccess(try sqlite.initPassphrase().withoutStderr)
        try sqlite.storeAll(wire("protocol=https", "host=a.example", "username=alice", "password=pa"))
        _ = try sandbox.sqlite().run(["lock"])
        let result = try secretService("import", "--from", "sqlite")
        expectOneLineFailure(result, exitCode: 1, mentioning: ["git-credential-secretservice: git-credential-sqlite could not export: the store ", "is locked", "Fix: run git-credential-sqlite", "unlock"])
        #expect(result.stderrText.components(separatedBy: "Fix:").count == 2 && !result.stderrText.contains("doctor")
                && !result.stderrText.contains("export: git-credential-sqlite:"), "\(result)")
        #expect(try secretService.list().stdout.isEmpty, "a failed import stored something")
    }

    /// An option the helper does not have is named as such; its value is no FILE.
    @Test func anUnknownOptionIsNotTakenForAFile() throws {
        let phrase = try sandbox.file("phrase", "x\n")
        let result = try sandbox.run(BuiltProducts.secretServiceHelper, ["import", "--from", "sqlite", "--passphrase-fd", "3"],
                                     environment: session.bus.environment, inputFiles: [3: phrase])
        #expect(result.exitCode == 2 && result.stderrLines
                == ["git-credential-secretservice: Unknown option '--passphrase-fd'. Fix: see git-credential-secretservice --help"], "\(result)")
        let both = try secretService("import", "--from", "sqlite", phrase)
        #expect(both.exitCode == 2 && both.stderrLines
                == ["git-credential-secretservice: give files or --from, not both. Fix: run import once for each"], "\(both)")
    }
}
