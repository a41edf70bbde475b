import Foundation
import Testing

/// What only git-credential-sqlite does, run directly as git runs it: its options (before
/// and after the action), their defaults (XDG locations) and environment variables, the
/// files it makes, its list. The protocol itself, for every helper: ProtocolTests.
@Suite struct SQLiteHelperTests: InSQLiteWorld {
    let world: SQLiteWorld

    static let alice = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")
    static let bob = wire("protocol=https", "host=example.com", "username=bob", "password=bob-secret")
    static let lookup = wire("protocol=https", "host=example.com")

    static func lookup(user: String) -> [UInt8] { wire("protocol=https", "host=example.com", "username=\(user)") }

    // MARK: Nothing created

    @Test func commandsOnAMissingStoreCreateNothing() throws {
        expectSilentMiss(try helper.get(Self.lookup))
        expectSuccess(try helper.erase(Self.alice))
        let list = try helper.list()
        expectSuccess(list)
        #expect(list.stdout.isEmpty)
        #expect(!fileExists(sandbox.databaseDirectory), "a read created the database directory")
        #expect(!fileExists(sandbox.keyDirectory), "a read created the key directory")
    }

    /// At the default locations, and after options that name a store that cannot be made.
    @Test(arguments: [["frobnicate"], ["--db", "/nonexistent/x.db", "frobnicate"]])
    func unknownActionsAreIgnoredSilently(arguments: [String]) throws {
        let result = try helper.run(arguments, input: Self.alice)
        #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        #expect(!fileExists(sandbox.databaseDirectory))
    }

    @Test(arguments: [
        ["--frobnicate", "store"], ["store", "--no-such-option"], ["--passphrase-fd", "three", "store"],
        ["--db"], ["unlock", "--timeout", "soon"], ["get", "--scrypt-cost", "10"], ["store", "--db="],
        // Durations whose product with the unit overflows 64 bits: refused, not a trap.
        ["unlock", "--timeout", "999999999999999999d"], ["unlock", "--timeout", "18446744073709551615m"],
        ["unlock", "--timeout", "4294967296"],
        // A scrypt cost no store could be opened with: refused before the database is made.
        ["init", "--passphrase", "--passphrase-fd", "0", "--scrypt-cost", "25"],
        ["init", "--passphrase", "--passphrase-fd", "0", "--scrypt-cost", "0"],
    ])
    func badOptionsFailWithOneLine(arguments: [String]) throws {
        try expectRejected(arguments)
    }

    /// What git runs for a helper string with a value missing or empty, such as
    /// `sqlite --db` or `sqlite --db=$UNSET` (git appends the action).
    @Test(arguments: [
        ["--db", "get"], ["--db", "--key-file", "store"], ["--db=", "store"], ["--db", "", "store"], ["--key-file=", "store"],
    ])
    func missingOrEmptyOptionValuesBeforeTheActionFailWithOneLine(arguments: [String]) throws {
        try expectRejected(arguments)
    }

    /// Exit 2 with one line, and nothing created: no store, no stray file in the working directory.
    func expectRejected(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try helper.run(arguments, input: Self.alice)
        expectOneLineFailure(result, exitCode: 2, sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(!fileExists(sandbox.databaseDirectory), "a rejected command created the store", sourceLocation: sourceLocation)
        #expect(files(in: sandbox.home).isEmpty, "a rejected command created a file in the working directory",
                sourceLocation: sourceLocation)
    }

    // MARK: Locations

    @Test func optionsWorkBeforeAndAfterTheAction() throws {
        let database = sandbox.root + "/elsewhere/db/creds.db"
        let keyFile = sandbox.root + "/elsewhere/keys/key"
        expectSuccess(try helper.run(["--db", database, "--key-file", keyFile, "store"], input: Self.alice))
        #expect(fileExists(database) && fileExists(keyFile))
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile), "the default locations were used")

        let after = try helper.run(["get", "--db", database, "--key-file", keyFile], input: Self.lookup)
        expectSuccess(after)
        #expect(after.attributes["password"] == "alice-secret")
    }

    @Test func environmentOverridesTheDefaultsAndOptionsOverrideTheEnvironment() throws {
        let database = sandbox.root + "/env/creds.db"
        let keyFile = sandbox.root + "/env-key/key"
        let viaEnvironment = helper.with(environment: ["GIT_CREDENTIAL_SQLITE_DB": database,
                                                       "GIT_CREDENTIAL_SQLITE_KEY_FILE": keyFile])
        try viaEnvironment.storeAll(Self.alice)
        #expect(fileExists(database) && fileExists(keyFile))
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile))
        #expect(try viaEnvironment.get(Self.lookup).attributes["password"] == "alice-secret")

        let misdirected = helper.with(environment: ["GIT_CREDENTIAL_SQLITE_DB": sandbox.root + "/nothing-here.db"])
        let viaOptions = try misdirected.run(["--db", database, "--key-file", keyFile, "get"], input: Self.lookup)
        #expect(viaOptions.attributes["password"] == "alice-secret", "\(viaOptions)")
        expectSilentMiss(try misdirected.get(Self.lookup))
    }

    // MARK: Management and files

    /// An escape sequence in a stored value must not reach the terminal as one, nor a
    /// format character fool the eye: U+202E shows `elgoog.com` for `moc.elgoog`, U+200B
    /// hides in a name that looks like another. Escaped as the trace escapes them.
    @Test func listShowsControlAndFormatCharactersEscaped() throws {
        try helper.storeAll(wire("protocol=https", "host=evil\u{1B}[2J.example", "username=u\u{7F}", "password=p"),
                            wire("protocol=https", "host=\u{202E}moc.elgoog", "username=git\u{200B}hub", "password=p"),
                            wire("protocol=https", "host=soft\u{AD}hyphen\u{FEFF}.example", "username=\u{2066}x\u{2069}", "password=p"))
        let result = try helper.list()
        expectSuccess(result)
        #expect(!result.stdout.bytes.contains(0x1B) && !result.stdout.bytes.contains(0x7F))
        #expect(!result.stdoutText.unicodeScalars.contains { $0.properties.generalCategory == .format }, "\(result)")
        for shown in [#""evil\033[2J.example""#, #""u\177""#, #""\342\200\256moc.elgoog""#, #""git\342\200\213hub""#,
                      #""soft\302\255hyphen\357\273\277.example""#, #""\342\201\246x\342\201\251""#] {
            #expect(result.stdoutText.contains(shown), "no \(shown) in \(result)")
        }
    }

    @Test func filesAreOwnerOnly() throws {
        try helper.storeAll(Self.alice, Self.bob)
        expectSuccess(try helper.erase(Self.lookup(user: "bob")))
        #expect(permissions(of: sandbox.databaseDirectory) == 0o700)
        #expect(permissions(of: sandbox.keyDirectory) == 0o700)
        #expect(permissions(of: sandbox.keyFile) == 0o600)
        let databaseFiles = files(in: sandbox.databaseDirectory)
        #expect(databaseFiles.contains(sandbox.database))
        for file in databaseFiles {
            #expect(permissions(of: file) == 0o600, "\(file) has mode \(String(permissions(of: file) ?? 0, radix: 8))")
        }
    }
}
