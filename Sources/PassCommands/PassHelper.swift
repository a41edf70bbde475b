import ArgumentParser
import CredentialCore
import HelperCommand
import PassStore
import TransferCommands

/// `git-credential-pass`: the standard Unix password manager's store.
public struct PassHelper: HelperRoot {
    public typealias Options = PassOptions

    public static let configuration = CommandConfiguration(
        commandName: "git-credential-pass",
        abstract: "A git credential helper that keeps credentials in pass, the standard Unix password manager.",
        discussion: """
            git runs it as `git-credential-pass get|store|erase` with the request on standard \
            input. Each credential is one gpg-encrypted entry of the password store \
            ($PASSWORD_STORE_DIR, else ~/.password-store), git/PROTOCOL/HOST/USERNAME (with \
            the path, if git sends one, before the username), written and removed through \
            pass: pass commits each change when the store is a git repository, and encrypts \
            to the keys of the nearest .gpg-id, so a team that shares a subtree shares its \
            credentials. The first line of an entry is the password; the other fields follow \
            as `key: value` lines. Git Credential Manager's gpg store keeps its entries at the \
            same names, and they are found too.

            Entry names show hosts and users in file names, as every pass entry does; the \
            SQLite store (git-credential-sqlite) hides them.

            Without a terminal (or a display) for gpg-agent's pinentry, a key that needs its \
            passphrase cannot be used: get stays silent, store and erase fail with one line. \
            No gpg or pass call waits longer than 10 seconds without a person to answer it.

            Examples:
              pass init -p git YOUR-GPG-KEY-ID                    # once
              git-credential-pass configure
              git-credential-pass list
              git-credential-pass sync                            # pass git pull and push
              git-credential-pass approve-keys                    # after a .gpg-id changed
            """,
        version: Version.line("git-credential-pass"),
        subcommands: [
            GetCommand<PassOptions>.self, StoreCommand<PassOptions>.self, EraseCommand<PassOptions>.self,
            CapabilityCommand.self, ListCommand<PassOptions>.self, EraseAllCommand<PassOptions>.self,
            ImportCommand<PassOptions>.self, ExportCommand<PassOptions>.self,
            DoctorCommand<PassOptions>.self, ConfigureCommand<PassOptions>.self, UnconfigureCommand<PassOptions>.self,
            SyncCommand.self, ApproveKeysCommand.self, StatusCommand<PassOptions>.self,
        ]
    )

    public init() {}

    public func run() throws { throw Self.missingAction }
}

/// pass's own store: PASSWORD_STORE_DIR says where, as it does for pass.
public struct PassSettings: DiagnosableSettings {
    public static let helperName = "pass"
    /// Another store than pass's: doctor's throwaway one.
    var directory: String?
    /// The keys the throwaway store encrypts to: those approved for git's entries.
    var approved: [String]?

    public init() {}

    public mutating func set(option name: String, to value: String) -> Bool { false }

    func storeDirectory() throws -> String {
        guard let directory = directory ?? PassProgram.defaultDirectory() else {
            throw HelperError(.failure, "neither PASSWORD_STORE_DIR nor HOME is set, so there is no password store to use",
                              fix: "set HOME, or PASSWORD_STORE_DIR to the password store")
        }
        return directory
    }

    public func diagnose() -> [HealthCheck] {
        guard let directory = try? storeDirectory() else {
            return [HealthCheck(.fail, "password store", "neither PASSWORD_STORE_DIR nor HOME is set", fix: "set HOME")]
        }
        return PassDiagnosis.checks(directory: directory)
    }

    public func openExisting() throws -> ManagedStore? { try PassCredentialStore.openExisting(directory: storeDirectory()) }
    /// Doctor's throwaway store (`directory` set) checks no approved keys: its test secret is not one.
    public func openOrCreate() throws -> ManagedStore {
        try PassCredentialStore.openForWriting(directory: storeDirectory(), approving: directory == nil, approved: approved)
    }

    public func helperArguments() throws -> [String] { [] }

