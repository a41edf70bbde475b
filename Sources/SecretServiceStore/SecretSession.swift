import CLibSecret
import CSecretService
import CredentialCore
import Crypto
import CryptoExtras
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The encrypted session through which secrets cross the bus, opened by us rather than by
/// libsecret: the Secret Service spec's "dh-ietf1024-sha256-aes128-cbc-pkcs7" (Diffie-Hellman
/// in the 1024-bit group of RFC 2409, HKDF-SHA256 to a 16-byte key, AES-128-CBC with PKCS#7
/// padding, a random IV per secret), never "plain", which would show every password to any
/// program of the user's that watches the bus (dbus-monitor).
///
/// Why not libsecret's: it computes the key exchange with libgcrypt and a private exponent
/// as long as the prime, 1.4 ms and two thirds of the instructions of a whole `get`. Ours
/// is 256 bits long (NIST SP 800-56A asks twice the group's ~80-bit strength; the prime is
/// a safe prime, so a short exponent loses nothing) and BoringSSL's constant-time power.
final class SecretSession {
    let path: String
    private let key: SymmetricKey

    init(path: String, key: SymmetricKey) {
        self.path = path
        self.key = key
    }

    /// Opens a session with the service behind `service`; `arm` starts the watchdog's clock.
    static func open(_ service: UnsafeMutablePointer<SecretService>, cancellable: UnsafeMutablePointer<GCancellable>,
                     arm: () -> Void, describe: (UnsafeMutablePointer<GError>?) -> String) throws -> SecretSession {
        // The spec does not say whether a shared secret that begins with a zero byte is
        // hashed padded to the prime's length (as gnome-keyring and libsecret do) or without
        // that byte, and AES-CBC has no check to tell a wrong key: a service of the other
        // reading would store garbage once in 256 sessions. The question is never asked:
        // such a session is closed and another one opened.
        for _ in 0..<8 {
            var exponent = randomBytes(32)
            exponent[0] |= 0x80  // never zero, always 256 bits
            defer { wipe(&exponent) }
            var ours = [UInt8](repeating: 0, count: Int(CSECRETSERVICE_MODP_BYTES))
            guard csecretservice_modp_public_key(exponent, exponent.count, &ours) == 1 else { throw failure("compute a key") }
            var peer: OpaquePointer?
            var error: UnsafeMutablePointer<GError>?
            arm()
            let publicKey = Array(ours.drop { $0 == 0 })
            guard let opened = csecretservice_open_session(service, publicKey, gsize(publicKey.count), &peer, cancellable, &error) else {
                throw failure("open an encrypted session", describe(error))
            }
            let path = String(cString: opened)
            g_free(opened)
            let theirs = bytes(of: peer)
            var shared = [UInt8](repeating: 0, count: Int(CSECRETSERVICE_MODP_BYTES))
            defer { wipe(&shared) }
            guard csecretservice_modp_shared_secret(theirs, theirs.count, exponent, exponent.count, &shared) == 1 else {
                csecretservice_close_session(service, path)
                throw failure("open an encrypted session", "the service's public key is not a valid one for the key exchange")
            }
            guard shared[0] != 0 else {
                csecretservice_close_session(service, path)
                continue
            }
            let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: shared), outputByteCount: 16)
            Trace.note("opened an encrypted session with the Secret Service")
            return SecretSession(path: path, key: key)
        }
        throw failure("open an encrypted session", "eight key exchanges in a row gave a secret beginning with a zero byte")
    }

    /// The value and parameters (the IV) of a secret sent in this session.
    func encrypt(_ secret: [UInt8]) throws -> (parameters: [UInt8], value: [UInt8]) {
        let iv = AES._CBC.IV()
        return (Array(iv), Array(try AES._CBC.encrypt(secret, using: key, iv: iv)))
    }

    /// A secret the service sent in this session; `nil` when it is not one (a wrong length
    /// of IV or of the encrypted text, or a padding that is not PKCS#7's).
    func decrypt(parameters: [UInt8], value: [UInt8]) -> [UInt8]? {
        guard parameters.count == 16, !value.isEmpty, value.count % 16 == 0,
              let iv = try? AES._CBC.IV(ivBytes: parameters),
              let secret = try? AES._CBC.decrypt(value, using: key, iv: iv) else { return nil }
        return Array(secret)
    }

    /// The bytes of a GBytes, which it releases.
    static func bytes(of data: OpaquePointer?) -> [UInt8] {
        guard let data else { return [] }
        defer { g_bytes_unref(data) }
        var length = 0
        guard let start = g_bytes_get_data(data, &length) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: length))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            explicit_bzero(base, buffer.count)
        }
    }

    static func failure(_ action: String, _ reason: String = "out of memory") -> HelperError {
        SecretServiceStore.failure(action + " with the Secret Service", reason)
    }
}

extension SecretServiceStore {
    /// The session, opened on first use: a `get` that finds nothing needs none.
    func openSession() throws -> SecretSession {
        if let session { return session }
        let opened = try SecretSession.open(service, cancellable: cancellable, arm: arm, describe: { take($0) ?? "unknown error" })
        session = opened
        return opened
    }

    /// The secrets of the items at these object paths, in one call; a locked item has none.
    func secrets(of paths: [String]) throws -> [String: [UInt8]] {
        guard !paths.isEmpty else { return [:] }
        let session = try openSession()
        let copies = paths.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var error: UnsafeMutablePointer<GError>?
        arm()
        let reply = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            csecretservice_get_secrets(service, $0.baseAddress, gsize($0.count), session.path, cancellable, &error)
        }
        guard let reply else { throw Self.failure("read from the Secret Service", take(error) ?? "unknown error") }
        defer { g_variant_unref(reply) }
        let asked = Set(paths)
        var secrets: [String: [UInt8]] = [:]
        for index in 0..<g_variant_n_children(reply) {
            var item: UnsafeMutablePointer<gchar>?, sent: UnsafeMutablePointer<gchar>?
            var parameters: OpaquePointer?, value: OpaquePointer?
            csecretservice_secret_at(reply, index, &item, &sent, &parameters, &value)
            let path = item.map { String(cString: $0) } ?? "", inSession = sent.map { String(cString: $0) } ?? ""
            g_free(item)
            g_free(sent)
            let encrypted = (parameters: SecretSession.bytes(of: parameters), value: SecretSession.bytes(of: value))
            guard asked.contains(path) else { continue }
            guard inSession == session.path, let secret = session.decrypt(parameters: encrypted.parameters, value: encrypted.value) else {
                throw Self.failure("read from the Secret Service", "the secret of \(path) did not come encrypted for this session")
            }
            secrets[path] = secret
        }
        return secrets
    }
}
