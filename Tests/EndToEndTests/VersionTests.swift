import Foundation
import Testing

/// `--version` on every executable prints `NAME VERSION`, the version written in one place,
/// Sources/CredentialCore/Version.swift; credential-curl asks basic-auth-header for it.
@Suite struct VersionTests {
    let sandbox: Sandbox

    init() throws { sandbox = try Sandbox() }

    /// The version as the one place writes it.
    static func written() throws -> String {
        let source = try String(contentsOfFile: SourceTree.root + "/Sources/CredentialCore/Version.swift", encoding: .utf8)
        let match = try #require(source.firstMatch(of: /static let number = "([0-9][^"]*)"/), "no version in Version.swift")
        return String(match.1)
    }

    @Test(arguments: HelpExampleTests.executables)
    func everyExecutablePrintsItsNameAndTheVersion(executable: String) throws {
        let result = try sandbox.run(BuiltProducts.directory + "/" + executable, ["--version"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutText == "\(executable) \(try Self.written())\n", "\(result)")
        let help = try sandbox.run(BuiltProducts.directory + "/" + executable, ["--help"])
        #expect(help.stdoutText.contains("--version"), "\(executable) --help does not list --version")
    }

    @Test func credentialCurlPrintsTheSameVersion() throws {
        let result = try sandbox.run(SourceTree.credentialCurl, ["--version"],
                                     environment: ["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdoutText == "credential-curl \(try Self.written())\n", "\(result)")
    }

    /// Without basic-auth-header (which it needs for any request) it cannot know the version: one line says so.
    @Test func credentialCurlWithoutBasicAuthHeaderSaysWhy() throws {
        let result = try sandbox.run(SourceTree.credentialCurl, ["--version"])
        #expect(result.exitCode == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderrText.hasPrefix("credential-curl: basic-auth-header is neither beside credential-curl (")
                && result.stderrText.contains(". Fix: "), "\(result)")
    }
}
