import Foundation
import Testing

/// Where the Secret Service cannot be used, git must neither hang nor see noise: get stays
/// silent (exit 0, so git asks the next helper or the user) and says at most one line;
/// store and erase fail with one line that says how to fix it.
@Suite struct SecretServiceUnavailableTests {
    /// A machine without a usable Secret Service, as a helper finds it.
    enum Situation: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// No DBUS_SESSION_BUS_ADDRESS, an empty XDG_RUNTIME_DIR, no DISPLAY: SSH, a container, CI.
        case noSessionBus = "no session bus"
        /// An address left over from a session that has ended.
        case deadSessionBus = "address of a bus that is gone"
        /// A session bus on which nothing owns, or can be started as, org.freedesktop.secrets.
        case noSecretService = "bus without a Secret Service"
        /// A keyring daemon that owns the name but never answers (stopped, wedged).
        case frozenSecretService = "Secret Service that never answers"

        var testDescription: String { rawValue }
    }

    /// A helper in the situation; the private bus, if any, lives as long as the returned value.
    struct Setup {
        let helper: SecretServiceHelper
        let bus: PrivateSessionBus?

        init(_ situation: Situation) throws {
            let sandbox = try Sandbox()
            let runtime = sandbox.root + "/runtime"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            switch situation {
            case .noSessionBus:
                bus = nil
                helper = SecretServiceHelper(sandbox: sandbox, bus: SessionBus(environment: ["XDG_RUNTIME_DIR": runtime]))
            case .deadSessionBus:
                bus = nil
                helper = SecretServiceHelper(sandbox: sandbox, bus: SessionBus(environment: [
                    "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime)/bus", "XDG_RUNTIME_DIR": runtime]))
            case .noSecretService:
                let bus = try PrivateSessionBus(sandbox: sandbox, services: .none)
                self.bus = bus
                helper = SecretServiceHelper(sandbox: sandbox, bus: bus.bus)
            case .frozenSecretService:
                let bus = try PrivateSessionBus(sandbox: sandbox, services: .none)
                try bus.startKeyring()
                bus.freezeKeyring()
                self.bus = bus
                helper = SecretServiceHelper(sandbox: sandbox, bus: bus.bus)
            }
        }
    }

    static let credential = wire("protocol=https", "host=example.com", "username=alice", "password=alice-secret")
    static let lookup = wire("protocol=https", "host=example.com")

    /// Runs the helper, expecting it to be done within a few seconds (the helper gives up
    /// on a Secret Service that has not answered in 5).
    func timed(_ run: () throws -> ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) rethrows -> ProcessResult {
        let start = Date()
        let result = try run()
        #expect(Date().timeIntervalSince(start) < 10, "took \(Date().timeIntervalSince(start)) s: \(result)",
                sourceLocation: sourceLocation)
        return result
    }

    @Test(arguments: Situation.allCases)
    func getFindsNothingAndSaysAtMostOneLine(situation: Situation) throws {
        let setup = try Setup(situation)
        for request in [Self.lookup, wire("protocol=https", "host=example.com", "username=alice")] {
            let result = try timed { try setup.helper.get(request) }
            #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderrLines.count <= 1, "\(result)")
        }
    }

    @Test(arguments: Situation.allCases)
    func storeAndEraseFailWithOneLineNamingTheFix(situation: Situation) throws {
        let setup = try Setup(situation)
        expectOneLineFailure(try timed { try setup.helper.store(Self.credential) }, exitCode: 1, mentioning: ["Fix:"])
        expectOneLineFailure(try timed { try setup.helper.erase(Self.credential) }, exitCode: 1, mentioning: ["Fix:"])
    }

    /// configure outside a desktop succeeded silently, and every git command then said the
    /// Secret Service could not be used: it writes the line, and warns in one line that
    /// names git-credential-keyring as the choice for such a machine. (A keyring daemon
    /// that owns the name but is wedged is a desktop's trouble: doctor's to tell.)
    @Test(arguments: [Situation.noSessionBus, .deadSessionBus, .noSecretService])
    func configureWarnsAndNamesKeyring(situation: Situation) throws {
        let setup = try Setup(situation)
        let configured = try setup.helper("configure")
        #expect(configured.exitCode == 0, "\(configured)")
        let warnings = configured.stderrLines.filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 1 && warnings.allSatisfy {
            $0.hasPrefix("warning: git cannot use the Secret Service here (")
                && $0.contains(". Fix: on a machine without a desktop, use git-credential-keyring configure instead (it keeps credentials in an encrypted file when no keyring answers), or, on a desktop: ")
        }, "\(configured)")
        let line = try setup.helper.sandbox.git(["config", "--global", "credential.helper"])
        #expect(line.stdoutText == BuiltProducts.secretServiceHelper + "\n", "\(line)")
    }

    /// What needs no service at all still works.
    @Test(arguments: Situation.allCases)
    func capabilityAndUnknownActionsNeedNoService(situation: Situation) throws {
        let setup = try Setup(situation)
        let capability = try setup.helper("capability")
        expectSuccess(capability)
        #expect(capability.stdoutText == "version 0\ncapability authtype\n")
        let unknown = try setup.helper("frobnicate", input: Self.credential)
        #expect(unknown.exitCode == 0 && unknown.stdout.isEmpty && unknown.stderr.isEmpty, "\(unknown)")
    }
}
