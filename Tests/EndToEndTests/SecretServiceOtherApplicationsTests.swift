import Foundation
import Testing

/// Other programs' items in the same keyring as git's, written through libsecret as those
/// programs write them (`OtherKeyringClients`): GVFS's and an old browser's network
/// passwords, Dino's, Evolution's, NetworkManager's. Most share git's older schema
/// (org.gnome.keyring.NetworkPassword) or its attribute names, on the host git uses. No
/// command of git-credential-secretservice or git-credential-keyring lists, answers from,
/// exports, imports, replaces or deletes them, nor even fetches their secrets. On a keyring
/// of the test's own (erase-all must not touch other tests' items), of each provider:
/// KeePassXC shows fields of its own on every item (Title, UserName, ...).
@Suite struct SecretServiceOtherApplicationsTests {
    static let providers = SecretServiceProvider.allCases

    @Test(arguments: providers)
    func listShowsOnlyGitsItems(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).listShowsOnlyGitsItems()
    }

    @Test(arguments: providers)
    func getNeverAnswersFromAnotherProgramsItem(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).getNeverAnswersFromAnotherProgramsItem()
    }

    @Test(arguments: providers)
    func storeReplacesNoOtherProgramsItem(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).storeReplacesNoOtherProgramsItem()
    }

    @Test(arguments: providers)
    func eraseRemovesNoOtherProgramsItem(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).eraseRemovesNoOtherProgramsItem()
    }

    @Test(arguments: providers)
    func eraseAllRemovesOnlyGitsItems(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).eraseAllRemovesOnlyGitsItems()
    }

    @Test(arguments: providers)
    func plaintextExportHoldsOnlyGitsItems(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).plaintextExportHoldsOnlyGitsItems()
    }

    @Test(arguments: providers)
    func importFromTheKeyringTakesOnlyGitsItems(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).importFromTheKeyringTakesOnlyGitsItems()
    }

    @Test(arguments: providers)
    func theKeyringHelperTouchesOnlyGitsItems(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).theKeyringHelperTouchesOnlyGitsItems()
    }

    @Test(arguments: providers)
    func doctorsRoundTripLeavesOtherProgramsItems(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).doctorsRoundTripLeavesOtherProgramsItems()
    }

    @Test(arguments: providers)
    func otherProgramsSecretsAreNeverFetched(provider: SecretServiceProvider) throws {
        try OtherApplicationsCase(provider).otherProgramsSecretsAreNeverFetched()
    }

    /// gnome-keyring's only: the test locks its login collection.
    @Test func onlyGitsItemsAreAskedToBeUnlocked() throws {
        try OtherApplicationsCase(.gnomeKeyring).onlyGitsItemsAreAskedToBeUnlocked()
    }
}

/// One test of SecretServiceOtherApplicationsTests on a provider's keyring of its own.
struct OtherApplicationsCase {
    let world: ProviderWorld
    var helper: SecretServiceHelper { world.secretService }
    var keyringHelper: KeyringHelper { world.keyringHelper }
    var secretTool: SecretTool { world.secretTool }
    var clients: OtherKeyringClients { world.clients }
    var sandbox: Sandbox { world.sandbox }

    static let host = "files.example"
    static let network = "org.gnome.keyring.NetworkPassword"

    /// An item of another program, and how to find exactly it (its schema included).
    struct Neighbour: CustomStringConvertible {
        let description: String
        let lookup: [String: String]
        let secret: String
    }

    /// The other programs' items, every one for user alice on `host` (but NetworkManager's).
    static let neighbours = [
        Neighbour(description: "GVFS davs", lookup: ["xdg:schema": network, "protocol": "davs", "server": host],
                  secret: "gvfs-davs-secret"),
        Neighbour(description: "GVFS smb", lookup: ["xdg:schema": network, "protocol": "smb", "server": host],
                  secret: "gvfs-smb-secret"),
        Neighbour(description: "GVFS ftp", lookup: ["xdg:schema": network, "protocol": "ftp", "server": host],
                  secret: "gvfs-ftp-secret"),
        Neighbour(description: "an old browser's https password",
                  lookup: ["xdg:schema": network, "protocol": "https", "server": host], secret: "browser-https-secret"),
        Neighbour(description: "Dino", lookup: ["xdg:schema": network, "protocol": "xmpp", "server": host],
                  secret: "dino-secret"),
        Neighbour(description: "Evolution", lookup: ["xdg:schema": "org.gnome.Evolution.Password", "server": host],
                  secret: "evolution-secret"),
        Neighbour(description: "NetworkManager", lookup: ["xdg:schema": "org.freedesktop.NetworkManager.Connection"],
                  secret: "wifi-secret"),
    ]

