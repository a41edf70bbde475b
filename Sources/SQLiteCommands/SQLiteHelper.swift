import ArgumentParser
import CredentialCore
import CredentialCrypto
import HelperCommand
import SQLiteStore
import TransferCommands

/// `git-credential-sqlite`: the encrypted SQLite store.
public struct SQLiteHelper: HelperRoot {
    public typealias Options = SQLiteOptions

    public static let configuration = CommandConfiguration(
        commandName: "git-credential-sqlite",
        abstract: "A git credential helper that keeps credentials in an encrypted SQLite file.",
        discussion: """
            git runs it as `git-credential-sqlite [OPTIONS] get|store|erase` with the request on \
            standard input. Every host, path, username and secret is sealed with AES-256-GCM; \
            the key lives in a key file (the default, created on first store) or is wrapped \
            by a passphrase (init --passphrase).

            Examples:
              git config --global credential.helper sqlite
              git config --global credential.helper "sqlite --db ~/secrets/git.db"
              git-credential-sqlite list
              git-credential-sqlite init --passphrase && git-credential-sqlite unlock --timeout 8h
            """,
        subcommands: [
            GetCommand<SQLiteOptions>.self, StoreCommand<SQLiteOptions>.self, EraseCommand<SQLiteOptions>.self,
            CapabilityCommand.self, ListCommand<SQLiteOptions>.self, EraseAllCommand<SQLiteOptions>.self,
            ImportCommand<SQLiteOptions>.self, ExportCommand<SQLiteOptions>.self,
            DoctorCommand<SQLiteOptions>.self, ConfigureCommand<SQLiteOptions>.self, UnconfigureCommand<SQLiteOptions>.self,
            InitCommand.self, PasswdCommand.self, UnlockCommand.self, LockCommand.self,
        ]
    )

    @OptionGroup var options: SQLiteOptions

    public init() {}

    /// No action: git always gives one, so this is a mistake (perhaps an option that
    /// swallowed the action as its value). Help goes to --help, never to stdout here,
    /// where git would read it as an answer.
    public func run() throws { throw Self.missingAction }
}

/// Where the SQLite store is and how to unlock it.
public struct SQLiteSettings: StoreSettings {
    public static let helperName = "sqlite"
    enum Names {
        static let database = "db"
        static let keyFile = "key-file"
        static let passphraseFD = "passphrase-fd"
    }

    var database: String?
    var keyFile: String?
    var passphraseFD: Int32?

    public init() {}

    public mutating func set(option name: String, to value: String) -> Bool {
        switch name {
        // A relative path is not taken here, on git's fast path: the full parser reports it.
        case Names.database, Names.keyFile:
            guard (try? StoreLocation.absolute(expandingTilde(value), namedBy: "--" + name)) != nil else { return false }
            if name == Names.database { database = value } else { keyFile = value }
        case Names.passphraseFD:
            guard let fd = Int32(value) else { return false }
            passphraseFD = fd
        default: return false
        }
        return true
    }

    public var location: StoreLocation {
        get throws {
            for (name, value) in [(Names.database, database), (Names.keyFile, keyFile)] where value?.isEmpty == true {
                throw HelperError(.usage, "--\(name) is empty", fix: "give it a path, or leave the option out for the default")
            }
            return try StoreLocation.resolve(database: database.map(expandingTilde), keyFile: keyFile.map(expandingTilde))
        }
    }

    public var passphrase: PassphraseSource { PassphraseSource(fd: passphraseFD) }

    public func diagnose() -> [HealthCheck] {
        do {
            return StoreDiagnosis.checks(try location)
        } catch let error as HelperError {
            return [HealthCheck(.fail, "store", error.message, fix: error.fix)]
        } catch {
            return [HealthCheck(.fail, "store", "\(error)")]
        }
    }

    /// What named the store, if anything did: such a store that does not exist is a typo
    /// or a store not made yet, never an empty one.
    var namedBy: String? {
        if database != nil { return "--db" }
        if keyFile != nil { return "--key-file" }
        return [StoreLocation.databaseVariable, StoreLocation.keyFileVariable].first { SystemIO.environment($0) != nil }
    }

    public func openExisting() throws -> CredentialStore? {
        let location = try location
        if let namedBy, !PrivateFiles.exists(location.database) {
            throw HelperError(.notFound, "there is no store at \(Trace.quoted(location.database)) (named by \(namedBy))",
                              fix: "check \(namedBy) for a typo, or create the store with git-credential-sqlite init and the same options")
        }
        return try SQLiteCredentialStore.openExisting(location, passphrase: passphrase)
    }
    public func openOrCreate() throws -> CredentialStore { try SQLiteCredentialStore.openOrCreate(location, passphrase: passphrase) }
}

public struct SQLiteOptions: StoreOptions {
    typealias Names = SQLiteSettings.Names

    @Option(name: .customLong(Names.database), help: ArgumentHelp(
        "The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).",
        valueName: "path"))
    var database: String?

    @Option(name: .customLong(Names.keyFile), help: ArgumentHelp(
        "The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).",
        valueName: "path"))
    var keyFile: String?

    @Option(name: .customLong(Names.passphraseFD), help: ArgumentHelp(
        "Read the passphrase from this file descriptor instead of asking.", valueName: "n"))
    var passphraseFD: Int32?

    public init() {}

    public var settings: SQLiteSettings {
        var settings = SQLiteSettings()
        settings.database = database
        settings.keyFile = keyFile
        settings.passphraseFD = passphraseFD
        return settings
    }
}

