import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// git-credential-sqlite's part of `doctor`: its files, their modes, the key, the
/// database's own integrity check. Reads only; creates nothing.
public enum StoreDiagnosis {
    /// `arguments`: the store options in use, which every Fix line that names a command repeats.
    public static func checks(_ location: StoreLocation, arguments: [String]) -> [HealthCheck] {
        let database = location.database
        // The rule every command applies before touching the files, so doctor says why they refuse.
        do throws(HelperError) { try StoreFiles.checkDatabase(database) } catch {
            return [HealthCheck(.fail, "store", error.message, fix: error.fix)]
        }
        guard PrivateFiles.exists(database) else {
            // What the first store checks before it creates anything (openOrCreate).
            do throws(HelperError) { try StoreFiles.checkKeyFile(location.keyFile) } catch {
                return [HealthCheck(.fail, "key file", error.message, fix: error.fix)]
            }
            return [HealthCheck(.ok, "store", "\(database) does not exist yet; the first store creates it")]
        }
        var checks = [mode(of: PrivateFiles.directory(of: database), expected: 0o700, what: "store directory"),
                      mode(of: database, expected: 0o600, what: "store")]
        do {
            guard let opened = try StoreDatabase.open(database, create: false) else { return checks }
            let integrity = try opened.connection.prepare("PRAGMA quick_check")
            _ = try integrity.step()
            let verdict = integrity.text(0) ?? "no answer"
            checks.append(verdict == "ok" ? HealthCheck(.ok, "store", "\(database) passes SQLite's quick_check")
                : HealthCheck(.fail, "store", "\(database) fails SQLite's quick_check: \(verdict)", fix: "restore it from a backup"))
            checks.append(key(opened, location: location, arguments: arguments))
        } catch let error as HelperError {
            checks.append(HealthCheck(.fail, "store", error.message, fix: error.fix))
        } catch {
            checks.append(HealthCheck(.fail, "store", "\(database) cannot be read: \(error)", fix: "restore it from a backup"))
        }
        return checks
    }

    static func key(_ database: StoreDatabase, location: StoreLocation, arguments: [String]) -> HealthCheck {
        let meta = database.meta
        do throws(HelperError) { try KeyAccess.checkShape(database) } catch {
            return HealthCheck(.fail, "store", error.message, fix: error.fix)
        }
        switch meta[Meta.keyMode] {
        case Meta.keyFileMode?:
            do throws(HelperError) { try StoreFiles.checkKeyFile(location.keyFile) } catch {
                return HealthCheck(.fail, "key file", error.message, fix: error.fix)
            }
            // readSecret refuses a key file any other may read: the same rule, so a FAIL.
            let check = mode(of: location.keyFile, expected: 0o600, refused: 0o077, what: "key file")
            guard check.verdict == .ok else { return check }
            let key: UnlockedKey?
            do throws(HelperError) { key = try KeyAccess.verified(try KeyFile.read(location.keyFile), for: database) } catch {
                return HealthCheck(.fail, "key file", error.message, fix: error.fix)
            }
            guard key != nil else {
                return HealthCheck(.fail, "key file", "\(location.keyFile) does not open \(location.database)",
                                   fix: "point --key-file or \(StoreLocation.keyFileVariable) at the key made with this store")
            }
            return HealthCheck(.ok, "key file", "\(location.keyFile) (mode 0600) opens the store")
        case Meta.passphraseMode?:
            let cached = KernelKeyring.read(description: KernelKeyring.description(databaseID: meta[Meta.databaseID] ?? []))
            return cached.flatMap { try? KeyAccess.verified($0, for: database) } != nil
                ? HealthCheck(.ok, "key", "passphrase-protected, unlocked in the kernel keyring")
                : HealthCheck(.warn, "key", "passphrase-protected and locked: git can read it only where it can ask you",
                              fix: ShellWord.command(["git-credential-sqlite", "unlock"] + arguments + ["--timeout", "8h"]))
        default:
            return HealthCheck(.fail, "key", "\(location.database) records no key mode", fix: "restore it from a backup")
        }
    }

    /// A mode the helpers refuse (PrivateFiles: writable by others; for the key, any access
    /// by others) is a FAIL; one they accept but that shows more than needed is a warning:
    /// doctor and the helpers apply one rule.
    static func mode(of path: String, expected: mode_t, refused: mode_t = 0o022, what: String) -> HealthCheck {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return HealthCheck(.fail, what, "\(path) is missing (\(SystemIO.errorText()))", fix: "restore it from a backup")
        }
        let mode = info.st_mode & 0o7777
        let octal = "0" + String(mode, radix: 8)
        let fix = ShellWord.command(["chmod", String(expected, radix: 8), path])
        // The helpers' own rule first (PrivateFiles), then what doctor asks beyond it.
        if let reason = PrivateFiles.whyOthersCouldWrite(info, rootIsTrusted: false) {
            return HealthCheck(.fail, what, "\(path) \(reason), so the helpers refuse it",
                               fix: info.st_uid == geteuid() ? fix : "move it aside: it belongs to uid \(info.st_uid)")
        }
        guard mode & refused == 0 else {
            return HealthCheck(.fail, what, "\(path) has mode \(octal): others may \(refused & 0o044 != 0 ? "read it" : "change it"), so the helpers refuse it", fix: fix)
        }
        guard mode & ~expected == 0 else {
            let shown = info.st_mode & S_IFMT == S_IFDIR ? "others may list the names of the files in it" : "others may read it (sealed)"
            return HealthCheck(.warn, what, "\(path) has mode \(octal): \(shown)", fix: fix)
        }
        return HealthCheck(.ok, what, "\(path) (mode \(octal))")
    }
}