    /// The round trip's store is encrypted to the keys of git's entries: without them, nothing to try.
    public var roundTripBlocker: String? {
        guard let user = try? storeDirectory() else { return "there is no password store" }
        guard PassCredentialStore.recipientsFile(for: PassEntry.root, in: user) != nil else { return "the password store has no keys for \(PassEntry.root)/ (see above)" }
        return Self.roundTripFolder(in: user) == nil ? "no folder of the password store is encrypted to a key of yours (see gpg key above)" : nil
    }

    /// The `.gpg-id` whose keys the round trip encrypts to: git/'s when the person can read
    /// it, else the first folder they can (a team's): never one they cannot read back
    /// (issue 26: Bob's round trip stored into git/, encrypted to Alice alone).
    static func roundTripFolder(in user: String) -> String? {
        guard let git = PassCredentialStore.recipientsFile(for: PassEntry.root, in: user).map({ String($0.dropFirst(user.count + 1)) }) else { return nil }
        let readable = PassCredentialStore.readableFolders(in: user)
        return readable.contains(git) ? git : readable.first
    }

    /// A key with a passphrase gpg-agent does not hold now is a healthy setup: git's get
    /// asks for it at the pinentry. doctor asks for nothing, so its round trip cannot read
    /// back; it says so, and how to give the passphrase where no pinentry can reach the
    /// person (never its own throwaway entry, which is gone when it has spoken).
    public func roundTripCheck(after error: HelperError) -> HealthCheck? {
        guard PassProgram.isPassphraseNeeded(error) else { return nil }
        let stored = "stored a test credential; reading it back needs the passphrase of your gpg key, which gpg-agent does not hold now"
        guard PromptPlace.here.pinentryReachable else {
            return HealthCheck(.warn, "round trip", stored + ", and there is no terminal or display here for its pinentry, so get stays silent until it does",
                               fix: "run git-credential-pass list in a terminal and type the passphrase (gpg-agent then keeps it a while)")
        }
        return HealthCheck(.ok, "round trip", stored + " (doctor asks for nothing): git's next get asks for it, and gpg-agent then keeps it a while")
    }

    /// A store of its own in `directory`, encrypted to the same keys as git's entries in
    /// the user's store, and as a store there would: to the approved ones as approved (a
    /// teammate's key nobody certified failed the round trip of a healthy team setup).
    /// doctor's round trip commits nothing there.
    public func throwaway(in directory: String) -> PassSettings {
        var settings = PassSettings()
        settings.directory = directory + "/password-store"
        if let user = try? storeDirectory(), let relative = Self.roundTripFolder(in: user),
           let keys = SystemIO.readFile(user + "/" + relative, limit: 1 << 16) {
            settings.approved = try? ApprovedKeys(store: user).approvedFingerprints(relative)
            try? PrivateFiles.makeDirectories(directory + "/password-store")
            _ = try? PrivateFiles.createExclusively(directory + "/password-store/.gpg-id", contents: keys)
        }
        return settings
    }
}

public struct PassOptions: StoreOptions {
    public init() {}
    public var settings: PassSettings { PassSettings() }
}

/// `sync`: the password store's git repository, pulled and pushed.
public struct SyncCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Pull and push the password store's git repository, and say what changed.",
        discussion: """
            Fetches the store's upstream (pass git), merges what other machines pushed and \
            pushes what this one stored. A credential stored on two machines before either \
            synced is a conflict on its entry: the one already pushed is kept, and sync says \
            which entries those were. A conflict on an entry outside git/ (one of your own \
            passwords) is left to you: sync stops the merge, changes nothing, and says how to \
            resolve it.

            Examples:
              git-credential-pass sync
              pass git remote add origin git@example.com:me/password-store.git   # once
            """)

    public init() {}

    public func run() throws {
        let directory = try PassSettings().storeDirectory()
        let report = try PassSync(pass: PassProgram(directory: directory)).run()
        SystemIO.writeAll(2, report + "\n")
    }
}

