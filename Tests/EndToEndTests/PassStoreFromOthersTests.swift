import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A synced password store holds what whoever can push to its remote put there (issue 23):
/// a teammate, or an intruder in the remote. Each test has a teammate push something to the
/// shared bare repository, and the victim pull it with `sync`, as a team works.
@Suite struct PassStoreFromOthersTests {
    let alice = wire("protocol=https", "host=git.example", "username=alice", "password=alice-secret")
    let request = wire("protocol=https", "host=git.example")

    /// The victim has stored alice and synced; the teammate has pulled that.
    func team() throws -> (teammate: PasswordStore, victim: PasswordStore) {
        let (teammate, victim, _) = try PassHelperTests().twoMachines()
        try victim.helper.storeAll(alice)
        #expect(try victim.helper("sync").exitCode == 0)
        #expect(try teammate.helper("sync").exitCode == 0)
        return (teammate, victim)
    }

    /// The teammate commits what `make` puts in their store's git/https/git.example, pushes,
    /// and the victim pulls it.
    func push(from teammate: PasswordStore, to victim: PasswordStore, _ make: (String) throws -> Void) throws {
        let directory = teammate.storeDirectory + "/git/https/git.example"
        try make(directory)
        try teammate.expectSuccess(teammate.pass(["git", "add", "-A"]))
        try teammate.expectSuccess(teammate.pass(["git", "commit", "--quiet", "-m", "team change"]))
        let pushed = try teammate.helper("sync")
        #expect(pushed.exitCode == 0, "\(pushed)")
        let pulled = try victim.helper("sync")
        #expect(pulled.exitCode == 0, "\(pulled)")
    }

    /// Attack finding (issue 23): a link pushed as bob.gpg made the next store for bob
    /// overwrite the file it points to (pass's `gpg -o` follows it), and exit 0.
    @Test func aLinkPushedAsAnEntryIsNeitherWrittenThroughNorReadAndCanBeErased() throws {
        let (teammate, victim) = try team()
        let target = try victim.sandbox.file("home/.bashrc", "the victim's own file\n")
        try push(from: teammate, to: victim) { directory in
            try FileManager.default.createSymbolicLink(atPath: directory + "/bob.gpg", withDestinationPath: target)
        }
        let link = victim.storeDirectory + "/git/https/git.example/bob.gpg"
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target)

        let stored = try victim.helper.store(wire("protocol=https", "host=git.example", "username=bob", "password=bob-secret"))
        #expect(stored.exitCode == 1 && stored.stderrLines.count == 1, "\(stored)")
        #expect(stored.stderrText.contains("\(link) is a symbolic link, and nothing is written through a link or into what others could have made. Fix: "), "\(stored)")
        #expect(stored.stderrText.contains("rm \(link)"), "\(stored)")
        #expect(contents(of: target) == Array("the victim's own file\n".utf8), "the store wrote through the link")

