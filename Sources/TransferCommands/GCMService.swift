import CredentialCore

/// What Git Credential Manager keys a credential by, and how git asks for it. GCM's
/// HostProvider.GetServiceName: "the absolute URI formed by from the InputArguments
/// without any userinfo component. Any trailing slashes are trimmed"
/// (`input.GetRemoteUri(includeUser: false).AbsoluteUri.TrimEnd('/')`): git's protocol,
/// host (with the port git gave, unless it is the scheme's default, which .NET drops) and
/// path (only with credential.useHttpPath), percent-encoded by .NET. The account is git's
/// username. So the service is read back as git's credential_from_url reads a URL
/// (`CredentialURL`, percent-decoded, slashes trimmed), which gives the fields git sends.
enum GCMService {
    /// The credential, or why there is none git would ask for.
    static func credential(service: [UInt8], account: [UInt8]?, secret: [UInt8]) -> Result<Credential, Skip> {
        guard let parsed = try? CredentialURL.parse(Value(service)),
              let scheme = parsed.protocol, GitCredentialsFile.isScheme(scheme) else {
            return .failure(Skip("its service \(shown(service)) is not a URL, so git never asks for it"))
        }
        guard parsed.username == nil, parsed.password == nil else {
            return .failure(Skip("its service \(shown(redacted(service))) has a user name, which GCM never writes there"))
        }
        guard let host = parsed.host, !host.isEmpty else {
            return .failure(Skip("its service \(shown(service)) has no host"))
        }
        guard let account, !account.isEmpty else {
            return .failure(Skip("it has no account (user name), which git needs to store it"))
        }
        guard Value(account).isWritable else {
            return .failure(Skip("its account has a line break or NUL, which git's protocol cannot carry"))
        }
        guard !secret.isEmpty else { return .failure(Skip("its password is empty")) }
        guard secret.count <= 64 << 10 else { return .failure(Skip("its password is larger than any token (over 64 KiB)")) }
        guard Value(secret).isWritable else {
            return .failure(Skip("its password has a line break or NUL, which git's protocol cannot carry"))
        }
        var credential = Credential(protocol: scheme, host: host, path: parsed.path, username: Value(account), password: Value(secret))
        credential = credential.storable
        return .success(credential)
    }

    /// A name from a store, for a message: quoted as the trace quotes, and cut short, so
    /// that a hostile item's megabyte of attribute is not a megabyte of stderr.
    static func shown(_ bytes: [UInt8]) -> String {
        bytes.count <= 120 ? Trace.quoted(bytes) : Trace.quoted(Array(bytes.prefix(100))) + "…"
    }

    static func shown(_ text: String) -> String { shown(Array(text.utf8)) }

    /// A service with user information may hold a password: shown without it.
    static func redacted(_ service: [UInt8]) -> [UInt8] {
        let marker = Array("://".utf8)
        guard let scheme = (0..<max(0, service.count - 2)).first(where: { service[$0..<$0 + 3].elementsEqual(marker) }),
              let at = service[(scheme + 3)...].firstIndex(of: 0x40) else { return service }
        let start = scheme + 3
        return Array(service[..<start]) + Array("…@".utf8) + Array(service[(at + 1)...])
    }

    struct Skip: Error { let reason: String; init(_ reason: String) { self.reason = reason } }
}
