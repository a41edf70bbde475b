import Foundation
import Testing

/// Plaintext exports and imports carry what git would use, and nothing it would not: no
/// expired password made eternal, git's own credential format read back whole, and of
/// entries git would choose between, the one git chooses (real git-credential-store is
/// the reference).
@Suite struct PlaintextTransferTests: InSQLiteWorld {
    let world: SQLiteWorld

    /// git-credential-store's answer for `lines` (a request), reading its default files
    /// or `file`.
    func gitStoreAnswer(_ lines: String..., file: String? = nil) throws -> [String: String] {
        let result = try sandbox.git(["credential-store"] + (file.map { ["--file", $0] } ?? []) + ["get"], input: wire(lines))
        #expect(result.exitCode == 0, "\(result)")
        return result.attributes
    }

    // MARK: export --plaintext in git-credential-store's format

    /// The format has no expiry and no refresh token: an expired password would come back as
    /// one that never expires (git-credential-store answers it forever), so it is left out;
    /// what loses its expiry, refresh token or authtype is counted.
    @Test func storeFormatLeavesOutExpiredPasswordsAndCountsWhatLosesItsExpiry() throws {
        _ = try storeExpiringToken(helper, host: "a.test")
        let later = Int(Date().timeIntervalSince1970) + 3600
        try helper.storeAll(wire("protocol=https", "host=b.test", "username=bob", "password=bob-token", "password_expiry_utc=\(later)",
                                 "oauth_refresh_token=bob-refresh"),
                            wire("protocol=https", "host=c.test", "username=carol", "password=carol-secret"))
        let file = sandbox.root + "/plain"
        let exported = try helper.run(["export", "--plaintext", "-o", file])
        #expect(exported.exitCode == 0 && exported.stderrLines == [
            "exported 2 credentials in plaintext to \(file); left out 1 expired credential, which this format would make never expire (--format protocol keeps expiry and refresh tokens)",
            "1 credential lost its expiry, refresh token or authtype in this format (--format protocol keeps them)",
        ], "\(exported)")
        let written = Output(bytes: try #require(contents(of: file))).text
        #expect(!written.contains("expired-") && !written.contains("a.test"), "\(written)")
        #expect(try gitStoreAnswer("protocol=https", "host=a.test", file: file).isEmpty, "git answers an expired password")
        #expect(try gitStoreAnswer("protocol=https", "host=b.test", file: file)["password"] == "bob-token")

        // Imported elsewhere, the expired password is nowhere.
        let elsewhere = try Sandbox()
        let imported = try elsewhere.sqlite().run(["import", file])
        #expect(imported.exitCode == 0 && imported.stderrLines == ["read 2 credentials from \(file): 2 new, 0 replaced, 0 unchanged"], "\(imported)")
        expectSilentMiss(try elsewhere.sqlite().get(wire("protocol=https", "host=a.test")))
    }

    // MARK: git's credential format (export --plaintext --format protocol)

    /// Everything `get` answers comes back the same: the expiry, the refresh token of an
    /// expired token, an authtype credential, a path, and which of a host's users is answered.
    @Test func protocolFormatRoundTripsEverything() throws {
        let expiry = try storeExpiringToken(helper, host: "token.test")
        let later = Int(Date().timeIntervalSince1970) + 3600
        try helper.storeAll(wire("protocol=https", "host=a.test", "username=alice", "password=alice-old"),
                            wire("protocol=https", "host=a.test", "username=bob", "password=bob-secret",
                                 "password_expiry_utc=\(later)", "oauth_refresh_token=bob-refresh"),
                            wire("protocol=https", "host=p.test", "path=team/repo.git", "username=carol", "password=carol-secret"),
                            wire("capability[]=authtype", "protocol=https", "host=api.test", "authtype=Bearer", "credential=api-token"),
                            wire("protocol=https", "host=a.test", "username=alice", "password=alice-newest"))
        let file = sandbox.root + "/records"
        let exported = try helper.run(["export", "--plaintext", "--format", "protocol", "-o", file])
        #expect(exported.exitCode == 0, "\(exported)")

        let elsewhere = try Sandbox()
        let other = elsewhere.sqlite()
        let imported = try other.run(["import", file])
        #expect(imported.exitCode == 0 && imported.stderrLines == ["read 5 credentials from \(file): 5 new, 0 replaced, 0 unchanged"], "\(imported)")
        #expect(try other.run(["list", "--format", "json"]).stdoutText == (try helper.run(["list", "--format", "json"]).stdoutText))
        let requests = [
            wire("protocol=https", "host=a.test"),
            wire("protocol=https", "host=a.test", "username=bob"),
            wire("protocol=https", "host=p.test", "path=team/repo.git"),
            wire("capability[]=authtype", "protocol=https", "host=api.test"),
            wire("protocol=https", "host=token.test"),
            wire("capability[]=authtype", "protocol=https", "host=token.test"),
        ]
        for request in requests {
            let answer = try helper.get(request)
            #expect(answer.exitCode == 0 && !answer.stdout.isEmpty, "\(answer)")
            #expect(try other.get(request).stdoutLines == answer.stdoutLines, "\(Output(bytes: request))")
        }
        #expect(try other.get(wire("protocol=https", "host=a.test")).attributes["password"] == "alice-newest")
        #expect(try other.get(wire("protocol=https", "host=token.test")).stdoutLines
                == ["username=alice", "password_expiry_utc=\(expiry)", "oauth_refresh_token=refresh-1"])
        // Again: nothing changes.
        let again = try other.run(["import", file])
        #expect(again.stderrLines == ["read 5 credentials from \(file): 0 new, 0 replaced, 5 unchanged"], "\(again)")
    }

    /// A file of records is read record by record: a bad or incomplete record is named by
    /// its line, never quoted; an expired one without a refresh token is not imported (get
    /// would never answer it), and none of that loses the others.
    @Test func protocolFormatNamesWhatItLeavesOut() throws {
        let file = try sandbox.file("records", """
            protocol=https
            host=a.test
            username=alice
            password=alice-secret

            protocol=https
            host=b.test
            username=bob

            protocol=https
            host=c.test
            username=carol
            password=carol-secretword
            not a key value line

            protocol=https
            host=d.test
            username=dave
            password=dave-expired
            password_expiry_utc=1000

            protocol=https
            host=e.test
            username=erin
            password=erin-expired
            password_expiry_utc=1000
            oauth_refresh_token=erin-refresh

            protocol=https
            host=h.test
            username=hal
            password=hal-secret
            ephemeral=true
            """)
        let result = try helper.run(["import", file])
        #expect(result.exitCode == 0 && result.stderrLines == [
            "read 2 credentials from \(file): 2 new, 0 replaced, 0 unchanged; skipped 3 incomplete entries (lines 6, 10, 29); skipped 1 expired entry (line 16)",
            "not imported from \(file): line 6: no password",
            "not imported from \(file): line 10: not a credential as git writes one (line 14 has no '='; every line must be key=value)",
            "not imported from \(file): line 16: expired, and without a refresh token: get would never answer it",
            "not imported from \(file): line 29: marked ephemeral, which git never stores",
        ], "\(result)")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=h.test")))
        #expect(!result.stderrText.contains("secret") && !result.stderrText.contains("expired-"), "\(result)")
        #expect(try helper.password(for: wire("protocol=https", "host=a.test")) == "alice-secret")
        #expect(try helper.get(wire("protocol=https", "host=e.test")).attributes["oauth_refresh_token"] == "erin-refresh")
        expectSilentMiss(try helper.get(wire("protocol=https", "host=d.test")))
        // An expired entry is nothing lost: it does not keep the file; the incomplete ones do.
        let kept = try helper.run(["import", "--remove-source", file])
        #expect(kept.exitCode == 1 && kept.stderrLines.last?.hasSuffix("kept \(file): 3 entries in it were not imported (lines 6, 10, 29). Fix: move them by hand, then remove the file") == true, "\(kept)")
        let clean = try sandbox.file("clean", "protocol=https\nhost=f.test\nusername=fay\npassword=fay-secret\n\nprotocol=https\nhost=g.test\nusername=gil\npassword=old\npassword_expiry_utc=1000\n")
        let removed = try helper.run(["import", "--remove-source", clean])
        #expect(removed.exitCode == 0 && removed.stderrLines.last == "removed \(clean)" && !fileExists(clean), "\(removed)")
    }

    // MARK: duplicates: the first wins, as in git-credential-store

    @Test func ofTwoLinesForOneUserTheFirstWinsAsInGit() throws {
        let file = try sandbox.file("credentials", "https://a:p1@i1.test\nhttps://a:p1changed@i1.test\n")
        #expect(try gitStoreAnswer("protocol=https", "host=i1.test", file: file)["password"] == "p1")
        let first = try helper.run(["import", file])
        #expect(first.exitCode == 0 && first.stderrLines == [
            "read 1 credential from \(file): 1 new, 0 replaced, 0 unchanged; skipped 1 repeated entry (line 2)",
            "not imported from \(file): line 2 repeats line 1 with a different password or token: skipped, the first is the one git uses",
        ], "\(first)")
        #expect(try helper.password(for: wire("protocol=https", "host=i1.test")) == "p1")
        let exported = try helper.run(["export", "--plaintext", "-o", "-"])
        #expect(exported.stdoutLines == ["https://a:p1@i1.test"] && exported.stderrLines == ["exported 1 credential in plaintext to standard output"], "\(exported)")
        let again = try helper.run(["import", file])
        #expect(again.stderrLines.first == "read 1 credential from \(file): 0 new, 0 replaced, 1 unchanged; skipped 1 repeated entry (line 2)", "\(again)")
        // The file keeps a password that is in no store: --remove-source keeps it.
        let kept = try helper.run(["import", "--remove-source", file])
        #expect(kept.exitCode == 1 && kept.stderrLines.last
                == "git-credential-sqlite: kept \(file): line 2 repeats an earlier entry with a different password or token, not imported. Fix: remove the entries git should not use, then import again",
                "\(kept)")
        #expect(contents(of: file) == Array("https://a:p1@i1.test\nhttps://a:p1changed@i1.test\n".utf8))
        #expect(try helper.password(for: wire("protocol=https", "host=i1.test")) == "p1")
        // A line repeated as it is loses nothing: the file goes.
        let same = try sandbox.file("same", "https://a:p1@i1.test\nhttps://b:pb@i2.test\nhttps://a:p1@i1.test\n")
        let removed = try helper.run(["import", "--remove-source", same])
        #expect(removed.exitCode == 0 && removed.stderrLines == [
            "read 2 credentials from \(same): 1 new, 0 replaced, 1 unchanged; skipped 1 repeated entry (line 3)",
            "not imported from \(same): line 3 repeats line 1: skipped, the first is the one git uses",
            "removed \(same)",
        ], "\(removed)")
    }

    /// git reads ~/.git-credentials before $XDG_CONFIG_HOME/git/credentials and answers
    /// from the first file with a match; so does an import of both.
    @Test func acrossGitsFilesTheOneGitReadsFirstWins() throws {
        let home = try sandbox.file("home/.git-credentials", "https://a:from-home@x.test\n")
        let xdg = try sandbox.file("config/git/credentials", "https://a:from-xdg@x.test\nhttps://b:only-xdg@y.test\n")
        #expect(try gitStoreAnswer("protocol=https", "host=x.test")["password"] == "from-home")
        let result = try helper.run(["import"])
        #expect(result.exitCode == 0 && result.stderrLines == [
            "read 1 credential from \(home): 1 new, 0 replaced, 0 unchanged",
            "read 1 credential from \(xdg): 1 new, 0 replaced, 0 unchanged; skipped 1 repeated entry (line 1)",
            "not imported from \(xdg): line 1 repeats line 1 of \(home) with a different password or token: skipped, the first is the one git uses",
        ], "\(result)")
        #expect(try helper.password(for: wire("protocol=https", "host=x.test")) == "from-home")
        #expect(try helper.password(for: wire("protocol=https", "host=y.test")) == "only-xdg")
    }

    /// Of several users of a host, git answers a request without a username from the first
    /// line; the store answers the newest item, so the first line must be stored last.
    @Test func ofSeveralUsersOfAHostGetAnswersTheOneGitAnswers() throws {
        let file = try sandbox.file("credentials", "https://alice:pa@u.test\nhttps://bob:pb@u.test\n")
        #expect(try gitStoreAnswer("protocol=https", "host=u.test", file: file)["username"] == "alice")
        expectSuccess(try helper.run(["import", file]).withoutStderr)
        let answer = try helper.get(wire("protocol=https", "host=u.test"))
        #expect(answer.attributes["username"] == "alice" && answer.attributes["password"] == "pa", "\(answer)")
        #expect(try helper.password(for: wire("protocol=https", "host=u.test", "username=bob")) == "pb")
    }

    /// curl sends the first machine entry of a host: one repeated as it is is imported once
    /// (and says so); one with another password is not imported at all (as before).
    @Test func aRepeatedNetrcMachineIsImportedOnce() throws {
        let netrc = try sandbox.file("netrc", """
            machine n.test login nina password nina-secret
            machine m.test login max password max-secret
            machine n.test login nina password nina-secret
            machine m.test login max password max-other

            """)
        let result = try helper.run(["import", netrc])
        #expect(result.exitCode == 0 && result.stderrLines.prefix(2) == [
            "read 2 credentials from \(netrc): 2 new, 0 replaced, 0 unchanged; skipped 1 incomplete entry (line 4); skipped 1 repeated entry (line 3)",
            "not imported from \(netrc): line 3 repeats line 1: skipped, the first is the one git uses",
        ], "\(result)")
        #expect(result.stderrLines.count == 4 && result.stderrLines[2].hasPrefix("not imported from \(netrc): line 4: machine m.test: curl reads another"), "\(result)")
        #expect(result.stderrLines.last?.hasPrefix("note: each entry imported from \(netrc) now answers git for https://HOST only (nina at https://n.test, max at https://m.test); ") == true, "\(result)")
        #expect(try helper.password(for: wire("protocol=https", "host=m.test")) == "max-secret")
    }
}

