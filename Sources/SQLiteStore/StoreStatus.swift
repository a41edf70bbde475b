import CKeyUtils
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// git-credential-sqlite's lines of `status`: which store, which key, locked or not and
/// until when. Reads the settings rows and the kernel keyring's list only: never asks,
/// never decrypts, never reads a key (doctor checks that the key opens the store).
public enum StoreStatus {
    /// `arguments`: the store options in use, which the unlock command repeats.
    public static func lines(_ location: StoreLocation, arguments: [String]) -> [String] {
        let store = "store: \(location.database)"
        let database: StoreDatabase?
        do { database = try StoreDatabase.open(location.database, create: false) } catch let error as HelperError {
            return [store + " cannot be read: \(error.message)"]
        } catch { return [store + " cannot be read: \(error)"] }
        guard let database, !database.meta.isEmpty else {
            return [store + " (none yet: the first store creates it, with the key file \(location.keyFile))"]
        }
        switch database.meta[Meta.keyMode] {
        case Meta.keyFileMode?:
            return [store, "key: the key file \(location.keyFile); never locked"]
        case Meta.passphraseMode?:
            let unlock = ShellWord.command(["git-credential-sqlite", "unlock"] + arguments + ["--timeout", "8h"])
            guard let left = KernelKeyring.timeLeft(description: StoreAdministration.description(database)) else {
                return [store, "key: a passphrase; locked: git asks for it where it can ask you (\(unlock) unlocks it)"]
            }
            return [store, "key: a passphrase; unlocked in the kernel keyring " + left]
        default:
            return [store, "key: none recorded (doctor says more)"]
        }
    }
}

extension KernelKeyring {
    /// How long the cached key stays, as the kernel says it in /proc/keys ("for at least
    /// 7h more (until 11:02 or a little later; ...)"); `nil` when no key is cached that a
    /// get would use (`read` drops one with other permissions). The key is looked up by
    /// its description and never read.
    static func timeLeft(description: String) -> String? {
        let id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", description, 0)
        guard id >= 0, permissions(of: key_serial_t(id)) == permissions else { return nil }
        let serial = UInt32(bitPattern: Int32(truncatingIfNeeded: id))
        // ID flags usage timeout perm uid gid type description; the timeout is "perm",
        // "expd", or a number and one unit (s, m, h, d, w), rounded down by the kernel.
        guard let proc = SystemIO.readFile("/proc/keys", limit: 1 << 20),
              let line = String(decoding: proc, as: UTF8.self).split(separator: "\n").first(where: {
                  $0.split(separator: " ", omittingEmptySubsequences: true).first.flatMap { UInt32($0, radix: 16) } == serial
              }) else { return "(how long it stays is not shown here)" }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 3 else { return "(how long it stays is not shown here)" }
        let timeout = String(fields[3])
        if timeout == "perm" { return "with no time limit (lock locks it)" }
        let units: [Character: UInt64] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800]
        guard let unit = timeout.last.flatMap({ units[$0] }), let number = UInt64(timeout.dropLast()) else {
            return "(the kernel says \(timeout) left)"
        }
        var until = time_t(time(nil)) + time_t(number * unit), parts = tm()
        localtime_r(&until, &parts)
        let clock = format2(parts.tm_hour) + ":" + format2(parts.tm_min)
        return "for at least \(number)\(timeout.last!) more (until \(clock) or a little later; lock locks it now)"
    }

    private static func format2(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
