import Foundation
import Testing

/// The README's KeePassXC set-up names the settings as KeePassXC (Debian's 2.7.4) shows them,
/// the ones scripts/with-test-keepassxc sets for the tests: a label the person cannot find
/// sends them looking in the wrong place.
@Suite struct KeePassXCSetupTests {
    /// Each label the README quotes, and the setting of the test world it stands for.
    static let settings = [
        ("Enable KeepassXC Freedesktop.org Secret Service integration", "[FdoSecrets]\nEnabled=true"),
        ("Expose entries under this group:", "FDO_SECRETS_EXPOSED_GROUP"),
        ("Confirm when passwords are retrieved by clients", "ConfirmAccessItem=$confirm_access"),
    ]

    @Test func theREADMEsStepsAreTheTestWorldsInKeePassXCsOwnWords() throws {
        let readme = try String(contentsOfFile: SourceTree.root + "/README.md", encoding: .utf8)
        let script = try String(contentsOfFile: SourceTree.root + "/scripts/with-test-keepassxc", encoding: .utf8)
        let program = try #require(Sandbox.which("keepassxc"), "keepassxc is not installed")
        let strings = try Data(contentsOf: URL(fileURLWithPath: program))
        for (label, setting) in Self.settings {
            // The README wraps its lines: compare with single spaces.
            #expect(readme.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("\"\(label)\""),
                    "the README does not quote \(label.debugDescription)")
            #expect(script.contains(setting), "the test world does not set \(setting.debugDescription)")
            #expect(strings.range(of: Data(label.utf8)) != nil, "KeePassXC does not say \(label.debugDescription)")
        }
    }
}
