import CLibSecret
import CSecretService
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// git-credential-secretservice's part of `doctor`: the session bus, who provides the
/// Secret Service on it, and whether the default keyring is unlocked.
public enum ServiceDiagnosis {
    static let serviceName = "org.freedesktop.secrets"

    /// `fallback`: for a helper that goes on without the Secret Service (git-credential-keyring),
    /// whose checks of it only warn when it is not there. A bus or service of another user's
    /// still fails: other programs of the session use them too.
    public static func checks(fallback: Bool = false) -> [HealthCheck] {
        csecretservice_silence_glib()
        let cancellable = g_cancellable_new()!
        defer { g_object_unref(cancellable) }
        csecretservice_watch(cancellable)
        var owner: UnsafeMutablePointer<CChar>?
        var pid: UInt32 = 0
        var error: UnsafeMutablePointer<GError>?
        let seconds: UInt32 = 5
        let found = csecretservice_bus_owner(serviceName, cancellable, seconds, &owner, &pid, &error)
        defer { g_free(owner) }
        let address = SystemIO.environment("DBUS_SESSION_BUS_ADDRESS") ?? "the default address"
        let connected = HealthCheck(.ok, "session bus", "connected to \(address)")
        func absent(_ check: HealthCheck) -> HealthCheck {
            fallback && check.verdict == .fail ? HealthCheck(.warn, check.subject, check.detail, fix: check.fix) : check
        }
        switch found {
        case 0:
            if let error, let refusal = ForeignBus.refusal(error) {
                let bus = Int(error.pointee.code) == CSECRETSERVICE_ERROR_FOREIGN_BUS
                g_error_free(error)
                let failed = HealthCheck(.fail, bus ? "session bus" : "Secret Service", refusal.message, fix: refusal.fix)
                return bus ? [failed] : [connected, failed]
            }
            let reason = SecretServiceStore.take(error) ?? "no answer"
            return [absent(HealthCheck(.fail, "session bus", "cannot connect to \(address): \(reason)",
                                       fix: "log in to a desktop session (or run dbus-run-session), or use git-credential-sqlite"))]
        case 2:
            return [connected,
                    absent(HealthCheck(.fail, "Secret Service", "no one owns \(serviceName) on the session bus",
                                       fix: "start gnome-keyring-daemon --components=secrets (or KeePassXC with its Secret Service), or use git-credential-sqlite"))]
        default:
            let name = owner.map { String(cString: $0) } ?? "?"
            let program = pid == 0 ? "" : " (" + processName(pid) + ", pid \(pid))"
            return [connected,
                    HealthCheck(.ok, "Secret Service", "\(serviceName) is owned by \(name)\(program)"),
                    absent(lockState())] + access()
        }
    }

    static func lockState() -> HealthCheck {
        guard let store = try? SecretServiceStore.connect() else {
            return HealthCheck(.fail, "keyring", "the Secret Service does not answer", fix: "restart the keyring daemon")
        }
        let (writable, reason) = store.defaultCollectionWritability()
        return writable ? HealthCheck(.ok, "keyring", reason)
            : HealthCheck(.warn, "keyring", reason + ": git cannot store or read there until it is unlocked",
                          fix: "unlock it (log in at the desktop, or seahorse)")
    }

    /// KeePassXC's per-application access confirmation (its default): the round trip passes
    /// (a client may read the item it made), while every get of an item stored earlier waits
    /// for someone at KeePassXC's screen. Told from the items git stored before, without a
    /// dialog; with none stored yet it cannot be told (the man page says so). Nothing to
    /// say otherwise: the keyring's line says it is unlocked.
    static func access() -> [HealthCheck] {
        guard let store = try? SecretServiceStore.connect(),
              (try? store.storedItemsWaitForAccessConfirmation()) == true else { return [] }
        let error = SecretServiceStore.accessNotConfirmed(dismissed: true)
        return [HealthCheck(.warn, "access", "the Secret Service asks at its screen before git reads the items it stored "
                                + "(an access confirmation, as KeePassXC asks by default): a get with no one there finds nothing",
                            fix: error.fix)]
    }

    static func processName(_ pid: UInt32) -> String {
        let bytes = SystemIO.readFile("/proc/\(pid)/comm", limit: 256) ?? []
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "unknown program"
    }
}
