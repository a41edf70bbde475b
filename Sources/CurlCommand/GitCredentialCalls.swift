import CredentialCore
import HelperCommand

/// git's credential commands, as credential-curl runs them: outside any repository
/// (GitConfig.runOutsideAnyRepository). The credential lives in this process's memory
/// and in pipes only.
enum GitCredentialCalls {
    static func git(_ arguments: [String], input: [UInt8]? = nil) -> Subprocess.Result? {
        GitConfig.runOutsideAnyRepository(arguments, input: input, collectErrors: false)
    }

    /// git's answer for `url` (its raw bytes, to approve or reject as they are, and as read
    /// strictly, as git's input is read). Asks with `capability[]=authtype`: a git that
    /// passes it on (2.46 and later) lets a helper answer a bearer token.
    static func fill(_ url: [UInt8], shown: String) throws(HelperError) -> (raw: [UInt8], credential: Credential) {
        guard Subprocess.which("git") != nil else {
            throw HelperError(.failure, "git is not installed (not on PATH), and it is what gives the credential", fix: "apt-get install git")
        }
        // url= first: git reads it as a new credential, forgetting what came before (the
        // capability too: no helper would then be asked for a token).
        let request = Array("url=".utf8) + CurlURL.forGit(url) + Array("\ncapability[]=authtype\n\n".utf8)
        guard let result = git(["credential", "fill"], input: request), result.status == 0 else {
            // Which fix fits: no helper at all, or none that holds this URL's credential yet.
            if let lines = try? GitConfig.helperLines(outsideAnyRepository: true), !lines.active.isEmpty {
                // A bearer token a helper holds reaches curl only through a git that passes
                // helpers the capability for it: with an older one, "none yet" and a Fix that
                // stores a password led away from it.
                let version = GitConfig.versionLine() ?? "git"
                let older = GitConfig.versionNumbers(of: version) < (2, 46)
                throw HelperError(.failure, "git credential fill found no credential for \(shown): no helper holds a password for it yet"
                                  + (older ? " (a token one holds is passed on by git 2.46 and later; this is \(version))" : "") + ", and no one could be asked",
                                  fix: "run it once in a terminal to be asked (the helper then keeps it), or store it: git credential approve"
                                    + (older ? "; for a token, a git of 2.46 or later" : ""))
            }
            throw HelperError(.failure, "git credential fill found no credential for \(shown), and git has no credential helper",
                              fix: "configure one (git-credential-keyring configure), or run it in a terminal to be asked")
        }
        do {
            return (result.output, try WireFormat.parse(result.output))
        } catch {
            throw HelperError(.failure, "git credential fill answered something that is not git's credential format (\(error.message))",
                              fix: "check what your credential helpers answer for \(shown)")
        }
    }

    /// git credential approve or reject of the answer as git gave it. A token (authtype
    /// and credential) goes with `capability[]=authtype`, or git would pass its helpers
    /// protocol and host alone: a reject would erase every credential of the host.
    static func tell(_ action: String, _ raw: [UInt8], token: Bool) {
        let capability = Array("capability[]=authtype\n".utf8)
        let announced = raw.starts(with: capability) || CurlURL.find([0x0A] + capability, in: raw[...]) != nil
        _ = git(["credential", action], input: (token && !announced ? capability : []) + raw + [0x0A])
    }
}
