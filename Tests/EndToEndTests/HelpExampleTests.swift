import Foundation
import Testing

/// Every command's --help shows how to use it: an "Example:" or "Examples:" paragraph with
/// at least one command line that runs the executable or configures it for git.
@Suite struct HelpExampleTests {
    let sandbox: Sandbox

    init() throws { sandbox = try Sandbox() }

    static let executables = ["git-credential-sqlite", "git-credential-secretservice", "git-credential-keyring", "basic-auth-header"]

    /// The root and every subcommand, found by walking the SUBCOMMANDS of each --help.
    @Test(arguments: executables)
    func everyCommandsHelpHasAnExample(executable: String) throws {
        var pending: [[String]] = [[]]
        var walked = 0
        while let command = pending.popLast() {
            let result = try sandbox.run(BuiltProducts.directory + "/" + executable, command + ["--help"])
            let name = ([executable] + command).joined(separator: " ")
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(name) --help: \(result)")
            #expect(Self.hasExample(result.stdoutText, of: executable), "\(name) --help has no example:\n\(result.stdoutText)")
            pending += HelpText(result.stdoutText).subcommands.map { command + [$0] }
            walked += 1
        }
        #expect(walked >= (executable == "basic-auth-header" ? 1 : 7), "walked only \(walked) commands of \(executable)")
    }

    @Test func credentialCurlsHelpHasAnExample() throws {
        let result = try sandbox.run(SourceTree.credentialCurl, ["--help"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        #expect(Self.hasExample(result.stdoutText, of: "credential-curl"), "\(result.stdoutText)")
    }

    /// A line "Example:" or "Examples:", then indented lines, one of which runs `executable`
    /// or sets git's credential.helper.
    static func hasExample(_ help: String, of executable: String) -> Bool {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let heading = lines.firstIndex(where: { $0 == "Example:" || $0 == "Examples:" }) else { return false }
        return lines[(heading + 1)...].prefix { !$0.isEmpty }.contains { line in
            line.contains(executable) || line.hasPrefix("git config") && line.contains("credential.helper")
        }
    }
}
