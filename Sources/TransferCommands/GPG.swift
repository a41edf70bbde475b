import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// The user's gpg, run to decrypt a file of a pass-compatible store (GCM's gpg store).
/// The ciphertext goes in on stdin and the plaintext comes back on stdout: secrets on
/// pipes only, never in a file or an argument. gpg asks gpg-agent for the key, and the
/// agent asks the user through pinentry when the passphrase is not cached: that is only
/// allowed when someone can answer (a display, or a terminal named in GPG_TTY); otherwise
/// `--pinentry-mode error` makes the agent fail at once rather than wait. Either way gpg
/// is killed when it runs out of time, so import never hangs on it.
enum GPG {
    /// Which gpg, as GCM finds it (CredentialStore.GetGpgPath): GCM_GPG_PATH, else gpg2
    /// on PATH, else gpg ("mimic the way `pass` determines GPG dependency"): GPGRunner's rule.
    static var program: String? { get throws(HelperError) { try GPGRunner.program(path: SystemIO.environment("GCM_GPG_PATH")) } }

    /// The most a file may decrypt to: a credential is a line of secret and two of names.
    static let limit = 64 << 10

    /// A file gpg cannot decrypt for a reason that is the file's, not the user's: it is
    /// no OpenPGP data, or it is encrypted to no key the user has.
    struct NotDecryptable: Error { let reason: String }

    /// The plaintext of `ciphertext` (read from `name`, for messages). Throws
    /// `NotDecryptable` for a file no passphrase would open, and a `HelperError` when the
    /// user's key could not be used (its passphrase could not be asked for, gpg failed).
    static func decrypt(_ ciphertext: [UInt8], name: String) throws -> [UInt8] {
        guard let program = try program else {
            throw HelperError(.failure, "cannot decrypt \(name): gpg is not installed (nor gpg2, nor GCM_GPG_PATH)",
                              fix: "install gnupg (apt install gnupg), then import again")
        }
        // Whether pinentry could reach someone: PromptPlace's rule, as for pass.
        let asks = PromptPlace.pinentryReachable
        let timeout: Double = asks ? 120 : 20
        guard let (decrypted, result) = GPGRunner.decrypt(ciphertext, program: program, options: GPGRunner.pinentryOptions(someoneToAsk: asks),
                                                          limit: limit, timeout: timeout,
                                                          environment: GPGRunner.pinentryEnvironment(someoneToAsk: asks)) else {
            throw HelperError(.failure, "cannot run \(program) to decrypt \(name)", fix: "check that gpg is installed and runs")
        }
        let message = GPGStatus(stderr: result.errors).messages.last ?? "exit status \(result.status)"
        let check = ShellWord.command(["gpg", "--decrypt", name])
        let fix = asks ? "check that \(check) works, then import again"
            : "run import at a terminal or in the desktop session, where gpg can ask for the key's passphrase (or set GPG_TTY), or unlock the key first (\(check) >/dev/null caches it)"
        switch decrypted {
        case .text(let text): return text
        case .notForYou: throw NotDecryptable(reason: "encrypted to no key you have (\(message))")
        case .unreadable(let reason): throw NotDecryptable(reason: reason)
        case .needsPassphrase: throw HelperError(.failure, "cannot decrypt \(name) with gpg: \(message)", fix: fix)
        case .timedOut: throw HelperError(.failure, "cannot decrypt \(name): gpg did not finish within \(Int(timeout)) seconds", fix: fix)
        }
    }
}
