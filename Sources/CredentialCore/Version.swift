/// The version of everything this package installs: the one place it is written. Each
/// executable's `--version` prints it (the argument parser's, from `Version.line`).
public enum Version {
    public static let number = "0.2.0"

    /// What `--version` prints: `NAME VERSION`.
    public static func line(_ program: String) -> String { program + " " + number }
}
