import CredentialCore

/// One option that names a store (`--db PATH`), as data: each backend lists its own
/// (`StoreSettings.storeOptions`), and everything said about which store is meant (is one
/// named? the words that name it, the variables import's child reads, the names a message
/// asks for) is derived from that list in one place, the extension below.
public struct StoreOption: Equatable, Sendable {
    /// The long option's name, without its dashes: `db`.
    public let name: String
    /// The environment variable that names the same when the option is not given.
    public let variable: String
    /// The value: as given (`~` expanded), or, from `storeInUse`, the one in use; `nil` when none.
    public var value: String?

    public init(name: String, variable: String, value: String?) {
        self.name = name
        self.variable = variable
        self.value = value
    }

    /// `--db`.
    public var flag: String { "--" + name }
}

/// The options of a helper line or of git's call, read without the argument parser: the
/// one reading of `--name value` and `--name=value` pairs (git's fast path, the lines of
/// git's configuration, the completion of hosts).
public enum OptionPairs {
    /// `--name=value` as (name, value), `--name` as (name, nil); `nil` for anything else.
    public static func option(_ argument: String) -> (name: String, value: String?)? {
        guard argument.hasPrefix("--") else { return nil }
        let option = argument.dropFirst(2)
        guard let equals = option.firstIndex(of: "=") else { return (String(option), nil) }
        return (String(option[..<equals]), String(option[option.index(after: equals)...]))
    }

    /// Every `--name value` or `--name=value` of `words`, each given to `set`, which says
    /// whether it took it. Strict (git's call): `false` as soon as a word is no option, a
    /// value is missing, empty or looks like an option, or `set` refuses one (the full parser
    /// then reports what is wrong). Lenient (a configured line, a line being typed): what
    /// cannot be read is passed over, and a value `set` refuses is read as the next word.
    @discardableResult
    public static func read(_ words: ArraySlice<String>, strict: Bool, into set: (String, String) -> Bool) -> Bool {
        // Strict: an empty value or one that looks like an option is a mistake for the
        // full parser to report, never a path to use.
        func usable(_ value: String) -> Bool { !strict || (!value.isEmpty && !value.hasPrefix("-")) }
        var remaining = words
        while let word = remaining.popFirst() {
            guard let (name, inline) = option(word) else {
                if strict { return false }
                continue
            }
            if let inline {
                if !(usable(inline) && set(name, inline)) && strict { return false }
            } else if let value = remaining.first, usable(value), set(name, value) {
                remaining.removeFirst()
            } else if strict {
                return false
            }
        }
        return true
    }

    /// `[--name, value, ...]` for the options that have a value.
    public static func words(_ options: [StoreOption]) -> [String] {
        options.flatMap { option in option.value.map { [option.flag, $0] } ?? [] }
    }
}

extension StoreSettings {
    /// The options of git's call (`--name value` or `--name=value`), read without the
    /// argument parser; `nil` when they are anything else.
    init?(gitArguments: ArraySlice<String>) {
        self.init()
        var settings = self
        guard OptionPairs.read(gitArguments, strict: true, into: { settings.set(option: $0, to: $1) }) else { return nil }
        self = settings
    }

    /// The options of a configured line or of words being completed: every option read
    /// that can be, none refused (a store left out could lose its key file).
    public init(readingLeniently words: ArraySlice<String>) {
        self.init()
        var settings = self
        OptionPairs.read(words, strict: false) { settings.set(option: $0, to: $1) }
        self = settings
    }

    /// Whether an option or the environment chose the store (always, for a backend with
    /// one store): management commands otherwise use the store git's configuration names.
    public var storeIsNamed: Bool { storeOptions.isEmpty || namedBy != nil }

    /// What named the store: the first option given, else the first variable set.
    public var namedBy: String? {
        let options = storeOptions
        return options.first { $0.value != nil }?.flag ?? options.first { SystemIO.environment($0.variable) != nil }?.variable
    }

    /// The options that name the store, as given (`--db PATH`, pairs of words); none for the default.
    public var storeArguments: [String] { OptionPairs.words(storeOptions) }

    /// Those options' names, for a message that asks for them.
    public static var storeOptionNames: [String] { Self().storeOptions.map(\.flag) }

    /// The variable that names the same as each store option (`--db`: GIT_CREDENTIAL_SQLITE_DB),
    /// for a command whose helper it runs (import --from) must read another store.
    public static func storeVariable(_ flag: String) -> String? { Self().storeOptions.first { $0.flag == flag }?.variable }

    /// The store options that name the store in use, whatever chose it.
    public func explicitStoreArguments() throws -> [String] { OptionPairs.words(try storeInUse()) }
}
