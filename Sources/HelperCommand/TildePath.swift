import CredentialCore

/// git runs helpers through the shell, which expands `~`; a path given in other ways may
/// still carry one.
public func expandingTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = SystemIO.environment("HOME") else { return path }
    return home + path.dropFirst()
}