        // The others of the host still answer; the link is named, and erase removes it.
        #expect(try victim.helper.password(for: request) == "alice-secret")
        let list = try victim.helper.list()
        #expect(list.exitCode == 0 && list.stdoutLines.contains { $0.contains("bob") && $0.contains("unreadable") }, "\(list)")
        #expect(list.stderrText.contains("the entry for bob at git.example cannot be read (\(link) is a symbolic link)"), "\(list)")
        let erased = try victim.helper("erase", "https://bob@git.example")
        #expect(erased.exitCode == 0, "\(erased)")
        #expect(!fileExists(link) && contents(of: target) == Array("the victim's own file\n".utf8))
        try victim.helper.storeAll(wire("protocol=https", "host=git.example", "username=bob", "password=bob-secret"))
        #expect(try victim.helper.password(for: wire("protocol=https", "host=git.example", "username=bob")) == "bob-secret")
    }

    /// Attack finding (issue 23): one broken entry (6 bytes: a compressed packet cut short)
    /// made get fail for every credential of its host, and list, export, erase HOST and
    /// erase-all fail too; a 240-byte entry of nested compressed packets held git for the
    /// whole time limit. Each is passed over, named by list, and erased.
    @Test func aBrokenEntryAndACompressionBombHideNothingAndCanBeErased() throws {
        let (teammate, victim) = try team()
        try push(from: teammate, to: victim) { directory in
            try ChildProcess.writeFile(directory + "/carol.gpg", [0xA3, 0x02, 0x78, 0x9C, 0x01, 0x02], mode: 0o600)
            let bomb = try teammate.sandbox.run("/bin/sh", ["-c", "python3 \"$1\" 3 536870912 > \"$2\"", "sh",
                                                            SourceTree.root + "/Tests/Fixtures/openpgp_bomb.py", directory + "/dave.gpg"])
            try teammate.expectSuccess(bomb)
        }
        // Newer than alice: a get of the host reads them first.
        #expect(try victim.helper.password(for: request) == "alice-secret")
        #expect(try victim.helper.password(for: wire("protocol=https", "host=git.example", "username=alice")) == "alice-secret")
        let dave = try victim.helper.get(wire("protocol=https", "host=git.example", "username=dave"))
        #expect(dave.exitCode == 0 && dave.stdout.isEmpty && dave.stderr.isEmpty, "\(dave)")

        let list = try victim.helper.list()
        #expect(list.exitCode == 0, "\(list)")
        for name in ["carol", "dave"] {
            #expect(list.stdoutLines.contains { $0.contains(name) && $0.contains("unreadable") }, "\(name): \(list)")
        }
        #expect(list.stderrText.contains("the entry for dave at git.example cannot be read (it decrypts to more than a credential (over 1 MiB))"), "\(list)")
        #expect(list.stderrText.contains("the entry for carol at git.example cannot be read (it is no OpenPGP data)"), "\(list)")
        let json = try victim.helper("list", "--format", "json")
        #expect(json.stdoutText.contains(#""username": "carol", "password_expiry_utc": null, "expires": null, "backend": "pass", "unreadable": "it is no OpenPGP data"}"#), "\(json)")

        let exported = try victim.helper("export", "--plaintext", "--format", "protocol")
        #expect(exported.exitCode == 0 && exported.stdoutText.contains("password=alice-secret"), "\(exported)")

        let erased = try victim.helper("erase", "git.example")
        #expect(erased.exitCode == 0, "\(erased)")
        #expect(victim.entryNames().isEmpty, "\(victim.entryNames())")
    }

    /// Attack finding: pass rm tests an entry with -f, which follows a link: a link to
    /// nothing was "not in the password store", and it stopped erase HOST and erase-all.
    @Test func eraseAllRemovesABrokenEntryAndALinkToNothing() throws {
        let (teammate, victim) = try team()
        try push(from: teammate, to: victim) { directory in
            try ChildProcess.writeFile(directory + "/carol.gpg", Array("no OpenPGP at all\n".utf8), mode: 0o600)
            try FileManager.default.createSymbolicLink(atPath: directory + "/eve.gpg", withDestinationPath: "/nonexistent/target")
        }
        let erased = try victim.helper("erase-all", "--yes")
        #expect(erased.exitCode == 0 && erased.stderrText == "erased 3 credentials\n", "\(erased)")
        #expect(victim.entryNames().isEmpty && !fileExists(victim.storeDirectory + "/git/https/git.example/eve.gpg"))
        // Each removal committed, as pass commits its own: the next sync erases them for the team.
        let status = try victim.pass(["git", "status", "--porcelain"])
        #expect(status.exitCode == 0 && status.stdout.isEmpty, "\(status)")
        #expect(try victim.helper("sync").exitCode == 0)
        #expect(try teammate.helper("sync").exitCode == 0)
        #expect(teammate.entryNames().isEmpty && !fileExists(teammate.storeDirectory + "/git/https/git.example/eve.gpg"))
    }

    /// Attack finding: 5,000 entries pushed under one host made every get of it decrypt
    /// them all (56 s). A get reads newest first and stops at the first that answers.
    @Test func aGetDecryptsNewestFirstAndStopsAtTheAnswer() throws {
        let (teammate, victim) = try team()
        try push(from: teammate, to: victim) { directory in
            let entry = try #require(contents(of: directory + "/alice.gpg"))
            for index in 0..<40 { try ChildProcess.writeFile(directory + "/user\(index).gpg", entry, mode: 0o600) }
        }
        let traced = try PassHelperProcess(store: victim, environment: ["GIT_CREDENTIAL_TRACE": "1"]).get(request)
        #expect(traced.attributes["password"] == "alice-secret", "\(traced)")
        let decrypted = traced.stderrLines.filter { $0.contains("running gpg to decrypt") }
        #expect(decrypted.count == 1, "\(decrypted.count) entries decrypted: \(traced)")
    }

    /// Attack finding (issue 23): an entry named `x;touch${IFS}INJECTED;y` was printed as it
    /// is in a Fix line the person is told to run. Each shell reads the printed command
    /// back as the words meant, and runs nothing.
    @Test func aHostileEntryNameInAFixIsOneWordInEveryShell() throws {
        let store = try PasswordStore(passphrase: "key-passphrase")
        try store.helper.storeAll(alice)
        let directory = store.storeDirectory + "/git/https/git.example"
        let hostile = "x;touch${IFS}INJECTED;y"
        #expect(rename(directory + "/alice.gpg", directory + "/" + hostile + ".gpg") == 0)
        try store.expectSuccess(store.sandbox.run("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: store.environment))
        let erase = try store.helper.erase(request)
        #expect(erase.exitCode == 1 && erase.stderrLines.count == 1 && erase.stderrText.contains("Fix: run pass show"), "\(erase)")
        try ShellReadBack.expect(in: erase.stderrLines.first ?? "", words: ["pass", "show", "git/https/git.example/" + hostile])

        // A tab and an ESC, which the one-line message escapes: the command still names the entry.
        let controls = "a\tb\u{1B}[31m'c\\"
        #expect(rename(directory + "/" + hostile + ".gpg", directory + "/" + controls + ".gpg") == 0)
        let again = try store.helper.erase(request)
        #expect(again.exitCode == 1 && again.stderrLines.count == 1 && !again.stderrText.contains("\u{1B}"), "\(again)")
        try ShellReadBack.expect(in: again.stderrLines.first ?? "", words: ["pass", "show", "git/https/git.example/" + controls])
    }

    /// Issue 23: erase-all on a store shared with a team erased the team's entries too, and
    /// the next sync erased them for everyone. They are left, and said, unless --shared.
    @Test func eraseAllLeavesWhatOthersHoldUnlessAsked() throws {
        let alicesStore = try PasswordStore(), bobsStore = try PasswordStore(initialise: false)
        let bobsKey = try bobsStore.makeKey("Bob <bob@example.com>")
        try alicesStore.trust(publicKeyOf: bobsStore, bobsKey)
        try alicesStore.helper.storeAll(wire("protocol=https", "host=own.example", "username=me", "password=mine"))
        try alicesStore.expectSuccess(alicesStore.pass(["init", "--path", "git/https/team.example", alicesStore.keys[0], bobsKey]))
        try alicesStore.expectSuccess(alicesStore.helper("approve-keys"))
        try alicesStore.helper.storeAll(wire("protocol=https", "host=team.example", "username=ci", "password=shared-1"))

        let erased = try alicesStore.helper("erase-all", "--yes")
        #expect(erased.exitCode == 0, "\(erased)")
        #expect(erased.stderrLines == ["leaving 1 credential that others hold too (team.example): erased here, they are erased for everyone at the next sync; add --shared to erase them as well",
                                       "erased 1 credential"], "\(erased)")
        #expect(alicesStore.entryNames() == ["git/https/team.example/ci"])
        let all = try alicesStore.helper("erase-all", "--yes", "--shared")
        #expect(all.exitCode == 0 && all.stderrText == "erased 1 credential\n", "\(all)")
        #expect(alicesStore.entryNames().isEmpty)
    }

    /// Issue 23: a completion ends after 2 seconds, offering nothing, rather than freeze the
    /// prompt; the gpg it waited for (in a process group of its own) went on running.
    /// Issue 26: completion reads the entry names and runs no gpg at all: a gpg that would
    /// hang neither holds it nor is left behind, and the host is offered.
    @Test func aCompletionThatRunsOutOfTimeEndsItsGpgToo() throws {
        let store = try PasswordStore()
        try store.helper.storeAll(alice)
        let bin = try store.sandbox.ownDirectory()
        let pidFile = store.sandbox.root + "/gpg.pid"
        try ChildProcess.writeFile(bin + "/gpg", Array("#!/bin/sh\necho $$ > \(pidFile)\nexec sleep 300\n".utf8), mode: 0o700)
        let completed = try store.sandbox.run(BuiltProducts.passHelper, ["---completion", "list", "--", "positional@0", "2", "0", "git-credential-pass", "list", ""],
                                              environment: store.environment.merging(["PATH": bin + ":" + Sandbox.searchPath]) { $1 })
        #expect(completed.stdoutText == "git.example\n", "\(completed)")
        guard FileManager.default.fileExists(atPath: pidFile) else { return }
        Issue.record("completion ran gpg")
        let gpg = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        waitUntilGone(pid_t(gpg) ?? 0)
        let state = (try? String(contentsOfFile: "/proc/\(gpg)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
        #expect(state == nil || state == "Z", "the completion's gpg still runs: \(state ?? "")")
        if state != nil && state != "Z" { kill(pid_t(gpg) ?? 0, SIGKILL) }
    }
}
