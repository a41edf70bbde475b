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

    /// Each example of every command, as its source writes it (the argument parser's
    /// --experimental-dump-help gives the discussions unwrapped): command path and lines.
    static func sourceExamples(of executable: String, in sandbox: Sandbox) throws -> [(command: [String], lines: [String])] {
        let dump = try sandbox.run(BuiltProducts.directory + "/" + executable, ["--experimental-dump-help"])
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.bytes)) as? [String: Any], "\(dump)")
        var result: [(command: [String], lines: [String])] = []
        func walk(_ command: [String: Any], path: [String]) {
            result.append((path, exampleLines(command["discussion"] as? String ?? "")))
            for subcommand in command["subcommands"] as? [[String: Any]] ?? [] where subcommand["commandName"] as? String != "help" {
                walk(subcommand, path: path + [subcommand["commandName"] as? String ?? ""])
            }
        }
        walk(try #require(tool["command"] as? [String: Any]), path: [])
        return result
    }

    /// The lines of the "Example:"/"Examples:" blocks of a text, without their indentation.
    static func exampleLines(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.indices.filter { lines[$0] == "Example:" || lines[$0] == "Examples:" }
            .flatMap { lines[($0 + 1)...].prefix { !$0.isEmpty } }
    }

    /// Every example in --help is one whole line, as its source writes it, so that it pastes:
    /// the argument parser wrapped them at the terminal's width (80 columns without one) in
    /// the middle of a command, e.g. of a quoted printf format.
    @Test(arguments: executables)
    func examplesInHelpAreWholeCommands(executable: String) throws {
        let examples = try Self.sourceExamples(of: executable, in: sandbox)
        #expect(examples.count >= (executable == "basic-auth-header" ? 1 : 7))
        for (command, expected) in examples {
            var lineCounts: [Int] = []
            for columns in [nil, "40", "200"] {
                let result = try sandbox.run(BuiltProducts.directory + "/" + executable, command + ["--help"],
                                             environment: columns.map { ["COLUMNS": $0] } ?? [:])
                #expect(Self.exampleLines(result.stdoutText) == expected,
                        "\(([executable] + command).joined(separator: " ")) --help at \(columns ?? "80") columns:\n\(result.stdoutText)")
                // Nor is any other line indented as an example and starting like a command one
                // that was cut off (prose is not indented, option help further).
                let commandLike = result.stdoutLines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map { String($0.dropFirst(2)) }.filter {
                    $0.hasPrefix("git-credential") || $0.hasPrefix("basic-auth-header") || $0.hasPrefix("printf ")
                        || $0.hasPrefix("git config ") || $0.hasPrefix("$ ")
                }
                #expect(commandLike.allSatisfy(expected.contains), "\(command) --help at \(columns ?? "80") columns: \(commandLike)")
                lineCounts.append(result.stdoutLines.count)
            }
            // The rest is still wrapped to the width.
            #expect(lineCounts[1] > lineCounts[2], "\(command): as many lines at 40 columns as at 200")
        }
    }

    /// The pages' examples are literal displays: each line one whole example of the source.
    @Test(arguments: executables)
    func examplesInManualPagesAreWholeCommands(executable: String) throws {
        let expected = Set(try Self.sourceExamples(of: executable, in: sandbox).flatMap(\.lines))
        let page = try String(contentsOfFile: SourceTree.root + "/man/\(executable).1", encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var checked = 0
        for (index, line) in lines.enumerated() where (line == "Example:" || line == "Examples:") && lines[index + 1].hasPrefix(".Bd -literal") {
            for literal in lines[(index + 2)...].prefix(while: { $0 != ".Ed" }) {
                let text = (literal.hasPrefix("\\&") ? String(literal.dropFirst(2)) : literal).replacingOccurrences(of: "\\e", with: "\\")
                #expect(expected.contains(text), "\(executable)(1) shows an example that is not one of the source: \(literal)")
                checked += 1
            }
        }
        #expect(checked >= expected.count, "\(executable)(1) shows \(checked) example lines of \(expected.count)")
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
