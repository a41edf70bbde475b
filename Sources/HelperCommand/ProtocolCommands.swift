import ArgumentParser
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// A helper's settings as plain values: how to open its store. Read by the argument
/// parser for people, and without it for git's own calls (see `HelperRunner`). What names
/// the store is data (`storeOptions`); what follows from it is derived once (StoreOption.swift).
public protocol StoreSettings {
    /// The helper's name for git config: `credential.helper=NAME` runs git-credential-NAME.
    static var helperName: String { get }
    init()
    /// The store to read or erase from; `nil` when none exists (nothing is created).
    func openExisting() throws -> ManagedStore?
    /// The store to write to, created on first use.
    func openOrCreate() throws -> ManagedStore
    /// Sets the option of that long name; false for any it does not know.
    mutating func set(option name: String, to value: String) -> Bool
    /// The options given, as configure writes them into the helper line (paths absolute);
    /// throws for one that means nothing there.
    func helperArguments() throws -> [String]
    /// The options that name the store, each with its value as given (`~` expanded) or
    /// `nil`; none for a backend of one store (the Secret Service, pass).
    var storeOptions: [StoreOption] { get }
    /// The same options with the values in use, whatever chose them (option, variable, default).
    func storeInUse() throws -> [StoreOption]
    /// Why git could not use this helper here at all, said by configure once it has
    /// written the line (one line, with its Fix); nil when nothing stands in the way.
    func configureWarning() -> String?
    /// How many credentials the store holds, told without asking for anything (no
    /// passphrase, no gpg, no keyring prompt) and without creating it; nil when it cannot
    /// be told so. For configure's line about a helper it replaces (`OtherStores`).
    func storedCount() -> Int?
    /// Refuses a store place the store itself would refuse, before configure writes a line
    /// naming it (a database under /tmp: every git command would then fail).
    func checkStorePlace() throws
}

extension StoreSettings {
    public var storeOptions: [StoreOption] { [] }
    public func storeInUse() throws -> [StoreOption] { [] }
    public func configureWarning() -> String? { nil }
    public func storedCount() -> Int? { nil }
    public func checkStorePlace() throws {}
}

/// What `doctor` needs besides: management, not the protocol git calls.
public protocol DiagnosableSettings: StoreSettings {
    /// The backend's own checks for `doctor` (service, files, modes, lock state).
    func diagnose() -> [HealthCheck]
    /// The same backend with its files in `directory`: doctor's round trip there creates
    /// and changes nothing of the user's (a backend without files is itself).
    func throwaway(in directory: String) -> Self
    /// Why doctor's round trip cannot be tried (a check before it failed already), if so.
    var roundTripBlocker: String? { get }
    /// What doctor says of a round trip that failed with `error` when that is the normal
    /// state of a healthy setup (a key whose passphrase gpg-agent will ask for); nil: a
    /// FAIL with the error's own line.
    func roundTripCheck(after error: HelperError) -> HealthCheck?
}

extension DiagnosableSettings {
    public var roundTripBlocker: String? { nil }
    public func roundTripCheck(after error: HelperError) -> HealthCheck? { nil }
}

/// The argument-parser face of a helper's settings.
public protocol StoreOptions: ParsableArguments {
    associatedtype Settings: StoreSettings
    var settings: Settings { get }
}

public func now() -> UInt64 { UInt64(max(0, time(nil))) }

/// get, store and erase: what git calls, the same for every backend.
enum ProtocolAction: String {
    case get, store, erase

    /// The action when the arguments are git's own call (`[OPTIONS] ACTION`, no help asked).
    static func invoked(by arguments: [String]) -> ProtocolAction? {
        guard let last = arguments.last, let action = ProtocolAction(rawValue: last),
              !arguments.contains(where: { ["-h", "--help", "help"].contains($0) })
        else { return nil }
        return action
    }

    var abstract: String {
        switch self {
        case .get: "Print the stored credential that matches the request on stdin (git calls this)."
        case .store: "Store the credential on stdin, replacing the one for the same user and location (git calls this)."
        case .erase: "Erase every stored credential that matches the request on stdin (git calls this)."
        }
    }

    /// What was done with input that is not the protocol.
    var outcome: String {
        switch self {
        case .get: "nothing was looked up"
        case .store: "nothing was stored"
        case .erase: "nothing was erased"
        }
    }