/// `approve-keys`: the keys of the store's `.gpg-id` files, approved as they are now.
public struct ApproveKeysCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "approve-keys",
        abstract: "Approve the keys the password store's .gpg-id files name now, for git's entries.",
        discussion: """
            pass encrypts each entry to the keys of the .gpg-id nearest to it, and in a store \
            shared through git that file comes from whoever can push. So store encrypts only \
            to keys you approved: the very first store (or sync) approves the .gpg-id as it \
            is, and after a .gpg-id for git/ names another key (pass init, or a sync that \
            brought one), or the store moved, store refuses until you check the keys and \
            run this command. It shows every \
            .gpg-id that applies to git/, its keys and what changed since the last approval \
            (new, changed, unchanged), and approves them, each as the \
            one key gpg finds for its name now (shown by fingerprint): pass is given that \
            fingerprint, so a key imported later whose user ID also matches the name is \
            never encrypted to, and a name that matches several keys is refused. Approval is \
            your certification of a key for this helper: store tells gpg to trust the approved \
            keys, so a teammate's key nobody signed works (for pass's own commands, certify it: \
            gpg --quick-lsign-key FINGERPRINT). The approved \
            keys are kept in $XDG_CONFIG_HOME/git-credential-pass/approved-keys, outside \
            the store. Setting PASSWORD_STORE_KEY (which pass then uses instead of any \
            .gpg-id) needs no approval.

            A .gpg-id that would share a folder holding your own entries (encrypted to \
            you alone until now) with others is approved only when named: \
            approve-keys PATH. To refuse a .gpg-id, undo the commit that brought it \
            (pass git log PATH, then pass git revert COMMIT) and sync. A key missing from \
            your keyring, or a .gpg-id that is a symbolic link, is refused.

            Examples:
              git-credential-pass approve-keys --review                     # what changed
              git-credential-pass approve-keys
              git-credential-pass approve-keys git/https/git.team.example   # that one alone
            """)

    @Flag(help: "Show each .gpg-id, its keys and what changed since the last approval; approve nothing.")
    var review = false

    @Argument(help: ArgumentHelp("A .gpg-id (or its folder) to approve, alone: one that would share your own entries' folder is approved only so.",
                                 valueName: "path"))
    var paths: [String] = []

    public init() {}

    public func run() throws {
        let directory = try PassSettings().storeDirectory()
        let store = try PassCredentialStore.openForWriting(directory: directory, approving: false)
        let files = PassCredentialStore.gpgIDs(in: store.pass.directory)
        let chosen = try paths.map { path in
            // As the person may write it: absolute, in the store, a folder or the file.
            var relative = path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
            while relative.hasSuffix("/") { relative.removeLast() }
            if !relative.hasSuffix(".gpg-id") { relative += "/.gpg-id" }
            guard files.contains(relative) else {
                throw HelperError(.usage, "\(path) is no .gpg-id that decides whom git's entries are encrypted to",
                                  fix: "git-credential-pass approve-keys --review lists them")
            }
            return relative
        }
        let approvedKeys = try ApprovedKeys(store: directory)
        let reviews = try approvedKeys.review(chosen.isEmpty ? files : chosen)
        // Named, a file is approved; unnamed, one that would share the person's own entries' folder waits.
        let held = review ? reviews : reviews.filter { chosen.isEmpty && $0.needsNaming }
        let approving = reviews.filter { candidate in !held.contains { $0.name == candidate.name } }
        if !approving.isEmpty { try approvedKeys.approve(approving) }
        for each in reviews {
            let done = review ? "" : approving.contains { $0.name == each.name } ? "approved " : "NOT approved "
            var line = "\(done)\(directory)/\(each.name): \(ApprovedKeys.list(each.keys)) [\(each.change)]"
            if !each.sharedWith.isEmpty {
                line += "; warning: \(each.folder)/ was encrypted to you alone"
                    + (each.entries > 0 ? " (\(each.entries) entries of yours)" : "") + ", and what is stored there from now on is also encrypted to \(each.sharedWith.joined(separator: ", "))"
            }
            SystemIO.writeAll(1, line + "\n")
        }
        if !review, let first = held.first {
            throw HelperError(.failure, "\(held.map { directory + "/" + $0.name }.joined(separator: ", ")) would share a folder of your own entries with others, so it was not approved",
                              fix: ApprovedKeys.review(first.name))
        }
    }
}
