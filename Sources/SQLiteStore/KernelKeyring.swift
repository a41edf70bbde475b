import CKeyUtils
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// The kernel's per-user keyring (keyctl), which keeps an unlocked data key for a while
/// with no daemon: `unlock --timeout` puts it there, `lock` or the timeout removes it.
/// The key lives in the user keyring, which every session of the user reaches (a login's
/// session keyring links it; `keyctl_search` of it works from any session, a revoked one too).
enum KernelKeyring {
    static func description(databaseID: [UInt8]) -> String {
        "git-credential-sqlite:" + Hex.encode(databaseID)
    }

    /// Any process of this user may find and read a cached key (as it may read a key
    /// file), no one else. A key with other permissions was not made by `store`.
    static let permissions = UInt32(KEY_POS_ALL) | UInt32(KEY_USR_VIEW) | UInt32(KEY_USR_READ) | UInt32(KEY_USR_SEARCH)

    /// Caches `key` for `timeoutSeconds`; nothing is left behind when it throws.
    ///
    /// The key gets its permissions and timeout before anyone else can reach it: it is
    /// made in this thread's own keyring, and linked into the user keyring last (replacing
    /// the key cached before, if any). Made in the user keyring directly, it was not this
    /// process's to change when its session keyring does not link the user keyring (a
    /// tmux or screen that outlived its login: pam_keyinit's `revoke` revokes the login's
    /// session keyring): setting the timeout was refused, and so was removing the key,
    /// which stayed readable by every other session of the user, with no expiry.
    static func store(_ key: [UInt8], description: String, timeoutSeconds: UInt32) throws(HelperError) {
        let id = key.withUnsafeBytes { add_key("user", description, $0.baseAddress, $0.count, KEY_SPEC_THREAD_KEYRING) }
        guard id >= 0 else { throw unusable(errno) }
        // Linked, the user keyring holds it; not linked, it goes with this last reference.
        defer { keyctl_unlink(id, KEY_SPEC_THREAD_KEYRING) }
        guard keyctl_setperm(id, permissions) == 0, keyctl_set_timeout(id, timeoutSeconds) == 0,
              keyctl_link(id, KEY_SPEC_USER_KEYRING) == 0 else {
            let code = errno
            keyctl_invalidate(id)
            throw unusable(code)
        }
    }

    /// Why a key cannot be cached, and what to do about it.
    static func unusable(_ code: Int32) -> HelperError {
        if code == EDQUOT {
            return HelperError(.failure, "this user's kernel keyring quota is used up",
                               fix: "remove keys no longer needed (cat /proc/keys lists them, keyctl invalidate ID removes one), or raise the sysctls kernel.keys.maxkeys and kernel.keys.maxbytes")
        }
        return HelperError(.failure, "the kernel keyring is unavailable here (\(SystemIO.errorText(code)))",
                           fix: "allow the keyctl system calls where this runs (container runtimes often block them)")
    }

    /// The cached key, or `nil` when there is none (expired, locked, or no keyring).
    /// A key with other permissions than `store` gives was left half-made by an earlier
    /// version (in a revoked session: with no timeout, readable by every session of the
    /// user for ever): it is dropped, not used.
    static func read(description: String) -> [UInt8]? {
        let id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", description, 0)
        guard id >= 0, let found = self.permissions(of: key_serial_t(id)) else { return nil }
        guard found == permissions else {
            Trace.note("dropped the cached key \(description): not the permissions store gives, so an earlier version left it half-made, perhaps with no timeout")
            remove(key_serial_t(id))
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { keyctl_read(key_serial_t(id), $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count == 32 else { return nil }
        return Array(buffer.prefix(32))
    }

    /// A key's permissions: `keyctl_describe` says "type;uid;gid;permissions;description",
    /// the permissions in hexadecimal.
    static func permissions(of id: key_serial_t) -> UInt32? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBytes { keyctl_describe(id, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count) }
        guard length > 0 else { return nil }
        let fields = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self).split(separator: ";", maxSplits: 4, omittingEmptySubsequences: false)
        return fields.count == 5 ? UInt32(fields[3], radix: 16) : nil
    }

    /// Drops the cached key; true if there was one.
    @discardableResult
    static func remove(description: String) -> Bool {
        let id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", description, 0)
        guard id >= 0 else { return false }
        return remove(key_serial_t(id))
    }

    /// Invalidated, or else unlinked from the user keyring (a key this process may not
    /// search, the user keyring lets it unlink).
    @discardableResult
    static func remove(_ id: key_serial_t) -> Bool {
        keyctl_invalidate(id) == 0 || keyctl_unlink(id, KEY_SPEC_USER_KEYRING) == 0
    }
}
