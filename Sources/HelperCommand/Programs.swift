/// The suite's programs, as packaging/programs lists them (HelperCommandTests checks that
/// the two agree), with where each helper keeps credentials: shared code asks this table
/// instead of spelling backend names (configure's note on a stranded store, init's other
/// stores, import --from). Data only: nothing here runs on git's get, store or erase.
public enum Programs {
    /// Where a helper keeps credentials.
    public enum Place: Sendable, Equatable, CaseIterable {
        /// An encrypted SQLite file and its key file (--db, --key-file).
        case sqliteFile
        /// The desktop keyring, through the Secret Service.
        case desktopKeyring
        /// pass's password store, whose entries a team may share through git (erase-all
        /// leaves the shared ones, list may show unreadable ones).
        case passwordStore
    }

    public struct Program: Sendable {
        /// What it is run by: git-credential-sqlite, basic-auth-header.
        public let name: String
        /// The executable it is a name of (MultiCall).
        public let executable: String
        /// Where a credential helper keeps credentials, in the order it reads them; none for a
        /// command, and for git-credential-forward, which keeps nothing (the person's machine does).
        public let keeps: [Place]

        /// A credential helper's short name (credential.helper=sqlite); `nil` for a command.
        public var helperName: String? { name.hasPrefix("git-credential-") ? String(name.dropFirst("git-credential-".count)) : nil }
    }

    static let helpers = "credential-helpers", libsecret = "credential-helpers-libsecret"

    /// In packaging/programs' order.
    public static let all: [Program] = [
        Program(name: "git-credential-sqlite", executable: helpers, keeps: [.sqliteFile]),
        Program(name: "git-credential-pass", executable: helpers, keeps: [.passwordStore]),
        Program(name: "basic-auth-header", executable: helpers, keeps: []),
        Program(name: "credential-curl", executable: helpers, keeps: []),
        Program(name: "git-credential-forward", executable: helpers, keeps: []),
        Program(name: "git-credential-secretservice", executable: libsecret, keeps: [.desktopKeyring]),
        Program(name: "git-credential-keyring", executable: libsecret, keeps: [.desktopKeyring, .sqliteFile]),
    ]

    /// The credential helper of that short name.
    public static func helper(_ name: String) -> Program? { all.first { $0.helperName == name } }

    /// The short names of the helpers that keep credentials in `place`, in the table's order.
    public static func helpers(keeping place: Place) -> [String] { all.filter { $0.keeps.contains(place) }.compactMap(\.helperName) }

    /// Whether helper `name` keeps credentials in `place`.
    public static func helper(_ name: String, keeps place: Place) -> Bool { helper(name)?.keeps.contains(place) == true }

    /// The short name of the helper that keeps credentials in `place` alone (import --from it).
    public static func helper(keepingOnly place: Place) -> String? { all.first { $0.keeps == [place] }?.helperName }
}