    /// git's items: one of git 2.39's helper in the older schema, and one of ours.
    static let gits = wire("protocol=https", "host=git.example", "username=alice", "password=git-secret")

    /// Every neighbour's item and git's, written.
    init(_ provider: SecretServiceProvider) throws {
        world = try ProviderWorld(provider)
        let host = Self.host
        try clients.gvfs(user: "alice", server: host, protocol: "davs", object: "remote.php/webdav", secret: "gvfs-davs-secret")
        try clients.gvfs(user: "alice", server: host, domain: "WORKGROUP", protocol: "smb", object: "share", secret: "gvfs-smb-secret")
        try clients.gvfs(user: "alice", server: host, protocol: "ftp", secret: "gvfs-ftp-secret")
        // Web browsers of the libgnome-keyring days stored site passwords the way GVFS does.
        try clients.gvfs(user: "alice", server: host, protocol: "https", secret: "browser-https-secret")
        try clients.dino(user: "alice", server: host, secret: "dino-secret")
        try clients.evolution(uri: "https://alice@\(host)/", secret: "evolution-secret")
        try clients.networkManager(uuid: "6f4a2b1e-0c1d-4e5f-8a9b-0c1d2e3f4a5b", id: "Office", secret: "wifi-secret")

        try clients.git(schema: .network, protocol: "https", server: "old-git.example", port: 8443, path: "team/repo.git",
                        user: "alice", secret: "git239-secret")
        try helper.storeAll(Self.gits)
        try expectNeighboursUntouched()
    }

