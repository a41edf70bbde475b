import Foundation
import Testing

/// `--version` on every executable prints `NAME VERSION`, the version written in one place,
/// Sources/CredentialCore/Version.swift; credential-curl too, a program of the same executable.
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

    /// It knows its version itself: no other program (basic-auth-header, as the script
    /// needed) need be on PATH, nor PATH at all.
    @Test func credentialCurlNeedsNoOtherProgramForItsVersion() throws {
        for environment in [["PATH": "/usr/bin:/bin"], ["PATH": ""]] {
            let result = try sandbox.run(SourceTree.credentialCurl, ["--version"], environment: environment)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(environment): \(result)")
            #expect(result.stdoutText == "credential-curl \(try Self.written())\n", "\(result)")
        }
    }
}
