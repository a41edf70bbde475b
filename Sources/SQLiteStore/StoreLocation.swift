import CredentialCore

/// Where the store keeps its files. Defaults follow XDG: the database under
/// `$XDG_DATA_HOME` (~/.local/share), the key file under `$XDG_CONFIG_HOME` (~/.config),
/// so the key never sits beside the data it protects. Options beat the environment,
/// which beats the defaults.
public struct StoreLocation: Sendable, Equatable {
    public static let databaseVariable = "GIT_CREDENTIAL_SQLITE_DB"
    public static let keyFileVariable = "GIT_CREDENTIAL_SQLITE_KEY_FILE"
    static let directoryName = "git-credential-sqlite"

    public var database: String
    public var keyFile: String

    public init(database: String, keyFile: String) {
        self.database = database
        self.keyFile = keyFile
    }

    /// Resolves options, then environment, then XDG defaults. Options come with `~`
    /// expanded (see `absolute(_:namedBy:)`).
    public static func resolve(database: String?, keyFile: String?) throws -> StoreLocation {
        let db = try database.map { try absolute($0, namedBy: "--db") } ?? environmentPath(databaseVariable)
            ?? xdgBase("XDG_DATA_HOME", default: ".local/share") + "/\(directoryName)/credentials.db"
        let key = try keyFile.map { try absolute($0, namedBy: "--key-file") } ?? environmentPath(keyFileVariable)
            ?? xdgBase("XDG_CONFIG_HOME", default: ".config") + "/\(directoryName)/key"
        return StoreLocation(database: db, keyFile: key)
    }

    /// The path, if it is absolute. git runs a helper in whatever repository it works in,
    /// so a relative path would name another store in each (and create one there), as the
    /// trace's relative GIT_TRACE paths would; `~/` the shell (or the helper, for an
    /// option) has already expanded.
    public static func absolute(_ path: String, namedBy source: String) throws -> String {
        guard path.hasPrefix("/") else {
            let shown = source.hasPrefix("--") ? "\(source) \(Trace.quoted(path))" : "\(source)=\(Trace.quoted(path))"
            throw HelperError(.usage, "\(shown) is not an absolute path, and git runs helpers in whatever repository it is in",
                              fix: source.hasPrefix("--") ? "give the whole path, starting with / or ~/"
                                  : "give the whole path, starting with / ($HOME/, not ~/, which is not expanded there)")
        }
        return path
    }

    static func environmentPath(_ variable: String) throws -> String? {
        try SystemIO.environment(variable).map { try absolute($0, namedBy: variable) }
    }

    /// The default location by XDG alone, whatever the environment variables say.
    static func xdgDefault() throws -> StoreLocation {
        StoreLocation(database: try xdgBase("XDG_DATA_HOME", default: ".local/share") + "/\(directoryName)/credentials.db",
                      keyFile: try xdgBase("XDG_CONFIG_HOME", default: ".config") + "/\(directoryName)/key")
    }

    /// Where a helper line without options finds the store when git runs it with HOME
    /// alone (cron, systemd, `env -i`): no store variable, no XDG variable. `nil` without HOME.
    public static func homeDefault() -> StoreLocation? {
        guard let home = SystemIO.environment("HOME") else { return nil }
        return StoreLocation(database: home + "/.local/share/\(directoryName)/credentials.db",
                             keyFile: home + "/.config/\(directoryName)/key")
    }

    /// An XDG base directory: the variable if it holds an absolute path (the spec says to
    /// ignore a relative one), else `$HOME/default`.
    static func xdgBase(_ variable: String, default fallback: String) throws -> String {
        if let value = SystemIO.environment(variable), value.hasPrefix("/") { return value }
        guard let home = SystemIO.environment("HOME") else {
            throw HelperError(.failure, "HOME is not set, so there is no default location for the store",
                              fix: "set HOME, or pass --db and --key-file")
        }
        return home + "/" + fallback
    }
}
