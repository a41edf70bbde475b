import CredentialCore

/// The settings of the suite's other helpers that this program holds (each executable
/// registers those it links, in its main.swift), so that configure can say what a helper
/// line it replaces keeps in its store: git no longer reads it, and nothing said so.
public enum OtherStores {
    nonisolated(unsafe) static var settings: [any StoreSettings.Type] = []

    public static func register(_ types: any StoreSettings.Type...) { settings += types }

    /// For a helper line of another of the suite's helpers than `name`: how many
    /// credentials its store holds (when that can be told without asking), and the
    /// command that moves them into `name`'s store (`ownArguments`: its store options,
    /// quoted; no command when `moving` is false: another note gives one). nil for a line
    /// of no other helper of the suite that this program holds.
    static func replaced(_ value: String, by name: String, ownArguments: [String], moving: Bool = true) -> String? {
        let line = HelperLine(parsing: value)
        guard let type = settings.first(where: { $0.helperName != name && line.runs($0.helperName) }) else { return nil }
        let other = type.init(readingLeniently: line.arguments[...])
        let count = other.storedCount()
        if count == 0 { return "its store holds no credentials" }
        let holds = count.map { "its store holds \($0) credential\($0 == 1 ? "" : "s"), which git no longer reads" }
            ?? "git no longer reads what its store holds"
        // import --from runs that helper for its export (the one store it keeps): the
        // line's store options go as the variables that helper reads.
        guard moving, let keeps = Programs.helper(type.helperName)?.keeps, keeps.count == 1 else { return holds }
        let variables = other.storeOptions.compactMap { option in option.value.map { option.variable + "=" + ShellWord.quoted($0) } }
        let command = (variables + [HelperLine.invocation(name), "import", "--from", type.helperName] + ownArguments).joined(separator: " ")
        return holds + "; to move them: " + command
    }
}
