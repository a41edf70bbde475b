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
    /// Alice's own folder (git/, her key alone) holding her github.com entry, and a team
    /// folder shared with Mallory, who can push and has cloned the store.
    func aliceWithHerOwnEntryAndATeamFolder() throws -> (alice: PasswordStore, mallory: PasswordStore, malloryKey: String) {
        let (alice, mallory, malloryKey) = try team()
        try alice.expectSuccess(alice.pass(["init", "-p", "git", alice.keys[0]]))
        try alice.expectSuccess(alice.pass(["init", "-p", "git/https/team.example", alice.keys[0], malloryKey]))
        #expect(try alice.helper("approve-keys").exitCode == 0)
        try alice.helper.storeAll(teamCI, wire("protocol=https", "host=github.com", "username=alice", "password=alices-own"))
        try join(mallory, from: alice)
        return (alice, mallory, malloryKey)
    }

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

    // MARK: Issue 26, the attack round: the README's recipe as written, alice, bob and mallory

    /// The README's team recipe ("A team's pass store"), read from the README itself so the
    /// two cannot drift: Alice's lines, then Bob's, each run by sh in that person's HOME,
    /// with the fingerprints, the key files and the server's URL filled in.
    static func recipe() throws -> (alice: [String], bob: [String]) {
        let readme = try String(contentsOfFile: SourceTree.root + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### A team's pass store").dropFirst().first)
        let block = section.components(separatedBy: "\n").drop { !$0.hasPrefix("    # Alice, once.") }
            .prefix { $0.isEmpty || $0.hasPrefix("    ") }.map { $0.dropFirst(4) }
        let bobStarts = try #require(block.firstIndex { $0.hasPrefix("# Bob, once.") })
        let commands = { (lines: ArraySlice<Substring>) in lines.map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") } }
        return (commands(block[..<bobStarts]), commands(block[bobStarts...]))
    }

    /// Alice and Bob (a passphrase key, as the attacker's bob had), set up by running the
    /// README's recipe; the server a bare repository.
    func teamByTheREADME() throws -> (alice: PasswordStore, bob: PasswordStore, bobsKey: String) {
        let alice = try PasswordStore(initialise: false), bob = try PasswordStore(initialise: false)
        let alicesKey = try alice.makeKey("Alice <alice@example.com>"), bobsKey = try bob.makeKey("Bob <bob@example.com>")
        let remote = alice.sandbox.root + "/team.git"
        try alice.expectSuccess(alice.sandbox.git(["init", "--quiet", "--bare", "--initial-branch=main", remote]))
        try alice.sandbox.file("home/bob.asc", try bob.gpg(["--batch", "--armor", "--export", bobsKey]).stdout.bytes)
        try bob.sandbox.file("home/alice.asc", try alice.gpg(["--batch", "--armor", "--export", alicesKey]).stdout.bytes)
        let (alicesLines, bobsLines) = try Self.recipe()
        func follow(_ lines: [String], as person: PasswordStore) throws {
            let environment = person.environment.merging(["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath]) { $1 }
            for line in lines {
                let command = line.replacingOccurrences(of: "ALICE-FINGERPRINT", with: alicesKey).replacingOccurrences(of: "BOB-FINGERPRINT", with: bobsKey)
                    .replacingOccurrences(of: "git@git.team.example:team/passwords.git", with: remote)
                let result = try person.sandbox.run("/bin/sh", ["-c", command], environment: environment)
                #expect(result.exitCode == 0, "the README's line \(line): \(result)")
                if result.exitCode != 0 { throw PasswordStoreSetupFailed(description: "the README's line \(line) failed: \(result)") }
            }
        }
        try follow(alicesLines, as: alice)
        try follow(bobsLines, as: bob)
        return (alice, bob, bobsKey)
    }

    /// Attack findings 1 and 2 (issue 26): the README's recipe failed at `pass git remote
    /// add` (no `pass git init`); doctor FAILed Bob, set up by it, with "none of the keys
    /// ... Fix: pass init -p git" (which re-encrypted Alice's own entry to Bob alone) and
    /// a round trip stored into git/, encrypted to Alice; and Bob's store of his own
    /// password into git/ went, silently, to Alice alone.
    @Test func theREADMEsRecipeAsWrittenAndBobsDoctor() throws {
        let (alice, bob, _) = try teamByTheREADME()
        let team = wire("protocol=https", "host=git.team.example", "username=ci", "password=shared-1")
        try alice.helper.storeAll(team, wire("protocol=https", "host=github.com", "username=alice", "password=alices-own"))
        #expect(try alice.helper("sync").exitCode == 0)
        #expect(try bob.helper("sync").exitCode == 0)
        #expect(try bob.helper.password(for: wire("protocol=https", "host=git.team.example")) == "shared-1")

        let doctor = try bob.helper("doctor")
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("ok    gpg key: your secret key reads git/https/git.team.example/") }, "\(doctor)")
        #expect(!doctor.stdoutText.contains("FAIL  gpg key") && !doctor.stdoutText.contains("pass init -p git "), "\(doctor)")
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("ok    round trip: stored") }, "\(doctor)")
        #expect(!doctor.stdoutText.contains("FAIL  round trip"), "\(doctor)")

        // Bob's own password into git/ (Alice's alone): refused, in one line, nothing written.
        let bobs = try bob.helper.store(wire("protocol=https", "host=github.com", "username=bob", "password=bobs-own"))
        #expect(bobs.exitCode == 1 && bobs.stderrLines.count == 1, "\(bobs)")
        #expect(bobs.stderrText.contains("git/https/github.com/bob would be encrypted to") && bobs.stderrText.contains("none of them a key whose secret key you hold")
                && bobs.stderrText.contains("Fix: keep this host's credentials in a helper of your own"), "\(bobs)")
        #expect(!bob.entryNames().contains("git/https/github.com/bob"))
        // The team's folder, his to read, stores as before.
        try bob.helper.storeAll(wire("protocol=https", "host=git.team.example", "username=deploy", "password=from-bob"))

        // With no key of his in any folder, doctor FAILs, and its Fix re-encrypts nobody's entries.
        try bob.expectSuccess(bob.gpg(["--batch", "--yes", "--delete-secret-keys", bob.keys[0]]))
        let keyless = try bob.helper("doctor")
        #expect(keyless.stdoutLines.contains { $0.hasPrefix("FAIL  gpg key: ") && $0.contains("Fix: import your secret key (gpg --import)") }, "\(keyless)")
        #expect(!keyless.stdoutText.contains("pass init -p git ") && keyless.stdoutText.contains("warn  round trip: not tried: no folder of the password store is encrypted to a key of yours"), "\(keyless)")
    }

    /// Attack finding 3 (issue 26): Mallory, who can push, copied the team's .gpg-id into
    /// Alice's own folder; the store's refusal said "if you trust them, run approve-keys",
    /// which approved it with everything else. approve-keys shows what changed, holds a
    /// .gpg-id that would share a folder of the person's own entries until it is named, and
    /// the refusal says how to refuse it too.
    @Test func approveKeysShowsAndHoldsAFolderOfYourOwnMadeShared() throws {
        let (alice, mallory, malloryKey) = try aliceWithHerOwnEntryAndATeamFolder()

        let mine = "git/https/github.com/.gpg-id"
        try FileManager.default.copyItem(atPath: mallory.storeDirectory + "/git/https/team.example/.gpg-id", toPath: mallory.storeDirectory + "/" + mine)
        try mallory.expectSuccess(mallory.pass(["git", "add", mine]))
        try mallory.expectSuccess(mallory.pass(["git", "commit", "--quiet", "-m", "tidy"]))
        #expect(try mallory.helper("sync").exitCode == 0)
        #expect(try alice.helper("sync").exitCode == 0)

        let refused = try alice.helper.store(wire("protocol=https", "host=github.com", "username=alice", "password=new"))
        #expect(refused.exitCode == 1 && refused.stderrLines.count == 1, "\(refused)")
        #expect(refused.stderrText.contains("to refuse it, pass git revert COMMIT") && refused.stderrText.contains("to approve it: git-credential-pass approve-keys \(mine)")
                && !refused.stderrText.contains("if you trust them"), "\(refused)")

        let reviewed = try alice.helper("approve-keys", "--review")
        #expect(reviewed.exitCode == 0 && reviewed.stdoutLines.contains { $0.hasPrefix("\(alice.storeDirectory)/\(mine): ") && $0.contains("[new]")
            && $0.contains("warning: git/https/github.com/ was encrypted to you alone (1 entries of yours), and what is stored there from now on is also encrypted to \(malloryKey)") }, "\(reviewed)")
        #expect(reviewed.stdoutLines.contains("\(alice.storeDirectory)/git/.gpg-id: \(alice.keys[0]) [unchanged]"), "\(reviewed)")
        let all = try alice.helper("approve-keys")
        #expect(all.exitCode == 1 && all.stdoutLines.contains { $0.hasPrefix("NOT approved \(alice.storeDirectory)/\(mine): ") }, "\(all)")
        #expect(all.stderrLines.count == 1 && all.stderrText.contains("would share a folder of your own entries with others, so it was not approved"), "\(all)")
        #expect(try alice.helper.store(wire("protocol=https", "host=github.com", "username=alice", "password=new")).exitCode == 1)
        #expect(try recipients(of: "git/https/github.com/alice", in: alice) == 1)

        // Named, it is approved: the person's own choice.
        let named = try alice.helper("approve-keys", "git/https/github.com")
        #expect(named.exitCode == 0 && named.stdoutLines.count == 1 && named.stdoutLines[0].hasPrefix("approved \(alice.storeDirectory)/\(mine): "), "\(named)")
        try alice.helper.storeAll(wire("protocol=https", "host=github.com", "username=alice", "password=new"))
        #expect(try recipients(of: "git/https/github.com/alice", in: alice) == 2)
    }

    /// Attack findings 4 and 7 (issue 26): a .gpg-id that is a symbolic link was approved
    /// for what it points to, and doctor said ok; a fingerprint not in the keyring was
    /// approved without a word.
    @Test func approveKeysRefusesALinkedGpgIdAndAMissingKey() throws {
        let (alice, _, bobsKey) = try team()
        try alice.expectSuccess(alice.pass(["init", "-p", "git", alice.keys[0]]))
        try alice.expectSuccess(alice.pass(["init", "-p", "git/https/team.example", alice.keys[0], bobsKey]))
        #expect(try alice.helper("approve-keys").exitCode == 0)
        try FileManager.default.createDirectory(atPath: alice.storeDirectory + "/git/https/github.com", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: alice.storeDirectory + "/git/https/github.com/.gpg-id", withDestinationPath: "../team.example/.gpg-id")

        let approved = try alice.helper("approve-keys")
        #expect(approved.exitCode == 1 && approved.stderrLines.count == 1 && approved.stderrText.contains("git/https/github.com/.gpg-id is a symbolic link"), "\(approved)")
        #expect(approved.stderrText.contains("Fix: a .gpg-id is a regular file of yours, one key a line: check who put it there") && approved.stderrText.contains("pass git rm --quiet -- git/https/github.com/.gpg-id"), "\(approved)")
        let doctor = try alice.helper("doctor")
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("FAIL  approved keys: ") && $0.contains("is a symbolic link") }, "\(doctor)")
        #expect(!doctor.stdoutText.contains("cp ") && !doctor.stdoutText.contains("what it points to"), "\(doctor)")
        // The Fix, followed (the link is untracked here: rm alone), and approve-keys is content.
        try FileManager.default.removeItem(atPath: alice.storeDirectory + "/git/https/github.com/.gpg-id")
        #expect(try alice.helper("approve-keys").exitCode == 0)

        // A fingerprint gpg does not have: said, with gpg --import.
        let absent = String(repeating: "AB12", count: 10)
        try "\(alice.keys[0])\n\(absent)\n".write(toFile: alice.storeDirectory + "/git/https/team.example/.gpg-id", atomically: true, encoding: .utf8)
        let missing = try alice.helper("approve-keys", "git/https/team.example")
        #expect(missing.exitCode == 1 && missing.stderrLines.count == 1 && missing.stderrText.contains("names the key \(absent), which is not in your keyring")
                && missing.stderrText.contains("Fix: import it (gpg --import"), "\(missing)")
    }

    /// Attack findings 5 and 7 (issue 26): whoever can push replaced an entry of Alice's
    /// own (encrypted to her public key) and sync said only "pulled 1 change". It names
    /// each entry a pull added, changed or removed; a .gpg-id outside git/ is not said.
    @Test func syncNamesTheEntriesAPullChanged() throws {
        let (alice, mallory, malloryKey) = try aliceWithHerOwnEntryAndATeamFolder()
        // Mallory replaces Alice's own entry with one of hers, encrypted to Alice's key.
        let forged = try mallory.gpg(["--batch", "--trust-model", "always", "--encrypt", "-r", alice.keys[0]],
                                     input: Array("mallorys-pick\nusername: alice\n".utf8))
        try ChildProcess.writeFile(mallory.storeDirectory + "/git/https/github.com/alice.gpg", forged.stdout.bytes, mode: 0o600)
        try mallory.expectSuccess(mallory.pass(["git", "commit", "--quiet", "-am", "tidy"]))
        try mallory.expectSuccess(mallory.pass(["git", "rm", "--quiet", "git/https/team.example/ci.gpg"]))
        try mallory.expectSuccess(mallory.pass(["git", "commit", "--quiet", "-m", "tidy"]))
        try mallory.helper.storeAll(wire("protocol=https", "host=team.example", "username=new one", "password=n"))
        // A .gpg-id outside git/ (pass's other passwords) is no concern of the helper's.
        try mallory.expectSuccess(mallory.pass(["init", "-p", "personal", malloryKey]))
        // A name with a control character is shown quoted, as git quotes paths.
        try ChildProcess.writeFile(mallory.storeDirectory + "/git/https/team.example/x\ty.gpg", forged.stdout.bytes, mode: 0o600)
        try mallory.expectSuccess(mallory.pass(["git", "add", "git/https/team.example/x\ty.gpg"]))
        try mallory.expectSuccess(mallory.pass(["git", "commit", "--quiet", "-m", "tidy"]))
        #expect(try mallory.helper("sync").exitCode == 0)

        let pulled = try alice.helper("sync")
        #expect(pulled.exitCode == 0 && pulled.stderrLines.count == 1, "\(pulled)")
        #expect(!pulled.stderrText.contains(".gpg-id") && !pulled.stderrText.contains("personal"), "\(pulled)")
        #expect(pulled.stderrText.contains("; entries added: git/https/team.example/new%20one, \"git/https/team.example/x\\ty\"; changed: git/https/github.com/alice; removed: git/https/team.example/ci"), "\(pulled)")
    }

    /// Attack finding 6 (issue 26): a FIFO named *.gpg blocked erase HOST and erase-all
    /// (exit 1, nothing erased), and the Fix, pass rm, failed too.
    @Test func aFifoEntryIsErasedWithTheRest() throws {
        let store = try PasswordStore()
        try store.helper.storeAll(wire("protocol=https", "host=h.example", "username=u", "password=p"),
                                  wire("protocol=https", "host=other.example", "username=u", "password=p"))
        #expect(mkfifo(store.storeDirectory + "/git/https/h.example/fifo.gpg", 0o600) == 0)
        let listed = try store.helper("list", "h.example")
        #expect(listed.stdoutText.contains("unreadable"), "\(listed)")
        let erased = try store.helper("erase", "h.example")
        #expect(erased.exitCode == 0 && erased.stderrText == "erased 2 credentials\n", "\(erased)")
        #expect(!FileManager.default.fileExists(atPath: store.storeDirectory + "/git/https/h.example/fifo.gpg"))
        #expect(mkfifo(store.storeDirectory + "/git/https/other.example/fifo.gpg", 0o600) == 0)
        let all = try store.helper("erase-all", "--yes")
        #expect(all.exitCode == 0 && all.stderrText == "erased 2 credentials\n", "\(all)")
        #expect(store.entryNames().isEmpty)
    }

    /// Attack finding 7 (issue 26): with the key locked and no terminal, list printed
    /// nothing and exited 1. It prints the header and the rows, those it cannot decrypt
    /// marked unreadable, and one line saying why, with a Fix that works.
    @Test func listWithALockedKeyShowsWhatItCan() throws {
        let store = try PasswordStore(passphrase: "key-passphrase")
        try store.helper.storeAll(wire("protocol=https", "host=a.example", "username=alice", "password=1"),
                                  wire("protocol=https", "host=b.example", "username=bob", "password=2"))
        try store.expectSuccess(store.sandbox.run("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: store.environment))
        let listed = try store.helper("list")
        #expect(listed.exitCode == 0 && listed.stdoutLines.count == 3, "\(listed)")
        #expect(listed.stdoutLines.dropFirst().allSatisfy { $0.contains("unreadable") } && listed.stdoutText.contains("a.example") && listed.stdoutText.contains("b.example"), "\(listed)")
        #expect(listed.stderrLines.count == 1 && listed.stderrText.contains("warning: gpg-agent needs the passphrase of your gpg key to decrypt ")
                && listed.stderrText.contains("; the entries that need your key are listed as unreadable")
                && listed.stderrText.contains("Fix: run git-credential-pass list in a terminal"), "\(listed)")
    }
}