/// git runs helpers through the shell, which expands `~`; a path given in other ways may
/// still carry one.
func expandingTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = SystemIO.environment("HOME") else { return path }
    return home + path.dropFirst()
}

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the store, with a key file or (--passphrase) protected by a passphrase.",
        discussion: """
            With --passphrase, an existing key-file store is converted: it gets a new data key, \
            wrapped under the passphrase, every record is resealed with it in one transaction, and \
            the old key file is wiped, so copies and backups of it no longer open the store. It is \
            kept while another store still opens with it (each store records itself beside the \
            key file, in KEY.stores, when it writes), and when the key file is older than that \
            record. The passphrase is read from --passphrase-fd, an askpass \
            program (GIT_ASKPASS, SSH_ASKPASS) or the terminal, never from the command line.

            Examples:
              git-credential-sqlite init
              git-credential-sqlite init --passphrase
              git-credential-sqlite init --passphrase --passphrase-fd 3 3< passphrase.txt
            """)

    @OptionGroup var options: SQLiteOptions
    @Flag(help: "Protect the store with a passphrase instead of a key file.") var passphrase = false
    @OptionGroup var scrypt: ScryptCost

    func run() throws {
        let message = try StoreAdministration.initialize(
            try options.settings.location, passphrase: passphrase ? options.settings.passphrase : nil, cost: scrypt.cost,
            otherStores: passphrase ? Self.configuredStores() : [])
        SystemIO.writeAll(2, message + "\n")
    }

    /// The stores git's configuration names (`credential.helper` and
    /// `credential.<url>.helper` values running sqlite or keyring, with their --db and
    /// --key-file): converting one store must not wipe a key file another still needs.
    static func configuredStores() -> [StoreLocation] {
        guard let result = Subprocess.run("git", ["config", "--get-regexp", #"^credential\..*helper$"#], input: []),
              result.succeeded else { return [] }
        return result.outputText.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").dropFirst().map { $0.trimmingQuotes }
            guard let program = words.first,
                  ["sqlite", "keyring"].contains(where: { program == $0 || program.hasSuffix("git-credential-" + $0) }) else { return nil }
            var settings = SQLiteSettings()
            var remaining = words.dropFirst()[...]
            while let word = remaining.popFirst() {
                guard word.hasPrefix("--") else { continue }
                let parts = word.dropFirst(2).split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 {
                    _ = settings.set(option: parts[0], to: parts[1])
                } else if let value = remaining.first, settings.set(option: parts[0], to: value) {
                    remaining.removeFirst()
                }
            }
            return try? settings.location
        }
    }
}

extension StringProtocol {
    /// A shell word without the quotes around it (git runs helper values through the shell).
    var trimmingQuotes: String {
        guard count >= 2, let first, first == last, first == "'" || first == "\"" else { return String(self) }
        return String(dropFirst().dropLast())
    }
}

struct PasswdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd",
        abstract: "Change the passphrase of a passphrase-protected store.",
        discussion: """
            The store gets a new data key, wrapped under the new passphrase, and every record \
            is resealed with it in one transaction: an old copy of the store, with the old \
            passphrase, opens nothing stored from now on.

            Example:
              git-credential-sqlite passwd
              git-credential-sqlite passwd --passphrase-fd 3 --new-passphrase-fd 4 3< old 4< new
            """)

    @OptionGroup var options: SQLiteOptions
    @Option(name: .customLong("new-passphrase-fd"), help: ArgumentHelp("Read the new passphrase from this file descriptor.", valueName: "n"))
    var newPassphraseFD: Int32?
    @OptionGroup var scrypt: ScryptCost

    func run() throws {
        let location = try options.settings.location
        try StoreAdministration.changePassphrase(location, current: options.settings.passphrase,
                                                 new: PassphraseSource(fd: newPassphraseFD, option: "--new-passphrase-fd"), cost: scrypt.cost)
        SystemIO.writeAll(2, "changed the passphrase of \(location.database), with a new key: the old passphrase opens nothing stored from now on, even with an old copy of the store\n")
    }
}

struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Keep the unlocked key in the kernel keyring for a while, so git is not asked for the passphrase.",
        discussion: """
            Examples:
              git-credential-sqlite unlock               # for 15 minutes
              git-credential-sqlite unlock --timeout 8h
            """)

    @OptionGroup var options: SQLiteOptions
    @Option(help: ArgumentHelp("How long: seconds, or a number with s, m, h or d.", valueName: "duration"),
            transform: Duration.seconds(parsing:))
    var timeout: UInt32 = 900

    func run() throws {
        SystemIO.writeAll(2, try StoreAdministration.unlock(try options.settings.location, passphrase: options.settings.passphrase, timeout: timeout) + "\n")
    }
}

struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Drop the unlocked key from the kernel keyring.",
        discussion: "Example:\n  git-credential-sqlite lock")

    @OptionGroup var options: SQLiteOptions

    func run() throws { SystemIO.writeAll(2, try StoreAdministration.lock(try options.settings.location) + "\n") }
}

enum Duration {
    /// "90", "90s", "15m", "8h", "2d" as seconds.
    static func seconds(parsing text: String) throws -> UInt32 {
        let units: [Character: UInt64] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var digits = Substring(text)
        var unit: UInt64 = 1
        if let last = digits.last, let factor = units[last] {
            unit = factor
            digits = digits.dropLast()
        }
        guard let number = UInt64(digits), number > 0, number <= UInt64(UInt32.max) / unit else {
            throw ValidationError("invalid duration '\(text)': use seconds, or a number followed by s, m, h or d")
        }
        return UInt32(number * unit)
    }
}
