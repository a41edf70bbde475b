import ArgumentParser
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

public struct DoctorCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "doctor",
            abstract: "Check the setup and say what to fix: PATH, git and its configuration, the store, a round trip.",
            discussion: """
                Prints one verdict per check (ok, warn or FAIL) with the fix, never a secret, \
                and exits 1 when a check fails. The round trip stores, reads back and erases a \
                throwaway credential for a host under .invalid. It asks for nothing: a locked \
                store or keyring is reported as locked.

                Example:
                  git-credential-\(name) doctor
                """)
    }

    @OptionGroup var options: Options

    public func run() throws {
        let name = Options.Settings.helperName
        let settings = options.settings
        SecretPrompt.allowed = false
        let checks = [Doctor.path(name)] + Doctor.git(name) + settings.diagnose() + [Doctor.roundTrip(settings)]
        SystemIO.writeAll(1, checks.map { $0.line + "\n" }.joined())
        if checks.contains(where: { $0.verdict == .fail }) { throw ExitCode.failure }
    }
}

/// The checks every helper shares.
enum Doctor {
    static func path(_ name: String) -> HealthCheck {
        let program = "git-credential-" + name
        guard let found = Subprocess.which(program) else {
            return HealthCheck(.fail, "PATH", "git cannot find \(program) on PATH",
                               fix: "make install, or add the directory that holds it to PATH")
        }
        if let here = Subprocess.currentExecutable, Subprocess.realPath(found) != here {
            return HealthCheck(.warn, "PATH", "git finds \(found), not this \(here)", fix: "remove the other copy, or order PATH")
        }
        return HealthCheck(.ok, "PATH", "git finds \(found)")
    }

    /// The git version and its protocol features, and how git config names helpers.
    static func git(_ name: String) -> [HealthCheck] {
        guard let version = try? GitConfig.git(["--version"]), version.succeeded else {
            return [HealthCheck(.fail, "git", "git does not run", fix: "install git (apt-get install git)")]
        }
        let text = version.outputText.split(separator: "\n").first.map(String.init) ?? "git"
        return [HealthCheck(.ok, "git", text + ": " + features(of: text)), configuration(name)]
    }

    /// Which credential features of the protocol this git sends, by version.
    static func features(of versionText: String) -> String {
        let numbers = versionText.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
        let version = (numbers.first ?? 0, numbers.dropFirst().first ?? 0)
        let features = [((2, 41), "password_expiry_utc, oauth_refresh_token, wwwauth[]"),
                        ((2, 46), "authtype, credential, capabilities")]
        let has = features.filter { version >= $0.0 }.map(\.1)
        let lacks = features.filter { version < $0.0 }.map { "\($0.1) (git \($0.0.0).\($0.0.1))" }
        return (has.isEmpty ? "" : "sends " + has.joined(separator: ", ") + (lacks.isEmpty ? "" : "; "))
            + (lacks.isEmpty ? "" : "lacks " + lacks.joined(separator: ", "))
    }

    /// The helpers git will run, in order: those after the last empty reset line.
    static func configuration(_ name: String) -> HealthCheck {
        let subject = "git config"
        guard let all = try? GitConfig(scope: nil, key: "credential.helper").values() else {
            return HealthCheck(.fail, subject, "git config cannot be read", fix: "run git config --list to see what is wrong")
        }
        let active = all.lastIndex(of: "").map { Array(all[($0 + 1)...]) } ?? all
        // Values as Trace.quoted writes them: a repository's configuration is outside data.
        let order = active.isEmpty ? "no helper" : "helpers in order: " + active.map(Trace.quoted).joined(separator: ", ")
        guard active.contains(where: { HelperName.isOurs($0, name: name) }) else {
            return HealthCheck(.fail, subject, "credential.helper does not name \(name) (\(order))", fix: "git-credential-\(name) configure")
        }
        let ours = active.firstIndex { HelperName.isOurs($0, name: name) }!
        // cache in front is the usual pairing (memory first); anything else answers first.
        if let earlier = active[..<ours].first(where: { $0.split(separator: " ").first != "cache" }) {
            return HealthCheck(.warn, subject, "\(order): \(Trace.quoted(earlier)) comes first, so git uses its answers before \(name)'s",
                               fix: "git-credential-\(name) configure (it resets the list)")
        }
        if let plaintext = active.first(where: { $0.split(separator: " ").first == "store" }) {
            return HealthCheck(.warn, subject, "\(order): \(Trace.quoted(plaintext)) runs too and writes every credential in clear to a file",
                               fix: "git-credential-\(name) configure (it resets the list), then import --remove-source")
        }
        return HealthCheck(.ok, subject, order)
    }

    /// Store, read back and erase a throwaway credential, as git would.
    static func roundTrip(_ settings: some StoreSettings) -> HealthCheck {
        let subject = "round trip"
        let secret = Value(Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255) }))
        let credential = Credential(protocol: "https", host: "git-credential-doctor.invalid", username: "doctor", password: secret)
        let request = Credential(protocol: "https", host: "git-credential-doctor.invalid", username: "doctor")
        defer { _ = try? HelperActions.erase(request, from: settings.openExisting) }
        do {
            try HelperActions.store(credential, now: now(), in: settings.openOrCreate)
            guard try HelperActions.get(request, now: now(), from: settings.openExisting)?.password == secret else {
                return HealthCheck(.fail, subject, "a stored credential did not read back", fix: "report this as a bug")
            }
            try HelperActions.erase(request, from: settings.openExisting)
            guard try HelperActions.get(request, now: now(), from: settings.openExisting) == nil else {
                return HealthCheck(.fail, subject, "an erased credential is still there", fix: "report this as a bug")
            }
            return HealthCheck(.ok, subject, "stored, read back and erased a test credential")
        } catch let error as HelperError {
            return HealthCheck(.fail, subject, error.message, fix: error.fix)
        } catch {
            return HealthCheck(.fail, subject, "\(error)")
        }
    }
}