    /// Every other program's item is still there, with its own secret.
    func expectNeighboursUntouched(sourceLocation: SourceLocation = #_sourceLocation) throws {
        for neighbour in Self.neighbours {
            #expect(try secretTool.lookup(neighbour.lookup) == neighbour.secret, "\(neighbour) was deleted or replaced",
                    sourceLocation: sourceLocation)
        }
    }

    /// Output (or a file) shows no other program's secret, nor their protocols.
    func expectNoNeighbour(in text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for neighbour in Self.neighbours {
            #expect(!text.contains(neighbour.secret), "\(what) shows \(neighbour)'s secret: \(text)", sourceLocation: sourceLocation)
        }
        for other in ["davs", "smb", "ftp", "xmpp"] {
            #expect(!text.contains(other), "\(what) shows a \(other) item: \(text)", sourceLocation: sourceLocation)
        }
    }

    /// git's two items, as list shows them (protocol, host, path, user).
    static let listedGits = [["https", "git.example", "-", "alice"], ["https", "old-git.example:8443", "team/repo.git", "alice"]]

    func rows(_ result: ProcessResult) -> [[String]] {
        result.stdoutLines.dropFirst().map { Array($0.split(separator: " ", omittingEmptySubsequences: true).prefix(4).map(String.init)) }
    }

    func listShowsOnlyGitsItems() throws {
        let listed = try helper.list()
        expectSuccess(listed)
        #expect(rows(listed) == Self.listedGits, "\(listed)")
        expectNoNeighbour(in: listed.stdoutText, "list")
    }

    func getNeverAnswersFromAnotherProgramsItem() throws {
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(Self.host)")))
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(Self.host)", "username=alice")))
        expectSilentMiss(try helper.get(wire("protocol=ftp", "host=\(Self.host)")))
        expectSilentMiss(try helper.get(wire("protocol=davs", "host=\(Self.host)", "path=remote.php/webdav")))
        // git's items, old and new, are still found.
        #expect(try helper.password(for: wire("protocol=https", "host=old-git.example:8443", "path=team/repo.git")) == "git239-secret")
        #expect(try helper.password(for: wire("protocol=https", "host=git.example")) == "git-secret")
    }

    func storeReplacesNoOtherProgramsItem() throws {
        try helper.storeAll(wire("protocol=https", "host=\(Self.host)", "username=alice", "password=new-git-secret"),
                            wire("protocol=ftp", "host=\(Self.host)", "username=alice", "password=new-ftp-secret"))
        try expectNeighboursUntouched()
        #expect(try helper.password(for: wire("protocol=https", "host=\(Self.host)")) == "new-git-secret")
        #expect(try helper.password(for: wire("protocol=ftp", "host=\(Self.host)")) == "new-ftp-secret")
    }

    func eraseRemovesNoOtherProgramsItem() throws {
        for request in [wire("host=\(Self.host)"), wire("protocol=https", "host=\(Self.host)", "username=alice"),
                        wire("protocol=https", "host=\(Self.host)", "password=browser-https-secret"),
                        wire("username=alice")] {
            expectSuccess(try helper.erase(request))
        }
        try expectNeighboursUntouched()
        #expect(try helper.list().stdout.isEmpty, "username=alice erases git's items")
    }

    func eraseAllRemovesOnlyGitsItems() throws {
        let erased = try helper("erase-all", "--yes")
        #expect(erased.exitCode == 0 && erased.stderrText == "erased 2 credentials\n", "\(erased)")
        try expectNeighboursUntouched()
        #expect(try helper.list().stdout.isEmpty)
    }

    func plaintextExportHoldsOnlyGitsItems() throws {
        for format in ["store", "protocol"] {
            let exported = try helper("export", "--plaintext", "--format", format)
            #expect(exported.exitCode == 0 && exported.stderrText == "exported 2 credentials in plaintext to standard output\n",
                    "\(exported)")
            expectNoNeighbour(in: exported.stdoutText, "export --plaintext --format \(format)")
            #expect(exported.stdoutText.contains("git239-secret") && exported.stdoutText.contains("git-secret"), "\(exported)")
        }
    }

    func importFromTheKeyringTakesOnlyGitsItems() throws {
        let sqlite = sandbox.sqlite().with(environment: world.bus.environment)
        let imported = try sqlite.run(["import", "--from", "secretservice"])
        #expect(imported.exitCode == 0 && imported.stderrText == "read 2 credentials from secretservice: 2 new, 0 replaced, 0 unchanged\n", "\(imported)")
        let listed = try sqlite.list()
        #expect(rows(listed) == Self.listedGits, "\(listed)")
        expectSilentMiss(try sqlite.get(wire("protocol=https", "host=\(Self.host)")))
        try expectNeighboursUntouched()
    }

    func theKeyringHelperTouchesOnlyGitsItems() throws {
        let listed = try keyringHelper.list()
        #expect(rows(listed) == Self.listedGits, "\(listed)")
        expectNoNeighbour(in: listed.stdoutText, "git-credential-keyring list")
        expectSilentMiss(try keyringHelper.get(wire("protocol=https", "host=\(Self.host)")))
        try keyringHelper.storeAll(wire("protocol=https", "host=\(Self.host)", "username=alice", "password=new-git-secret"))
        expectSuccess(try keyringHelper.erase(wire("host=\(Self.host)")))
        try expectNeighboursUntouched()
        let exported = try keyringHelper("export", "--plaintext")
        expectNoNeighbour(in: exported.stdoutText, "git-credential-keyring export --plaintext")
        let erased = try keyringHelper("erase-all", "--yes")
        #expect(erased.exitCode == 0 && erased.stderrText == "erased 2 credentials\n", "\(erased)")
        try expectNeighboursUntouched()
    }

    func doctorsRoundTripLeavesOtherProgramsItems() throws {
        let doctor = try helper("doctor")
        #expect(doctor.stdoutText.contains("ok    round trip"), "\(doctor)")
        try expectNeighboursUntouched()
        #expect(rows(try helper.list()) == Self.listedGits)
    }

    /// The service finds other programs' items by their attributes, but their secrets
    /// never come over the bus to a helper: only git's items are read.
    func otherProgramsSecretsAreNeverFetched() throws {
        let monitor = try SecretRequests(sandbox: sandbox, bus: world.bus)
        expectSilentMiss(try helper.get(wire("protocol=https", "host=\(Self.host)", "username=alice")))
        expectSuccess(try helper.list())
        #expect(try helper("export", "--plaintext").exitCode == 0)
        #expect(try helper.password(for: wire("protocol=https", "host=git.example")) == "git-secret")
        let requested = try monitor.stop()
        let theirs = try Self.neighbours.flatMap { try secretTool.itemNumbers($0.lookup) }
        let ours = try secretTool.itemNumbers(["server": "git.example"])
        #expect(theirs.count == Self.neighbours.count && ours.count == 1)
        #expect(!ours.isEmpty && ours.allSatisfy(requested.contains), "the monitor saw no request for git's item: \(requested)")
        #expect(requested.isDisjoint(with: theirs), "a helper asked for other programs' secrets: \(requested) \(theirs)")
    }

    /// With the keyring locked, a helper asks to unlock git's items only: no prompt about
    /// another program's items on git's behalf.
    func onlyGitsItemsAreAskedToBeUnlocked() throws {
        try helper.storeAll(wire("protocol=https", "host=\(Self.host)", "username=alice", "password=git-secret"))
        try #require(world.keyring, "locking is gnome-keyring's").session.lockLoginCollection()
        let monitor = try SecretRequests(sandbox: sandbox, bus: world.bus, methods: ["Unlock"])
        let result = try helper.get(wire("protocol=https", "host=\(Self.host)"))
        #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")
        let requested = try monitor.stop()
        let theirs = try Self.neighbours.flatMap { try secretTool.itemNumbers($0.lookup) }
        let ours = try secretTool.itemNumbers(["xdg:schema": "org.git.Password", "server": Self.host])
        #expect(theirs.count == Self.neighbours.count && ours.count == 1)
        #expect(!ours.isEmpty && ours.allSatisfy(requested.contains), "the monitor saw no unlock of git's item: \(requested)")
        #expect(requested.isDisjoint(with: theirs), "a helper asked to unlock other programs' items: \(requested) \(theirs)")
    }
}

