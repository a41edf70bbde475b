import Foundation
import Testing
import CredentialCore
@testable import HelperCommand
@testable import SQLiteCommands

/// What names a store is data (StoreSettings.storeOptions); what follows from it is
/// derived in one place (StoreOption.swift).
@Suite("StoreOption: what names a store, and what is derived from it")
struct StoreOptionTests {
    @Test func sqliteNamesItsStoreByTwoOptions() {
        let options = SQLiteSettings().storeOptions
        #expect(options.map(\.flag) == ["--db", "--key-file"])
        #expect(options.map(\.variable) == ["GIT_CREDENTIAL_SQLITE_DB", "GIT_CREDENTIAL_SQLITE_KEY_FILE"])
        #expect(options.allSatisfy { $0.value == nil })
        #expect(SQLiteSettings.storeOptionNames == ["--db", "--key-file"])
        #expect(SQLiteSettings.storeVariable("--key-file") == "GIT_CREDENTIAL_SQLITE_KEY_FILE")
        #expect(SQLiteSettings.storeVariable("--grace-period") == nil)
    }

    @Test func gitsCallNamesTheStore() throws {
        let settings = try #require(SQLiteSettings(gitArguments: ["--db=/s/credentials.db", "--grace-period", "60", "--key-file", "/s/key"]))
        #expect(settings.storeArguments == ["--db", "/s/credentials.db", "--key-file", "/s/key"])
        #expect(settings.namedBy == "--db")
        #expect(settings.storeIsNamed)
        #expect(SQLiteSettings(gitArguments: ["--db", "relative.db"]) == nil)
        #expect(SQLiteSettings(gitArguments: ["--db"]) == nil)
    }

    @Test func keyFileAloneNamesTheStore() throws {
        let settings = try #require(SQLiteSettings(gitArguments: ["--key-file", "/s/key"]))
        #expect(settings.namedBy == "--key-file")
        #expect(settings.storeArguments == ["--key-file", "/s/key"])
    }

    @Test func inUseSpellsBothPaths() throws {
        let settings = SQLiteSettings(readingLeniently: ["--db", "/s/c.db", "--key-file", "/s/key", "--passphrase-fd", "x"])
        #expect(try settings.explicitStoreArguments() == ["--db", "/s/c.db", "--key-file", "/s/key"])
        #expect(try settings.storeInUse().map(\.variable) == settings.storeOptions.map(\.variable))
    }

    /// A backend of one store is always named: management commands need not follow git's line.
    @Test func aBackendOfOneStoreIsAlwaysNamed() throws {
        struct OneStore: StoreSettings {
            static let helperName = "one"
            func openExisting() throws -> ManagedStore? { nil }
            func openOrCreate() throws -> ManagedStore { fatalError() }
            mutating func set(option name: String, to value: String) -> Bool { false }
            func helperArguments() throws -> [String] { [] }
        }
        #expect(OneStore().storeIsNamed)
        #expect(OneStore().storeArguments == [])
        #expect(OneStore.storeOptionNames == [])
        #expect(try OneStore().explicitStoreArguments() == [])
    }
}

/// The Swift face of packaging/programs (Programs) lists the same programs, in the same
/// order, of the same executables: the text file is what make, generate-docs and test-deb read.
@Suite("Programs: the table of programs")
struct ProgramsTests {
    static let textTable: [[String]] = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let text = (try? String(contentsOf: url.appendingPathComponent("packaging/programs"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").map(String.init) }
    }()

    @Test func theSwiftTableIsTheTextTable() {
        #expect(Self.textTable.count >= 6)
        #expect(Programs.all.map { [$0.name, $0.executable, $0.helperName == nil ? "command" : "helper"] } == Self.textTable)
    }

    @Test func whatSharedCodeAsks() {
        #expect(Programs.helpers(keeping: .sqliteFile) == ["sqlite", "keyring"])
        #expect(Programs.helper(keepingOnly: .desktopKeyring) == "secretservice")
        #expect(Programs.helper(keepingOnly: .passwordStore) == "pass")
        #expect(Programs.helper("keyring")?.keeps == [.desktopKeyring, .sqliteFile])
        // Every credential helper keeps credentials somewhere but the one that forwards them.
        #expect(Programs.all.filter { $0.helperName != nil && $0.keeps.isEmpty }.map(\.name) == ["git-credential-forward"])
    }
}
