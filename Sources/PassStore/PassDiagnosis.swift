import CredentialCore

/// git-credential-pass's part of `doctor`: pass and gpg, the store and whom git's entries
/// are encrypted to, the keys to decrypt them, and the git repository that syncs them.
public enum PassDiagnosis {
    public static func checks(directory: String) -> [HealthCheck] {
        var checks: [HealthCheck] = []
        for (program, found) in PassProgram.programs {
            guard let path = found else {
                return checks + [HealthCheck(.fail, program, "\(program) is not installed (or not on PATH)", fix: "sudo apt install pass gnupg")]
            }
            checks.append(HealthCheck(.ok, program, path))
        }
        do {
            guard try PassCredentialStore.checkDirectory(directory) else {
                return checks + [HealthCheck(.fail, "password store", "there is no password store at \(directory)",
                                             fix: "pass init -p \(PassEntry.root) YOUR-GPG-KEY-ID")]
            }
        } catch let error as HelperError {
            return checks + [HealthCheck(.fail, "password store", error.message, fix: error.fix)]
        } catch {
            return checks + [HealthCheck(.fail, "password store", "\(error)")]
        }
        guard let recipients = PassCredentialStore.recipientsFile(for: PassEntry.root, in: directory) else {
            return checks + [HealthCheck(.fail, "password store", "\(directory) has no .gpg-id for \(PassEntry.root)/",
                                         fix: "pass init -p \(PassEntry.root) YOUR-GPG-KEY-ID")]
        }
        let keys = ApprovedKeys.texts(in: SystemIO.readFile(recipients, limit: 1 << 16) ?? [])
        // A team's folder (its own .gpg-id below git/) is said too: whom its entries go to.
        let folders = PassCredentialStore.gpgIDs(in: directory).filter { $0.hasPrefix(PassEntry.root + "/") && $0 != PassEntry.root + "/.gpg-id" }.map { relative in
            "; \(relative.dropLast(".gpg-id".count)) to " + ApprovedKeys.texts(in: SystemIO.readFile(directory + "/" + relative, limit: 1 << 16) ?? []).joined(separator: ", ")
        }
        checks.append(HealthCheck(.ok, "password store", "\(directory); \(PassEntry.root)/ is encrypted to \(keys.joined(separator: ", ")) (\(recipients))" + folders.joined()))
        checks.append(approval(directory))
        checks.append(secretKey(directory, gitRecipients: String(recipients.dropFirst(directory.count + 1))))
        checks.append(repository(directory))
        return checks
    }

    /// Whether store would encrypt to keys the user never approved (ApprovedKeys).
    static func approval(_ directory: String) -> HealthCheck {
        do {
            let approvedKeys = try ApprovedKeys(store: directory)
            let problems = try approvedKeys.problems(PassCredentialStore.gpgIDs(in: directory))
            guard try approvedKeys.approvedAny else {
                return HealthCheck(.ok, "approved keys", "none yet: the first store approves the keys git's .gpg-id names then (check them now)")
            }
            guard problems.isEmpty else {
                return HealthCheck(.fail, "approved keys", problems.joined(separator: "; ") + ": store refuses to encrypt to them",
                                   fix: "git-credential-pass approve-keys --review shows what changed in each .gpg-id; approve one with git-credential-pass approve-keys PATH, or refuse it (pass git revert)")
            }
            return HealthCheck(.ok, "approved keys", "store encrypts only to keys you approved")
        } catch let error as HelperError {
            return HealthCheck(.fail, "approved keys", error.message, fix: error.fix)
        } catch {
            return HealthCheck(.fail, "approved keys", "\(error)")
        }
    }

    /// Whether a folder of git's entries is encrypted to a key whose secret is here: git/
    /// itself, or a team's folder (a teammate's git/ is encrypted to its owner: issue 26,
    /// doctor FAILed Bob set up by the README, and its Fix, pass init -p git, re-encrypted
    /// Alice's own entries to Bob alone). A Fix never re-encrypts anyone's entries.
    static func secretKey(_ directory: String, gitRecipients: String) -> HealthCheck {
        let readable = PassCredentialStore.readableFolders(in: directory)
        guard !readable.isEmpty else {
            return HealthCheck(.fail, "gpg key", "none of the keys git's entries are encrypted to (in any .gpg-id under \(PassEntry.root)/) has its secret key here, so nothing stored can be read back",
                               fix: "import your secret key (gpg --import), or ask whoever keeps the store to add your key to the .gpg-id of the folder you share")
        }
        guard readable.contains(gitRecipients) else {
            let folders = readable.map { String($0.dropLast(".gpg-id".count)) }
            return HealthCheck(.ok, "gpg key", "your secret key reads \(folders.joined(separator: ", ")); \(PassEntry.root)/ itself is encrypted to others' keys, and a store there is refused: let git ask pass only for those folders' URLs")
        }
        return HealthCheck(.ok, "gpg key", "the secret key of a recipient is here")
    }

    static func repository(_ directory: String) -> HealthCheck {
        guard PrivateFiles.exists(directory + "/.git") else {
            return HealthCheck(.warn, "sync", "the password store is not a git repository: nothing is synced or kept in history",
                               fix: "pass git init, then pass git remote add origin URL")
        }
        let sync = PassSync(pass: PassProgram(directory: directory))
        guard let remotes = try? sync.git(["remote"]), remotes.succeeded, !remotes.outputText.trimmed.isEmpty else {
            return HealthCheck(.warn, "sync", "the password store's repository has no remote: sync has nowhere to push",
                               fix: "pass git remote add origin URL")
        }
        guard let identity = try? sync.git(["var", "GIT_COMMITTER_IDENT"]), identity.succeeded else {
            return HealthCheck(.fail, "sync", "git has no identity to commit with in the password store, so pass stores without committing",
                               fix: "git config --global user.email YOU@EXAMPLE.COM and user.name")
        }
        return HealthCheck(.ok, "sync", "a git repository with remote \(remotes.outputText.trimmed.split(separator: "\n").joined(separator: ", "))")
    }
}
