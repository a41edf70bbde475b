import Foundation
import Testing

/// A team's pass store, by the README's recipe ("A team's pass store"): two people, each
/// with a HOME and a keyring of their own, pushing to one bare repository; their keys
/// imported from each other and certified by no one, as in a small team.
@Suite struct PassTeamTests {
    let teamCI = wire("protocol=https", "host=team.example", "username=ci", "password=shared-1")

    /// Alice's store, with a remote, and Bob, who has her public key as she has his.
    func team() throws -> (alice: PasswordStore, bob: PasswordStore, bobsKey: String) {
        let alice = try PasswordStore(), bob = try PasswordStore(initialise: false)
        let bobsKey = try bob.makeKey("Bob <bob@example.com>")
        try alice.importKey(of: bob, bobsKey)
        try bob.importKey(of: alice, alice.keys[0])
        let remote = alice.sandbox.root + "/team.git"
        try alice.expectSuccess(alice.sandbox.git(["init", "--quiet", "--bare", "--initial-branch=main", remote]))
        try alice.expectSuccess(alice.pass(["git", "remote", "add", "origin", remote]))
        return (alice, bob, bobsKey)
    }

    /// Bob clones what Alice pushed, and approves its keys after checking them.
    func join(_ bob: PasswordStore, from alice: PasswordStore) throws {
        let pushed = try alice.helper("sync")
        #expect(pushed.exitCode == 0, "\(pushed)")
        try bob.expectSuccess(bob.sandbox.git(["clone", "--quiet", alice.sandbox.root + "/team.git", bob.storeDirectory]))
        let approved = try bob.helper("approve-keys")
        #expect(approved.exitCode == 0 && approved.stdoutText.contains(alice.keys[0]), "\(approved)")
    }

    /// Encrypted to how many keys (gpg's packets).
    func recipients(of entry: String, in store: PasswordStore) throws -> Int {
        let packets = try store.gpg(["--batch", "--list-packets", store.storeDirectory + "/" + entry + ".gpg"])
        return packets.stdoutLines.filter { $0.hasPrefix(":pubkey enc packet:") }.count
    }

    /// Issue 26: after `pass init -p git ME MATE` and approve-keys, every store failed with
    /// gpg's "There is no assurance this key belongs to the named user", and its Fix never
    /// helped. An approved key is encrypted to as approved (by fingerprint); a key nobody
    /// approved is refused as before; a failed store leaves no directory behind.
    @Test func theRecipeWorksWithATeammatesKeyNobodyCertified() throws {
        let (alice, bob, bobsKey) = try team()
        try alice.expectSuccess(alice.pass(["init", "-p", "git", alice.keys[0], bobsKey]))
        let approved = try alice.helper("approve-keys")
        #expect(approved.exitCode == 0 && approved.stdoutText.contains(bobsKey), "\(approved)")
        let stored = try alice.helper.store(teamCI)
        #expect(stored.exitCode == 0 && stored.stderr.isEmpty, "\(stored)")
        #expect(try recipients(of: "git/https/team.example/ci", in: alice) == 2)
        // doctor's round trip encrypts as a store does: to the approved keys.
        let doctor = try alice.helper("doctor")
        #expect(doctor.stdoutLines.contains("ok    round trip: stored, read back and erased a test credential"), "\(doctor)")

        try join(bob, from: alice)
        #expect(try bob.helper.password(for: wire("protocol=https", "host=team.example")) == "shared-1")
        let bobs = try bob.helper.store(wire("protocol=https", "host=team.example", "username=deploy", "password=from-bob"))
        #expect(bobs.exitCode == 0 && bobs.stderr.isEmpty, "\(bobs)")
        #expect(try bob.helper("sync").exitCode == 0)
        #expect(try alice.helper("sync").exitCode == 0)
        #expect(try alice.helper.password(for: wire("protocol=https", "host=team.example", "username=deploy")) == "from-bob")
        // pass itself reads what the helper stored.
        #expect(try alice.pass(["show", "git/https/team.example/deploy"]).stdoutLines.first == "from-bob")

        // A key added to .gpg-id without approval is still refused, and nothing is left.
        let carol = try alice.makeKey("Carol <carol@example.com>")
        try "\(alice.keys[0])\n\(bobsKey)\n\(carol)\n".write(toFile: alice.storeDirectory + "/git/.gpg-id", atomically: true, encoding: .utf8)
        let refused = try alice.helper.store(wire("protocol=https", "host=new.example", "username=u", "password=p"))
        #expect(refused.exitCode == 1 && refused.stderrLines.count == 1 && refused.stderrText.contains("git-credential-pass approve-keys"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: alice.storeDirectory + "/git/https/new.example"))

        // gpg fails (the approved key is gone from the keyring): no empty directory behind.
        try "\(alice.keys[0])\n\(bobsKey)\n".write(toFile: alice.storeDirectory + "/git/.gpg-id", atomically: true, encoding: .utf8)
        try alice.expectSuccess(alice.gpg(["--batch", "--yes", "--delete-keys", bobsKey]))
        let failed = try alice.helper.store(wire("protocol=https", "host=new.example", "path=a/b.git", "username=u", "password=p"))
        #expect(failed.exitCode == 1 && failed.stderrLines.count == 1 && failed.stderrText.contains("pass could not store"), "\(failed)")
        #expect(!FileManager.default.fileExists(atPath: alice.storeDirectory + "/git/https/new.example"), "a failed store left its directories")
        #expect(FileManager.default.fileExists(atPath: alice.storeDirectory + "/git/https"))
    }

