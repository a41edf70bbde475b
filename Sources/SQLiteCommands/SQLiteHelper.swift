import ArgumentParser
import CredentialCore
import CredentialCrypto
import HelperCommand
import SQLiteStore
import TransferCommands

#if canImport(Glibc)
import Glibc
#endif

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
              git-credential-sqlite configure                       # full path: cron too
              git-credential-sqlite configure --db ~/secrets/git.db
              git config --global credential.helper sqlite          # by hand: needs PATH
              git-credential-sqlite list
              git-credential-sqlite init --passphrase && git-credential-sqlite unlock --timeout 8h
            """,
        version: Version.line("git-credential-sqlite"),
        subcommands: [
            GetCommand<SQLiteOptions>.self, StoreCommand<SQLiteOptions>.self, EraseCommand<SQLiteOptions>.self,
            CapabilityCommand.self, ListCommand<SQLiteOptions>.self, EraseAllCommand<SQLiteOptions>.self,
            ImportCommand<SQLiteOptions>.self, ExportCommand<SQLiteOptions>.self,
            DoctorCommand<SQLiteOptions>.self, ConfigureCommand<SQLiteOptions>.self, UnconfigureCommand<SQLiteOptions>.self,
            InitCommand.self, PasswdCommand.self, UnlockCommand.self, LockCommand.self, StatusCommand<SQLiteOptions>.self,
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
public struct SQLiteSettings: DiagnosableSettings {
    public static let helperName = "sqlite"
    enum Names {
        static let database = "db"
        static let keyFile = "key-file"
        static let passphraseFD = "passphrase-fd"
        static let gracePeriod = "grace-period"
    }

    /// Long enough for the rest of one git operation (the `store` after a fetch that took
    /// a while), short enough that a key typed for one command is gone soon after.
    static let defaultGracePeriod = TimeSpan(seconds: 300)

    var database: String?
    var keyFile: String?
    var passphraseFD: Int32?
    var gracePeriod: TimeSpan?

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
        case Names.gracePeriod:
            // A bad value is left to the argument parser, which says what is wrong.
            guard let period = try? TimeSpan(parsing: value, option: "--" + name, allowsZero: true) else { return false }
            gracePeriod = period
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

    public var passphrase: PassphraseSource { PassphraseSource(fd: passphraseFD, gracePeriod: gracePeriod ?? Self.defaultGracePeriod) }

    public func diagnose() -> [HealthCheck] {
        do {
            return StoreDiagnosis.checks(try location, arguments: try helperArguments())
        } catch let error as HelperError {
            return [HealthCheck(.fail, "store", error.message, fix: error.fix)]
        } catch {
            return [HealthCheck(.fail, "store", "\(error)")]
        }
    }

    public func openExisting() throws -> ManagedStore? {
        let location = try location
        if let namedBy, !PrivateFiles.exists(location.database) {
            throw HelperError(.notFound, "there is no store at \(Trace.quoted(location.database)) (named by \(namedBy))",
                              fix: "check \(namedBy) for a typo, or create the store with git-credential-sqlite init and the same options")
        }
        return try SQLiteCredentialStore.openExisting(location, passphrase: passphrase)
    }
    public func openOrCreate() throws -> ManagedStore { try SQLiteCredentialStore.openOrCreate(location, passphrase: passphrase) }

    /// --db and --key-file as given (absolute: `location` refuses any other), `~` expanded,
    /// and --grace-period in seconds when given. A path that only this environment chose
    /// (GIT_CREDENTIAL_SQLITE_DB, XDG_DATA_HOME, ...) is written too: git run from cron or
    /// systemd has HOME alone, and a bare line would send it to another store.
    public func checkStorePlace() throws { try StoreFiles.checkPlace(try location) }

    public func helperArguments() throws -> [String] {
        if passphraseFD != nil {
            throw HelperError(.usage, "--passphrase-fd names a descriptor of this command, which git's calls of the helper do not have",
                              fix: "leave it out: git's calls ask for the passphrase, or use git-credential-sqlite unlock")
        }
        let location = try location
        let plain = StoreLocation.homeDefault()
        let paths = [(Names.database, database, location.database, plain?.database), (Names.keyFile, keyFile, location.keyFile, plain?.keyFile)]
            .flatMap { name, given, effective, bare in
                given.map { ["--" + name, expandingTilde($0)] } ?? (effective == bare ? [] : ["--" + name, effective])
            }
        return paths + (gracePeriod.map { ["--" + Names.gracePeriod, String($0.seconds)] } ?? [])
    }

    /// --db and --key-file as given, `~` expanded: what names the store (StoreOption).
    public var storeOptions: [StoreOption] {
        [StoreOption(name: Names.database, variable: StoreLocation.databaseVariable, value: database.map(expandingTilde)),
         StoreOption(name: Names.keyFile, variable: StoreLocation.keyFileVariable, value: keyFile.map(expandingTilde))]
    }

    /// Both paths in use, whatever chose them.
    public func storeInUse() throws -> [StoreOption] {
        let location = try location
        return [StoreOption(name: Names.database, variable: StoreLocation.databaseVariable, value: location.database),
                StoreOption(name: Names.keyFile, variable: StoreLocation.keyFileVariable, value: location.keyFile)]
    }

    /// A new store with its own key file in `directory`, whatever the options say.
    public func throwaway(in directory: String) -> SQLiteSettings {
        var settings = SQLiteSettings()
        settings.database = directory + "/credentials.db"
        settings.keyFile = directory + "/key"
        return settings
    }
}


public struct SQLiteOptions: StoreOptions {
    typealias Names = SQLiteSettings.Names

    @Option(name: .customLong(Names.database), help: ArgumentHelp(
        "The database file, an absolute path, that only store and init create (default: $GIT_CREDENTIAL_SQLITE_DB, else $XDG_DATA_HOME/git-credential-sqlite/credentials.db).",
        valueName: "path"), completion: .file())
    var database: String?

    @Option(name: .customLong(Names.keyFile), help: ArgumentHelp(
        "The key file, an absolute path (default: $GIT_CREDENTIAL_SQLITE_KEY_FILE, else $XDG_CONFIG_HOME/git-credential-sqlite/key).",
        valueName: "path"), completion: .file())
    var keyFile: String?

    @Option(name: .customLong(Names.passphraseFD), help: ArgumentHelp(
        "Read the passphrase from this file descriptor instead of asking.", valueName: "n"))
    var passphraseFD: Int32?

    @Option(name: .customLong(Names.gracePeriod), parsing: .unconditional, help: ArgumentHelp(
        "After the passphrase is typed, keep the store unlocked this long, so that the rest of the git operation does not ask again"
            + " (default: \(SQLiteSettings.defaultGracePeriod.seconds / 60)m; 0: never).", valueName: "duration"),
            transform: TimeSpan.option(allowsZero: true))
    var gracePeriod: TimeSpan?

    public init() {}

    public var settings: SQLiteSettings {
        var settings = SQLiteSettings()
        settings.database = database
        settings.keyFile = keyFile
        settings.passphraseFD = passphraseFD
        if let gracePeriod { settings.gracePeriod = gracePeriod }
        return settings
    }
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
        let settings = try options.managedSettings()
        let message = try StoreAdministration.initialize(
            try settings.location, passphrase: passphrase ? settings.passphrase : nil, cost: scrypt.cost,
            otherStores: passphrase ? Self.configuredStores() : [])
        SystemIO.writeAll(2, message + "\n")
    }

    /// The stores git's configuration names (`credential.helper` and
    /// `credential.<url>.helper` values running sqlite or keyring, with their --db and
    /// --key-file): converting one store must not wipe a key file another still needs.
    static func configuredStores() -> [StoreLocation] {
        // Every line, those before a reset too: a line switched off today may be switched on again.
        guard let lines = try? GitConfig.helperLines() else { return [] }
        return lines.all.compactMap { value -> StoreLocation? in
            let line = HelperLine(parsing: value)
            guard Programs.helpers(keeping: .sqliteFile).contains(where: line.runs) else { return nil }
            return try? SQLiteSettings(readingLeniently: line.arguments[...]).location
        }
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
        let settings = try options.managedSettings()
        let location = try settings.location
        let new = PassphraseSource(fd: newPassphraseFD, option: "--new-passphrase-fd", gracePeriod: settings.passphrase.gracePeriod)
        let unlocked = try StoreAdministration.changePassphrase(location, current: settings.passphrase, new: new, cost: scrypt.cost)
        SystemIO.writeAll(2, "changed the passphrase of \(location.database), with a new key: the old passphrase opens nothing stored from now on, even with an old copy of the store\(unlocked)\n")
    }
}

struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Keep the unlocked key in the kernel keyring for a while, so git is not asked for the passphrase.",
        discussion: """
            Examples:
              git-credential-sqlite unlock               # for 15 minutes (unless unlocked already)
              git-credential-sqlite unlock --timeout 8h
            """)

    @OptionGroup var options: SQLiteOptions
    @Option(parsing: .unconditional,
            help: ArgumentHelp("How long: seconds, or a number with s, m, h or d (at most \(TimeSpan.maximum.seconds / 86400)d).",
                               valueName: "duration"),
            transform: TimeSpan.option())
    var timeout: TimeSpan?

    func run() throws {
        let settings = try options.managedSettings()
        SystemIO.writeAll(2, try StoreAdministration.unlock(try settings.location, passphrase: settings.passphrase, timeout: timeout) + "\n")
    }
}

struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Drop the unlocked key from the kernel keyring.",
        discussion: "Example:\n  git-credential-sqlite lock")

    @OptionGroup var options: SQLiteOptions

    func run() throws { SystemIO.writeAll(2, try StoreAdministration.lock(try options.managedSettings().location) + "\n") }
}

extension TimeSpan {
    /// The argument parser's reading of a duration option: the same words and limits as
    /// git's fast path (SQLiteSettings), reported after the parser's own words for a bad
    /// value (which name the option and the value), with its own fix (HelperRunner).
    /// Options that take one are parsed `.unconditional`: `-1` is a value refused as no
    /// duration, not a missing value.
    static func option(allowsZero: Bool = false) -> @Sendable (String) throws -> TimeSpan {
        { text in
            do throws(HelperError) { return try TimeSpan(parsing: text, option: nil, allowsZero: allowsZero) } catch {
                throw HelperRunner.refusing(error)
            }
        }
    }
}
