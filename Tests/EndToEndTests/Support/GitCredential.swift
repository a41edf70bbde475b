import Foundation
import Testing

/// `git credential fill|approve|reject` as scripts run it, with one helper configured on
/// the command line and every other helper reset:
/// `git -c credential.helper= -c credential.helper=<helper> [-c extra] credential ACTION`.
struct GitCredential {
    let sandbox: Sandbox
    /// The value of `credential.helper`: an absolute path, then any options.
    let helper: String
    /// What git and so the helper need beyond the sandbox's environment (a session bus).
    var environment: [String: String] = [:]

    func run(_ action: String, _ input: [UInt8], config: [String] = []) throws -> ProcessResult {
        let options = (["credential.helper=", "credential.helper=\(helper)"] + config).flatMap { ["-c", $0] }
        let result = try sandbox.git(options + ["credential", action], input: input, environment: environment)
        expectNoGLibNoise(result)
        return result
    }

    func approve(_ lines: String..., config: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run("approve", wire(lines), config: config)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "approve: \(result)", sourceLocation: sourceLocation)
    }

    func reject(_ lines: String..., config: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run("reject", wire(lines), config: config)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "reject: \(result)", sourceLocation: sourceLocation)
    }

    /// The password git fills in, or nil when git finds none (and, with prompts off, fails).
    func filledPassword(_ lines: String..., config: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        try filled(wire(lines), config: config, sourceLocation: sourceLocation)?["password"]
    }

    /// What git fills in, or nil when it finds no password.
    func filled(_ request: [UInt8], config: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: String]? {
        let result = try run("fill", request, config: config)
        guard result.attributes["password"] != nil else {
            #expect(result.exitCode != 0, "fill without a password succeeded: \(result)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "fill: \(result)", sourceLocation: sourceLocation)
        return result.attributes
    }

    /// Passwords and usernames with every character that URL-encoding, shells or the wire
    /// format could get wrong.
    static let awkwardPasswords = [
        #"colon:at@slash/percent%25hash#query?quote"backslash\end"#,
        "pound £ and emoji 😀 and café",
        " leading and trailing spaces ",
        "=starts with equals==",
    ]
    static let awkwardUsername = "user@corp:ü"
}

/// GLib's own log lines (g_critical, g_warning) must never reach a helper's stderr.
func expectNoGLibNoise(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
    for noise in ["CRITICAL", "WARNING", "GLib", "Gtk-"] {
        #expect(!result.stderrText.contains(noise), "stderr has \(noise.debugDescription): \(result)", sourceLocation: sourceLocation)
    }
}