    /// The README's team sub-folder: the team's host has its own .gpg-id; git/ stays
    /// Alice's alone. get, store, list, sync and approve-keys each work with it.
    @Test func aTeamFolderSharesItsHostAndNothingElse() throws {
        let (alice, bob, bobsKey) = try team()
        try alice.expectSuccess(alice.pass(["init", "-p", "git", alice.keys[0]]))
        try alice.expectSuccess(alice.pass(["init", "-p", "git/https/team.example", alice.keys[0], bobsKey]))
        let approved = try alice.helper("approve-keys")
        #expect(approved.stdoutLines.contains { $0.contains("/git/https/team.example/.gpg-id: ") && $0.contains(bobsKey) }, "\(approved)")
        #expect(approved.stdoutLines.contains { $0.contains("/git/.gpg-id: ") && !$0.contains(bobsKey) }, "\(approved)")
        try alice.helper.storeAll(teamCI, wire("protocol=https", "host=github.com", "username=alice", "password=alices-own"))
        #expect(try recipients(of: "git/https/team.example/ci", in: alice) == 2)
        #expect(try recipients(of: "git/https/github.com/alice", in: alice) == 1)

        try join(bob, from: alice)
        #expect(try bob.helper.password(for: wire("protocol=https", "host=team.example")) == "shared-1")
        #expect(try bob.helper.password(for: wire("protocol=https", "host=github.com")) == nil)
        let listed = try bob.helper("list")
        #expect(listed.exitCode == 0 && listed.stdoutText.contains("team.example") && !listed.stdoutText.contains("github.com"), "\(listed)")
        // Bob's git asks pass for the team's URL only (the README's line), and a new entry
        // of the team's host goes to the team's folder, whoever stores it.
        try bob.expectSuccess(bob.sandbox.git(["config", "--global", "credential.https://team.example.helper", BuiltProducts.passHelper]))
        let gits = bob.environment.merging(["GIT_TERMINAL_PROMPT": "0"]) { $1 }
        let filled = try bob.sandbox.git(["credential", "fill"], input: wire("protocol=https", "host=team.example"), environment: gits)
        #expect(filled.stdoutLines.contains("password=shared-1"), "\(filled)")
        try bob.expectSuccess(bob.sandbox.git(["credential", "approve"], input: wire("protocol=https", "host=team.example", "username=deploy", "password=from-bob"),
                                              environment: gits))
        #expect(try recipients(of: "git/https/team.example/deploy", in: bob) == 2)
        #expect(try bob.helper("sync").exitCode == 0)
        #expect(try alice.helper("sync").exitCode == 0)
        #expect(try alice.helper.password(for: wire("protocol=https", "host=team.example", "username=deploy")) == "from-bob")
        let doctor = try alice.helper("doctor")
        let storeLine = try #require(doctor.stdoutLines.first { $0.hasPrefix("ok    password store: ") }, "\(doctor)")
        let folder = try #require(storeLine.components(separatedBy: "; git/https/team.example/ to ").last, "\(storeLine)")
        #expect(Set(folder.components(separatedBy: ", ")) == [alice.keys[0], bobsKey], "\(storeLine)")
        let alicesList = try alice.helper("list")
        #expect(alicesList.stdoutText.contains("github.com") && alicesList.stdoutText.contains("deploy"), "\(alicesList)")
    }

