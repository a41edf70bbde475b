import ArgumentParser
import CredentialCore

public struct EraseAllCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "erase-all",
            abstract: "Erase every credential this helper stores: sign out everywhere.",
            discussion: """
                Asks for confirmation on the terminal; without a terminal it refuses unless \
                --yes is given.\(sharing ? " Credentials others hold too (a team's entries, which an erase here erases for everyone at the next sync) are left, and named, unless --shared is given." : "")

                Examples:
                  git-credential-\(name) erase-all
                  git-credential-\(name) erase-all --yes
                """)
    }

    @OptionGroup var options: Options
    @Flag(help: "Do not ask for confirmation.") var yes = false
    @Flag(help: ArgumentHelp("Erase also what others hold too (a team's shared entries): for everyone.",
                             visibility: Self.sharing ? .default : .private))
    var shared = false
    /// Only a password store holds what others hold too.
    static var sharing: Bool { Programs.helper(Options.Settings.helperName, keeps: .passwordStore) }

    public func run() throws {
        guard let store = try options.managedSettings().openExisting() else {
            return SystemIO.writeAll(2, "nothing to erase: no credentials are stored\n")
        }
        let all = try store.list().count
        let others = try store.sharedItems()
        let count = shared ? all : all - others.count
        if !shared && !others.isEmpty {
            let hosts = Set(others.compactMap { $0.credential.host.map { Trace.quoted($0.bytes) } }).sorted().joined(separator: ", ")
            SystemIO.writeAll(2, "leaving \(others.count) credential\(others.count == 1 ? "" : "s") that others hold too (\(hosts)): "
                              + "erased here, they are erased for everyone at the next sync; add --shared to erase them as well\n")
        }
        if all == 0 { return SystemIO.writeAll(2, "nothing to erase: no credentials are stored\n") }
        if count == 0 { return SystemIO.writeAll(2, "nothing erased\n") }
        if !yes {
            let plural = count == 1 ? "" : "s"
            let whose = shared && !others.isEmpty ? ", \(others.count) of them shared with others," : ""
            guard let answer = SecretPrompt.confirm("Erase all \(count) credential\(plural)\(whose) stored by git-credential-\(Options.Settings.helperName)? [y/N] ") else {
                throw HelperError(.usage, "will not erase \(count) credential\(plural) without confirmation, and there is no terminal to ask",
                                  fix: "run it in a terminal, or add --yes")
            }
            guard answer else { return SystemIO.writeAll(2, "nothing erased\n") }
        }
        let erased = try store.removeAll(includingShared: shared)
        SystemIO.writeAll(2, "erased \(erased) credential\(erased == 1 ? "" : "s")\n")
    }
}
