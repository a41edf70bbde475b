import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// `serve --confirm`: the person says yes on their desktop to each request, as `ssh-add -c`
/// asks: SSH_ASKPASS (else ssh-askpass on PATH) run with SSH_ASKPASS_PROMPT=confirm and the
/// question as its one argument; exit status 0 is yes. With no program, no display or no
/// answer in time, the answer is no: a request no one saw is never granted.
enum ForwardConfirmation {
    static let seconds = 60.0
    /// After a no, the remote's next requests are refused without a question this long.
    static let quietSeconds = 30.0

    enum Answer: Equatable {
        case yes, no
        case nobody(String)
    }

    /// The askpass program that asks, or why no one can be asked here.
    /// As ssh decides: SSH_ASKPASS only with a display, unless SSH_ASKPASS_REQUIRE=force
    /// (an askpass that asks elsewhere: a phone, a terminal of the person's own).
    static func asker() -> Result<String, Refused> {
        let named = SystemIO.environment("SSH_ASKPASS").flatMap { $0.isEmpty ? nil : $0 }
        let forced = named != nil && SystemIO.environment("SSH_ASKPASS_REQUIRE") == "force"
        guard PromptPlace.here.desktop || forced else {
            return .failure(Refused("no display to ask on (DISPLAY and WAYLAND_DISPLAY are unset)",
                                    fix: named == nil ? "run serve in your desktop session, or set SSH_ASKPASS to a program that asks"
                                        : "run serve in your desktop session, or set SSH_ASKPASS_REQUIRE=force to use SSH_ASKPASS without a display"))
        }
        var program = Subprocess.which("ssh-askpass")
        if let named {
            do throws(HelperError) { program = try Subprocess.named(by: "SSH_ASKPASS", named) } catch { return .failure(Refused(error.message)) }
        }
        guard let program else { return .failure(Refused("no askpass program (SSH_ASKPASS is unset and ssh-askpass is not installed)")) }
        guard access(program, X_OK) == 0 else { return .failure(Refused("SSH_ASKPASS names \(program), which cannot be run: \(SystemIO.errorText())")) }
        return .success(program)
    }

    struct Refused: Error {
        let why: String
        let fix: String
        init(_ why: String, fix: String = "run serve in your desktop session, or set SSH_ASKPASS to a program that asks") { (self.why, self.fix) = (why, fix) }
    }

    static func ask(_ question: String) -> Answer {
        let program: String
        switch asker() {
        case .success(let found): program = found
        case .failure(let refused): return .nobody(refused.why)
        }
        guard let result = Subprocess.run(program, [question], input: [], collectErrors: true, limit: 4096,
                                          environment: ["SSH_ASKPASS_PROMPT": "confirm"], timeoutSeconds: seconds) else {
            return .nobody("cannot run \(program): \(SystemIO.errorText())")
        }
        if result.timedOut { return .nobody("no answer within \(Int(seconds)) seconds") }
        return result.status == 0 ? .yes : .no
    }
}