/// A keyring may hold one user's item twice, in git's two schemas (ours and newer git's,
/// and git 2.39's helper's, used again after ours): `get` answers the newest, so an export
/// must list it first for an import to answer it too.
@Suite struct KeyringExportOrderTests: InKeyringWorld {
    let world: KeyringWorld

    @Test func anImportOfAKeyringsExportAnswersAsTheKeyringDoes() throws {
        try secretService.storeAll(wire("protocol=https", "host=k.test", "username=alice", "password=ours-older"))
        try secretTool.store(
            label: "Git: https://k.test/", secret: "theirs-newer", schema: "org.gnome.keyring.NetworkPassword",
            ["protocol": "https", "server": "k.test", "user": "alice"])
        let request = wire("protocol=https", "host=k.test")
        #expect(try secretService.password(for: request) == "theirs-newer")
        let file = sandbox.root + "/records"
        expectSuccess(try secretService("export", "--plaintext", "--format", "protocol", "-o", file).withoutStderr)
        let imported = try sandbox.sqlite().run(["import", file])
        #expect(imported.exitCode == 0 && imported.stderrLines.first
                == "read 1 credential from \(file): 1 new, 0 replaced, 0 unchanged; skipped 1 repeated entry (line 6)", "\(imported)")
        #expect(try sandbox.sqlite().password(for: request) == "theirs-newer")
    }
}
