import CKeyUtils
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// The kernel's per-user keyring (keyctl), which keeps an unlocked data key for a while
/// with no daemon: `unlock --timeout` puts it there, `lock` or the timeout removes it.
enum KernelKeyring {
    static func description(databaseID: [UInt8]) -> String {
        "git-credential-sqlite:" + Hex.encode(databaseID)
    }

    static func store(_ key: [UInt8], description: String, timeoutSeconds: UInt32) throws(HelperError) {
        let id = key.withUnsafeBytes { add_key("user", description, $0.baseAddress, $0.count, KEY_SPEC_USER_KEYRING) }
        guard id >= 0 else {
            throw HelperError(.failure, "cannot put the key in the kernel keyring: \(SystemIO.errorText())",
                              fix: "the kernel keyring is unavailable here (containers often block it); enter the passphrase when asked instead")
        }
        // Any process of this user may read it (as it may read a key file), no one else.
        let permissions = UInt32(KEY_POS_ALL) | UInt32(KEY_USR_VIEW) | UInt32(KEY_USR_READ) | UInt32(KEY_USR_SEARCH)
        if keyctl_setperm(id, permissions) < 0 || keyctl_set_timeout(id, timeoutSeconds) < 0 {
            let reason = SystemIO.errorText()
            keyctl_invalidate(id)
            throw HelperError(.failure, "cannot set the timeout of the cached key: \(reason)", fix: nil)
        }
    }

    /// The cached key, or `nil` when there is none (expired, locked, or no keyring).
    static func read(description: String) -> [UInt8]? {
        let id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", description, 0)
        guard id >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { keyctl_read(key_serial_t(id), $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count == 32 else { return nil }
        return Array(buffer.prefix(32))
    }

    /// Drops the cached key; true if there was one.
    @discardableResult
    static func remove(description: String) -> Bool {
        let id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", description, 0)
        guard id >= 0 else { return false }
        return keyctl_invalidate(key_serial_t(id)) == 0 || keyctl_unlink(key_serial_t(id), KEY_SPEC_USER_KEYRING) == 0
    }
}