extension SecretTool {
    /// The items with these attributes, by the last part of their D-Bus object path
    /// (secret-tool shows `[/N]`, the bus `/org/freedesktop/secrets/collection/login/N`).
    func itemNumbers(_ attributes: [String: String]) throws -> [String] {
        try run(["search", "--all"], attributes).stdoutLines.filter { $0.hasPrefix("[/") && $0.hasSuffix("]") }
            .map { String($0.dropLast().split(separator: "/").last ?? "") }
    }
}

/// dbus-monitor on a private bus, recording calls of the Secret Service's methods named
/// (by default GetSecrets and GetSecret; `nil`: every message, answers too) and the item
/// paths they carry: whose secrets a client asked for, or which items it asked to unlock.
final class SecretRequests {
    let process: BackgroundProcess
    let log: String

    /// `signals`: signals to record too, by member name.
    init(sandbox: Sandbox, bus: SessionBus, methods: [String]? = ["GetSecrets", "GetSecret"], signals: [String] = []) throws {
        log = sandbox.root + "/secret-requests-" + UUID().uuidString
        let monitor = Sandbox.which("dbus-monitor") ?? "/usr/bin/dbus-monitor"
        // Through sh, to write to a file; dbus-monitor flushes each message.
        process = try BackgroundProcess("/bin/sh", ["-c", "log=$1; shift; exec \"$0\" --session \"$@\" >\"$log\" 2>&1", monitor, log]
                                            + (methods ?? []).map { "type='method_call',member='\($0)'" }
                                            + signals.map { "type='signal',member='\($0)'" },
                                        environment: sandbox.environment.merging(bus.environment) { $1 })
        // It is listening once it has said it became a monitor (its first message).
        let deadline = Date().addingTimeInterval(10)
        while (contents(of: log) ?? []).isEmpty {
            guard Date() < deadline else { throw SpawnError(description: "dbus-monitor did not start") }
            usleep(20_000)
        }
    }

    /// Stops the monitor; the items whose secrets were asked for, by the last part of
    /// their object path.
    func stop() throws -> Set<String> {
        let text = stopAndRead()
        let prefix = "object path \"/org/freedesktop/secrets/collection/"
        return Set(text.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: prefix) else { return nil }
            return line[start.upperBound...].split(separator: "\"").first?.split(separator: "/").last.map(String.init)
        })
    }

    /// Stops the monitor; what it printed.
    func stopAndRead() -> String {
        usleep(200_000)  // the last calls' messages reach it
        process.stop()
        return String(decoding: contents(of: log) ?? [], as: UTF8.self)
    }
}
