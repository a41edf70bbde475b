/// The one way the suite runs gpg: pass's store (get, list, completion, doctor), GCM's gpg
/// store (import). What gpg reads is others' data as often as not (a synced store, a file
/// to import), so every run is bounded twice: gpg is killed with its process group as soon
/// as it writes more than `limit` (a 300-byte entry of nested compressed packets unpacks to
/// gigabytes, and gpg goes on unpacking after its own --max-output and after a broken pipe),
/// or when it has not finished in `timeout` seconds.
public enum GPGRunner {
    /// Which gpg runs: `path` when the caller has one (import's GCM_GPG_PATH, as Git
    /// Credential Manager finds gpg), else gpg2 when there is one, else gpg: as pass
    /// chooses. The one place that decides, for pass, doctor and import alike.
    public static func program(path: String?) throws(HelperError) -> String? {
        if let path, !path.isEmpty { return try Subprocess.named(by: "GCM_GPG_PATH", path) }
        return program
    }

    /// gpg2 when there is one, else gpg, found as every program is.
    public static var program: String? { Subprocess.which("gpg2") ?? Subprocess.which("gpg") }

    /// pass's own options for gpg, PASSWORD_STORE_GPG_OPTS split into words as pass's
    /// shell splits the unquoted variable (a --homedir there is where the keys are).
    public static func passOptions(_ variable: String?) -> [String] {
        (variable ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    /// Without a person at a pinentry (PromptPlace.pinentryReachable), gpg-agent must
    /// fail at once rather than wait for one.
    public static func pinentryOptions(someoneToAsk: Bool) -> [String] { someoneToAsk ? [] : ["--pinentry-mode", "error"] }

    /// The variables gpg needs to reach the person: GPG_TTY naming the terminal a curses
    /// pinentry opens (PromptPlace.pinentryTerminal). For the child only.
    public static func pinentryEnvironment(someoneToAsk: Bool) -> [String: String] {
        guard someoneToAsk, let tty = PromptPlace.here.pinentryTerminal else { return [:] }
        return ["GPG_TTY": tty]
    }

    public static func run(_ program: String, _ arguments: [String], input: [UInt8] = [], limit: Int, timeout: Double,
                           environment: [String: String] = [:]) -> Subprocess.Result? {
        Subprocess.run(program, arguments, input: input, limit: limit, environment: environment, timeoutSeconds: timeout)
    }

    public enum Decrypted: Equatable {
        case text([UInt8])
        /// Encrypted to none of this user's secret keys (a team's entry, for others).
        case notForYou
        /// A key of the user's was the one, and gpg-agent could not use it: its passphrase.
        case needsPassphrase
        /// Not a credential however it is read (no OpenPGP data, a broken packet, more than
        /// `limit`): the file's fault, so it is passed over and never hides the others.
        case unreadable(String)
        /// gpg had not finished within the time.
        case timedOut
    }

    /// `ciphertext` decrypted, given on a pipe (gpg never opens a file by a name someone
    /// else may have made a link), the plaintext back on a pipe. `options` come before
    /// ours: pass's PASSWORD_STORE_GPG_OPTS, the pinentry mode. `nil` when gpg cannot run.
    public static func decrypt(_ ciphertext: [UInt8], program: String, options: [String], limit: Int, timeout: Double,
                               environment: [String: String] = [:]) -> (Decrypted, Subprocess.Result)? {
        // --status-fd 2: gpg's machine-readable lines, in any locale, beside its messages.
        let arguments = ["--batch", "--no-tty", "--status-fd", "2"] + options + ["--quiet", "--yes", "--decrypt"]
        guard let result = run(program, arguments, input: ciphertext, limit: limit, timeout: timeout, environment: environment) else {
            return nil
        }
        if result.timedOut { return (.timedOut, result) }
        if result.overflowed {
            let what = result.output.count > limit ? "it decrypts to more than a credential (over \(size(limit)))"
                : "gpg says more about it than a credential needs (over \(size(limit)))"
            return (.unreadable(what), result)
        }
        if result.succeeded { return (.text(result.output), result) }
        let status = GPGStatus(stderr: result.errors)
        switch status.failure {
        case .noOpenPGPData: return (.unreadable("it is no OpenPGP data"), result)
        case .notForYou: return (.notForYou, result)
        // gpg considered a secret key of ours and still failed: it needs its passphrase.
        case .keyNotUsable where status.keywords.contains("DECRYPTION_FAILED"): return (.needsPassphrase, result)
        // A broken packet, a bad compression stream: what the file holds, not the user's key.
        case .keyNotUsable: return (.unreadable("gpg cannot read it: " + (status.messages.last { $0.hasPrefix("gpg: ") } ?? "exit status \(result.status)")), result)
        }
    }

    static func size(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }
}