    /// Issue 26: doctor FAILed a healthy setup whose key has a passphrase gpg-agent did not
    /// hold ("no terminal here", said at a terminal), its Fix naming doctor's own throwaway
    /// entry. Normal at a terminal; elsewhere a warning whose Fix, followed, clears it.
    @Test func aPassphraseGpgAgentWillAskForIsNoFailure() throws {
        let store = try PasswordStore(passphrase: "key-passphrase")
        try store.helper.storeAll(wire("protocol=https", "host=git.example", "username=alice", "password=alice-secret"))
        let pinentry = try store.sandbox.file("pinentry", PassHelperTests.terminalPinentry, mode: 0o700)
        try store.sandbox.file("gnupg/gpg-agent.conf", "pinentry-program \(pinentry)\n")
        try store.expectSuccess(store.sandbox.run("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: store.environment))

        let atTerminal = try store.sandbox.atTerminal(BuiltProducts.passHelper, ["doctor"], answers: [], stderrOnTerminal: true,
                                                      environment: store.environment.merging(["TERM": "dumb"]) { $1 })
        #expect(atTerminal.stdout.contains("ok    round trip: stored a test credential; reading it back needs the passphrase of your gpg key"), "\(atTerminal)")
        #expect(!atTerminal.stdout.contains("FAIL  round trip") && !atTerminal.stdout.contains("git-credential-doctor.invalid"), "\(atTerminal)")

        let elsewhere = try store.helper("doctor")
        #expect(elsewhere.stdoutText.contains("warn  round trip: stored a test credential; reading it back needs the passphrase"), "\(elsewhere)")
        #expect(elsewhere.stdoutText.contains("Fix: run git-credential-pass list in a terminal"), "\(elsewhere)")
        #expect(!elsewhere.stdoutText.contains("FAIL  round trip") && !elsewhere.stdoutText.contains("git-credential-doctor.invalid"), "\(elsewhere)")
        // The Fix, followed: list in a terminal asks for the passphrase, and doctor is content.
        let listed = try store.sandbox.atTerminal(BuiltProducts.passHelper, ["list"], answers: ["key-passphrase"], stderrOnTerminal: true,
                                                  environment: store.environment.merging(["TERM": "dumb"]) { $1 })
        #expect(listed.code == 0 && listed.terminal.contains("Passphrase for gpg:") && listed.stdout.contains("alice"), "\(listed)")
        let after = try store.helper("doctor")
        #expect(after.stdoutText.contains("ok    round trip: stored, read back and erased"), "\(after)")
    }

    /// Issue 26: list HOST, erase HOST and TAB completion decrypted every entry (17: 5.6 s,
    /// completion killed after 2 s; erase of a host with no entry popped pinentry). Names
    /// say host, port, path and user: only the asked host's entries are decrypted. gpg's
    /// runs are counted by a gpg of the test's that logs each decryption.
    @Test func onlyTheEntriesOfTheHostAskedForAreDecrypted() throws {
        let store = try PasswordStore()
        for index in 0..<15 {
            try store.helper.storeAll(wire("protocol=https", "host=h\(index % 5).example", "username=u\(index)", "password=p\(index)"))
        }
        try store.helper.storeAll(teamCI, wire("protocol=ssh", "host=team.example:2222", "username=deploy", "password=d"))
        let bin = try store.sandbox.ownDirectory() + "/counting-bin", log = store.sandbox.root + "/decryptions"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        let wrapper = "#!/bin/sh\ncase \" $* \" in *\" --decrypt \"*|*\" -d \"*) echo decrypt >> \(log);; esac\nexec /usr/bin/gpg \"$@\"\n"
        try ChildProcess.writeFile(bin + "/gpg", Array(wrapper.utf8), mode: 0o700)
        let helper = PassHelperProcess(store: store, environment: ["PATH": bin + ":" + Sandbox.searchPath])
        func decryptions(_ run: () throws -> ProcessResult) throws -> (Int, ProcessResult) {
            try? FileManager.default.removeItem(atPath: log)
            let result = try run()
            let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").count ?? 0
            return (lines, result)
        }
        // The wrapper is the gpg run: a full list decrypts all 17 (it shows each expiry).
        let (all, listed) = try decryptions { try helper("list") }
        #expect(all == 17 && listed.stdoutLines.count == 1 + 17, "\(all): \(listed)")

        let (completing, offered) = try decryptions {
            try helper.invoke(["---completion", "erase", "--", "positional@0", "2", "0", "git-credential-pass", "erase", ""], input: [])
        }
        #expect(completing == 0 && offered.stdoutLines.contains("team.example") && offered.stdoutLines.contains("h4.example"), "\(completing): \(offered)")
        let (host, hostList) = try decryptions { try helper("list", "team.example") }
        #expect(host == 2 && hostList.stdoutLines.count == 1 + 2, "\(host): \(hostList)")
        let (none, erasedNone) = try decryptions { try helper("erase", "nothing.example") }
        #expect(none == 0 && erasedNone.stderrText == "erased 0 credentials\n", "\(none): \(erasedNone)")
        let (erasing, erased) = try decryptions { try helper("erase", "h1.example") }
        #expect(erasing > 0 && erasing <= 6 && erased.stderrText == "erased 3 credentials\n", "\(erasing): \(erased)")
        #expect(store.entryNames().count == 14)
    }

    /// Issue 26: sync's error kept only the last line of git's message ("cannot fetch from
    /// origin: and the repository exists."): git's cause is its fatal: line.
    @Test func syncSaysWhyGitFailed() throws {
        let store = try PasswordStore()
        try store.expectSuccess(store.pass(["git", "remote", "add", "origin", store.sandbox.root + "/no-such-repository.git"]))
        let sync = try store.helper("sync")
        #expect(sync.exitCode == 1 && sync.stderrLines.count == 1, "\(sync)")
        #expect(sync.stderrText.contains("cannot fetch from origin: fatal: '\(store.sandbox.root)/no-such-repository.git' does not appear to be a git repository"), "\(sync)")
        #expect(sync.stderrText.contains("Fix: check that pass git fetch origin works"), "\(sync)")
    }
}
