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
                --yes is given.

                Examples:
                  git-credential-\(name) erase-all
                  git-credential-\(name) erase-all --yes
                """)
    }

    @OptionGroup var options: Options
    @Flag(help: "Do not ask for confirmation.") var yes = false

    public func run() throws {
        guard let store = try options.managedSettings().openExisting() else {
            return SystemIO.writeAll(2, "nothing to erase: no credentials are stored\n")
        }
        let count = try store.list().count
        if count == 0 { return SystemIO.writeAll(2, "nothing to erase: no credentials are stored\n") }
        if !yes {
            let plural = count == 1 ? "" : "s"
            guard let answer = SecretPrompt.confirm("Erase all \(count) credential\(plural) stored by git-credential-\(Options.Settings.helperName)? [y/N] ") else {
                throw HelperError(.usage, "will not erase \(count) credential\(plural) without confirmation, and there is no terminal to ask",
                                  fix: "run it in a terminal, or add --yes")
            }
            guard answer else { return SystemIO.writeAll(2, "nothing erased\n") }
        }
        let erased = try store.removeAll()
        SystemIO.writeAll(2, "erased \(erased) credential\(erased == 1 ? "" : "s")\n")
    }
}