    func run(_ settings: some StoreSettings) throws {
        Trace.enter(rawValue)
        if TerminalInput.isTerminal { try atTerminal(settings) }
        let request: Credential
        do { request = try WireFormat.read(from: 0) } catch { throw error.asInputError(outcome) }
        Trace.note("request " + Trace.describe(request))
        switch self {
        case .get:
            do {
                if let found = try HelperActions.get(request, now: now(), from: settings.openExisting) {
                    let response = WireFormat.response(found, for: request)
                    SystemIO.writeAll(1, response)
                    Trace.note("answered " + Trace.describe((try? WireFormat.parse(response)) ?? Credential()))
                } else {
                    Trace.note("answered nothing (no item matched, or each has expired without a refresh token or has only a credential for a caller without capability[]=authtype)")
                }
            } catch let error as HelperError where error.kind == .notFound {
                // git's get stays quiet (it runs on every fetch); list and the others say it.
                Trace.note("answered nothing: " + error.message)
            } catch let error as HelperError where error.kind == .unavailable {
                // git moves on to the next helper or its own prompt: say why once, exit 0.
                let line = error.line(program: CommandLine.programName)
                SystemIO.writeAll(2, line + "\n")
                Trace.note("answered nothing, exit code 0 so that git asks the next helper: " + line)
            }
        case .store: try HelperActions.store(request, now: now(), in: settings.openOrCreate)
        case .erase:
            // git erases from every helper when a credential is refused, also before
            // anything was ever stored in a store named on the helper line (a first clone
            // with a mistyped password): nothing to erase, quietly. `erase HOST` says it.
            do { try HelperActions.erase(request, from: settings.openExisting) } catch let error as HelperError where error.kind == .notFound {
                Trace.note("erased nothing: " + error.message)
            }
        }
    }
}

extension ProtocolAction {
    /// git never gives a helper a terminal as stdin: a person typed the action, and would
    /// otherwise wait on a silent terminal. erase has its HOST-OR-URL for them; store
    /// would show the password as it is typed, where git credential fill asks for it
    /// hidden; get says what it reads, and reads it.
    func atTerminal(_ settings: some StoreSettings) throws {
        let program = CommandLine.programName
        // The store options given go into the command of the fix: pasted without them, it
        // would act on another store.
        let options = settings.storeArguments.map { " " + ShellWord.quoted($0) }.joined()
        switch self {
        case .erase:
            throw HelperError(.usage, "erase reads git's request on standard input, which is a terminal here",
                              fix: "give what to erase: \(program)\(options) erase HOST-OR-URL")
        case .store:
            throw HelperError(.usage, "store reads git's credential on standard input, which is a terminal here, where the password would show as typed",
                              fix: "let git ask for it: printf 'url=https://HOST\\n\\n' | git credential fill | \(program)\(options) store")
        case .get:
            TerminalInput.sayWhatIsRead("get reads git's request from the terminal: key=value lines (protocol=https, host=example.com), then an empty line")
        }
    }
}

/// The protocol actions as commands, so that they show in help and man pages; git's
/// own calls reach `ProtocolAction` directly.
public struct GetCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "get", abstract: ProtocolAction.get.abstract,
            discussion: """
                Example:
                  printf 'protocol=https\\nhost=example.com\\n\\n' | git-credential-\(Options.Settings.helperName) get
                """)
    }
    @OptionGroup var options: Options
    public func run() throws { try ProtocolAction.get.run(options.settings) }
}

public struct StoreCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "store", abstract: ProtocolAction.store.abstract,
            discussion: """
                Example:
                  printf 'url=https://example.com\\n\\n' | git credential fill | git-credential-\(Options.Settings.helperName) store
                """)
    }
    @OptionGroup var options: Options
    public func run() throws { try ProtocolAction.store.run(options.settings) }
}

public struct EraseCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "erase", abstract: ProtocolAction.erase.abstract,
            discussion: """
                Given a host or URL instead, erases what it selects, as list shows it, and \
                says how many: a host alone, every protocol, port, path and user of it \
                (github.com covers github.com:8443); a host:port, that port only; a URL, its \
                user and its path (for http and https, items stored without a path too).

                Examples:
                  printf 'protocol=https\\nhost=example.com\\n' | git-credential-\(name) erase
                  git-credential-\(name) erase example.com
                  git-credential-\(name) erase https://alice@example.com
                """)
    }
    @OptionGroup var options: Options
    @Argument(help: ArgumentHelp("A host (every port), host:port or URL to erase, instead of a request on standard input.",
                                 valueName: "host-or-url"),
              completion: StoredHosts<Options>.completion)
    var target: String?

    public func run() throws {
        guard let target else { return try ProtocolAction.erase.run(options.settings) }
        let selected = try HostOrURL.parse(target, everything: "use erase-all to erase everything")
        var erased = 0
        if let store = try options.managedSettings().openExisting() {
            // A host alone covers its ports: the store's own list says which there are.
            // So does a URL's path tell its items from other repositories'.
            let items = try selected.anyPort || selected.httpPath != nil ? selected.request.host.map { try store.list(host: $0.text).map(\.credential) } ?? [] : []
            for request in selected.requests(covering: items) { erased += try HelperActions.erase(request) { store } }
        }
        SystemIO.writeAll(2, "erased \(erased) credential\(erased == 1 ? "" : "s")\n")
    }
}

public struct CapabilityCommand: ParsableCommand {
    public init() {}
    // Not generic over the options: the example names the helper as it was run.
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "capability", abstract: "Print the protocol capabilities this helper supports.",
                             discussion: "Example:\n  \(CommandLine.programName) capability")
    }

    public func run() throws { SystemIO.writeAll(1, Capability.announcement) }
}

extension CommandLine {
    /// The name the helper was run as, for messages.
    static var programName: String {
        let path = arguments.first ?? "git-credential-helper"
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
