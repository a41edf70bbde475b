import Foundation
import Testing

/// man/*.1: one page per command, clean for mandoc's and groff's checkers, rendered by
/// man(1), with the hand-written sections. (That the generated pages are current is
/// checked by `scripts/generate-docs --check` in `make test`: it needs SwiftPM, which
/// cannot run inside `swift test`.)
@Suite struct ManualPageTests {
    let sandbox: Sandbox

    init() throws { sandbox = try Sandbox() }

    /// Every program (packaging/programs).
    static let commands = ProgramTable.names
    static func page(_ command: String) -> String { SourceTree.root + "/man/\(command).1" }

    @Test func thereIsOnePagePerCommand() {
        let pages = files(in: SourceTree.root + "/man").filter { $0.hasSuffix(".1") }
        #expect(pages == Self.commands.sorted().map(Self.page))
    }

    /// mandoc at its strictest, except for a page it cannot find on this machine (which
    /// depends on what is installed, not on the page).
    @Test(arguments: commands)
    func mandocFindsNothingToSay(command: String) throws {
        let result = try sandbox.run("/usr/bin/mandoc", ["-T", "lint", "-W", "style", Self.page(command)])
        let messages = (result.stdoutLines + result.stderrLines).filter {
            !$0.contains("referenced manual not found") && !$0.contains("mandoc.db")
        }
        #expect(messages.isEmpty, "\(result)")
        #expect(result.exitCode == 0 || result.exitCode == 1 && messages.isEmpty, "\(result)")
    }

    @Test(arguments: commands)
    func groffWarnsOfNothing(command: String) throws {
        let result = try sandbox.run("/usr/bin/groff", ["-ww", "-mandoc", "-z", Self.page(command)])
        #expect(result.exitCode == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }

    /// `man -l` renders the page, with no warning, and every section is there.
    @Test(arguments: commands)
    func manRendersEverySection(command: String) throws {
        let result = try sandbox.run("/usr/bin/man", ["-l", Self.page(command)],
                                     environment: ["MANPAGER": "cat", "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        // man formats bold as overstrike (X, backspace, X) even into a pipe.
        let text = result.stdoutText.replacing(/.\x{08}/, with: "")
        let lines = text.split(separator: "\n").map(String.init)
        let headings = Set(lines.filter { $0.first?.isUppercase == true && $0 == $0.uppercased() })
        var expected = ["NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO",
                        "SECURITY CONSIDERATIONS"]
        if command.hasPrefix("git-credential-") { expected.append("FILES") }
        #expect(Set(expected).isSubset(of: headings), "\(command)(1) lacks \(Set(expected).subtracting(headings))")
        #expect(text.contains(command))
    }

    /// The options every command shares are described once, under Options; a command that
    /// takes them names them (the generator repeated each under every command: the sqlite
    /// page was 634 lines).
    @Test(arguments: ["git-credential-sqlite", "git-credential-secretservice", "git-credential-keyring"])
    func sharedOptionsAreDescribedOnce(command: String) throws {
        let page = String(decoding: contents(of: Self.page(command)) ?? [], as: UTF8.self)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let options = try #require(lines.firstIndex(of: ".Ss Options"), "\(command)(1) has no Options")
        let end = try #require(lines[options...].firstIndex(of: ".El"))
        let items = lines[options..<end].filter { $0.hasPrefix(".It ") }
        #expect(items.contains(".It Fl h , -help"))
        for (index, line) in lines[options..<end].enumerated() where line.hasPrefix(".It ") {
            let description = lines[(options + index + 1)...].prefix { !$0.hasPrefix(".It ") && $0 != ".El" }.joined(separator: "\n")
            #expect(page.components(separatedBy: "\n" + line + "\n").count == 2, "\(command)(1) has \(line) more than once")
            #expect(page.components(separatedBy: description).count == 2, "\(command)(1) describes \(line) more than once")
        }
        if command != "git-credential-secretservice" {
            #expect(items.contains(".It Fl -db Ar path"))
            // Every command takes them: said once, above them, and under no command again.
            #expect(lines[options + 1] == "Every command takes these options, unless it names the ones it takes.", "\(command)(1)")
            #expect(!lines.contains { $0.hasPrefix(".It Fl -db Ar path , ") }, "\(command)(1)")
        }
        #expect(lines.count < 600, "\(command)(1) has \(lines.count) lines")
    }

    /// The generated part documents every subcommand of the helpers.
    @Test(arguments: ["git-credential-sqlite", "git-credential-secretservice", "git-credential-keyring"])
    func everySubcommandIsDocumented(command: String) throws {
        let help = try sandbox.run(BuiltProducts.directory + "/" + command, ["--help"])
        let page = String(decoding: contents(of: Self.page(command)) ?? [], as: UTF8.self)
        let subcommands = HelpText(help.stdoutText).subcommands
        #expect(!subcommands.isEmpty)
        for subcommand in subcommands {
            #expect(page.contains(".It Em \(subcommand)"), "\(command)(1) does not describe \(subcommand)")
        }
    }
}
