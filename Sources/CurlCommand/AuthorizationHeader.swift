import CredentialCore

/// The Authorization header for git's answer: `<authtype> <credential>` when a helper
/// answered those (a bearer token), else Basic of username and password.
enum AuthorizationHeader {
    static func of(_ credential: Credential) throws(HelperError) -> (header: String, scheme: String) {
        if let authtype = credential.authtype, let token = credential.credential {
            // An auth-scheme is an HTTP token (RFC 9110): one word, nothing a server could
            // read as the end of it (`Bearer:`).
            guard !authtype.bytes.isEmpty, authtype.bytes.allSatisfy(CurlValues.isTokenByte),
                  let scheme = String(validating: authtype.bytes, as: UTF8.self) else {
                throw HelperError(.failure, "the helper's authtype holds a space or a control character, or is empty or no HTTP token (letters, digits, -), which cannot be one word of a header",
                                  fix: "check what your credential helpers answer for this URL")
            }
            guard !token.bytes.contains(where: CurlValues.isControl), let text = String(validating: token.bytes, as: UTF8.self) else {
                throw HelperError(.failure, "the helper's credential (for authtype \(Trace.quoted(scheme))) holds a control character, which would add headers to the request",
                                  fix: "check what your credential helpers answer for this URL")
            }
            guard !token.bytes.isEmpty else {
                throw HelperError(.failure, "the helper's credential (for authtype \(Trace.quoted(scheme))) is empty",
                                  fix: "check what your credential helpers answer for this URL")
            }
            return ("Authorization: " + scheme + " " + text, scheme)
        }
        guard let username = credential.username, let password = credential.password else {
            throw HelperError(.failure, "git credential fill gave no \(credential.username == nil ? "username" : "password")",
                              fix: "check what your credential helpers answer for this URL")
        }
        do {
            return ("Authorization: " + (try BasicAuth.headerValue(username: username, password: password)), "Basic")
        } catch {
            throw HelperError(.usage, error.message, fix: "a Basic credential cannot carry it; use another credential")
        }
    }
}
