import ArgumentParser
import CredentialCore

/// A backend's own lines for `status`: which store (its path), which key, locked or not
/// and until when. One line each, fast: nothing asked, unlocked or decrypted.
public protocol StatusReporting: StoreSettings {
    func statusLines() -> [String]
}

public struct StatusCommand<Options: StoreOptions>: ParsableCommand where Options.Settings: StatusReporting {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "status",
            abstract: "The store and key git uses, locked until when, the helper git asks first.",
            discussion: """
                One line each; asks, unlocks, decrypts and changes nothing.

                Example:
                  git-credential-\(name) status
                """)
    }

    @OptionGroup var options: Options

    public func run() throws {
        SecretPrompt.allowed = false
        // Several lines of ours naming different stores (a store per URL): say so, and
        // still say what git asks.
        let own: [String]
        do { own = try options.settings.followingGit(saying: false).statusLines() } catch let error as HelperError {
            own = ["store: \(error.message) (\(error.fix ?? "name the store"))"]
        }
        let lines = own + GitAsks.lines(Options.Settings.helperName)
        SystemIO.writeAll(1, lines.map { Trace.printable($0) + "\n" }.joined())
    }
}

/// Which helper git asks first, from `GitConfig.helperLines`: in general, and for each
/// URL with lines of its own.
enum GitAsks {
    static func lines(_ name: String) -> [String] {
        guard let configured = try? GitConfig.helperLines() else {
            return ["git asks: its configuration cannot be read (git config --list says why)"]
        }
        return [line("git asks first", configured.activeGeneral, name: name)]
            + configured.byURL.map { line("for \(Trace.quoted($0.url)) git asks first", $0.lines, name: name) }
    }

    static func line(_ head: String, _ entries: [GitConfig.HelperLines.Entry], name: String) -> String {
        guard let first = entries.first else { return "\(head): no helper (\(name) is not configured)" }
        let shown = "\(head): \(Trace.quoted(first.value)) (\(first.scope) configuration)"
        if HelperLine(parsing: first.value).runs(name) { return shown }
        return shown + (entries.contains { HelperLine(parsing: $0.value).runs(name) }
            ? ", then \(name) when it has no answer" : "; \(name) is not asked")
    }
}
