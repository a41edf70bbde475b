import CredentialCore

/// git-credential-pass is a person's choice (git-credential-keyring never picks it), so
/// git asks it on a line of its own: the other helpers' `list` and `which` say so when
/// git's configuration has one, or their answers would look like all there is.
public enum ConfiguredPass {
    /// Where git asks pass, relative to helper `name`'s line: "before" or "after" it,
    /// "too" (no line of `name`, but one of a helper reading its store), or "instead" (no
    /// line git asks reads `name`'s store: git asks pass, not `name`); nil when no line runs pass or git cannot say.
    public static func order(relativeTo name: String) -> String? {
        guard let passName = Programs.helper(keepingOnly: .passwordStore), name != passName,
              let configured = try? GitConfig.helperLines() else { return nil }
        let lines = configured.active.map(HelperLine.init(parsing:))
        guard let pass = lines.firstIndex(where: { $0.runs(passName) }) else { return nil }
        guard let own = lines.firstIndex(where: { $0.runs(name) }) else {
            // What git actually asks (GitConfig.helperLines: after the last reset line):
            // another of the suite's helpers that reads this one's store (keyring reads
            // sqlite's), or none (a later configure, or a reset line, stopped this one).
            let places = Programs.helper(name)?.keeps ?? []
            let readers = Programs.all.filter { program in
                program.helperName.map { helper in lines.contains { $0.runs(helper) } } == true && program.keeps.contains(where: places.contains)
            }
            return readers.isEmpty ? "instead" : "too"
        }
        return pass < own ? "before" : "after"
    }

    /// The line for people, or nil.
    public static func note(for name: String) -> String? {
        order(relativeTo: name).map {
            if $0 == "instead" {
                return "git asks git-credential-pass, not git-credential-\(name) (no credential.helper line after the last reset line reads its store), "
                    + "so these are not the credentials git uses: git-credential-pass list"
            }
            return "git also asks git-credential-pass (" + ($0 == "too" ? "configured too" : "\($0) git-credential-\(name)")
                + "), whose credentials are not shown here: git-credential-pass list"
        }
    }
}
