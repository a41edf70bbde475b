import CredentialCore

/// git's credential commands, as credential-curl runs them: outside any repository (the
/// configuration of a repository, the .git/config of the directory we were started in, an
/// untrusted checkout, or a hook's GIT_DIR, could name a helper that would be handed the
/// credential); the global and system configuration, and the caller's `git -c`, apply.
/// The credential lives in this process's memory and in pipes only.
enum GitCredentialCalls {
    static let outsideAnyRepository: [String: String?] = [
        "GIT_DIR": nil, "GIT_WORK_TREE": nil, "GIT_COMMON_DIR": nil, "GIT_INDEX_FILE": nil, "GIT_OBJECT_DIRECTORY": nil,
    ]

    static func git(_ arguments: [String], input: [UInt8]? = nil) -> Subprocess.Result? {
        Subprocess.run("git", ["-C", "/"] + arguments, input: input, collectErrors: false, environment: outsideAnyRepository)
    }

    /// git's answer for `url` (its raw bytes, to approve or reject as they are, and as read
    /// strictly, as git's input is read). Asks with `capability[]=authtype`: a git that
    /// passes it on (2.46 and later) lets a helper answer a bearer token.
    static func fill(_ url: [UInt8], shown: String) throws(HelperError) -> (raw: [UInt8], credential: Credential) {
        guard Subprocess.which("git") != nil else {
            throw HelperError(.failure, "git is not installed (not on PATH), and it is what gives the credential", fix: "apt-get install git")
        }
        let request = Array("capability[]=authtype\nurl=".utf8) + CurlURL.forGit(url) + Array("\n\n".utf8)
        guard let result = git(["credential", "fill"], input: request), result.status == 0 else {
            // Which fix fits: no helper at all, or none that holds this URL's credential yet.
            if git(["config", "--get-all", "credential.helper"])?.status == 0 {
                throw HelperError(.failure, "git credential fill found no credential for \(shown): no helper holds one yet, and no one could be asked",
                                  fix: "run it once in a terminal to be asked (the helper then keeps it), or store it: git credential approve")
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

    /// git credential approve or reject of the answer as git gave it.
    static func tell(_ action: String, _ raw: [UInt8]) {
        _ = git(["credential", action], input: raw + [0x0A])
    }
}
