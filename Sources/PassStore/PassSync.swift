import CredentialCore

/// `sync`: the password store's git repository, merged with its upstream and pushed, all
/// with git in the store, as `pass git` runs it. A credential stored on two machines before either synced is a
/// conflict on one entry of `git/`: the upstream's version (pushed first) is kept, so
/// that every machine ends with one answer. Any other conflict is a person's to resolve:
/// the merge is undone and nothing changes.
public struct PassSync {
    let pass: PassProgram

    public init(pass: PassProgram) { self.pass = pass }

    /// Fetching and pushing go over the network: longer than a local call, and without a
    /// person, no prompt for an ssh passphrase or a password. With a person, no limit: ssh
    /// asks on the terminal, which a process group of its own (how a limit is kept) could
    /// not read, and the person can interrupt.
    var networkTimeout: Double? { PassProgram.personPresent ? nil : 60 }

    func git(_ arguments: [String], network: Bool = false) throws -> Subprocess.Result {
        var environment: [String: String] = [:]
        if !PassProgram.personPresent {
            environment["GIT_TERMINAL_PROMPT"] = "0"
            if SystemIO.environment("GIT_SSH_COMMAND") == nil { environment["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes" }
        }
        // git itself in the store, as `pass git` runs it: pass 1.7 exits 0 whatever git did.
        let timeout = network ? networkTimeout : PassProgram.timeoutSeconds
        guard let result = Subprocess.run("git", ["-C", pass.directory] + arguments, input: [],
                                          environment: environment, timeoutSeconds: timeout) else {
            throw HelperError(.failure, "git is not installed (or not on PATH)", fix: "sudo apt install git")
        }
        if result.timedOut {
            throw HelperError(.unavailable, "git \(arguments.first ?? "") did not finish within \(Int(timeout ?? 0)) seconds",
                              fix: "run " + ShellWord.command(["pass", "git"] + arguments.prefix(1)) + " in a terminal to see what it waits for")
        }
        return result
    }

    /// The output of a git command that must succeed, trimmed.
    func must(_ arguments: [String], network: Bool = false, doing action: String, fix: String) throws -> String {
        let result = try git(arguments, network: network)
        guard result.succeeded else { throw HelperError(.failure, "\(action): \(Self.cause(result))", fix: fix) }
        return result.outputText.trimmed
    }

    /// What git said went wrong: its `fatal:` and `error:` lines (the cause: "'URL' does
    /// not appear to be a git repository"), not the last line, which after a failed fetch
    /// is the end of a hint ("and the repository exists."). The last line when git gave
    /// neither.
    static func cause(_ result: Subprocess.Result) -> String {
        let lines = String(decoding: result.errors, as: UTF8.self).split(separator: "\n").map { String($0).trimmed }.filter { !$0.isEmpty }
        let said = lines.filter { $0.hasPrefix("fatal: ") || $0.hasPrefix("error: ") }
        return said.isEmpty ? lines.last ?? "exit status \(result.status)" : said.joined(separator: "; ")
    }

    func count(_ range: String) throws -> Int {
        Int(try must(["rev-list", "--count", range], doing: "cannot count the commits of \(range)", fix: "run pass git log")) ?? 0
    }

    /// Syncs and returns the one line that says what happened.
    public func run() throws -> String {
        let directory = pass.directory
        guard PrivateFiles.exists(directory + "/.git") else {
            throw HelperError(.failure, "the password store at \(directory) is not a git repository, so there is nothing to sync",
                              fix: "pass git init, then pass git remote add origin URL")
        }
        let remotes = try must(["remote"], doing: "cannot read the store's remotes", fix: "run pass git remote -v")
            .split(separator: "\n").map(String.init)
        guard !remotes.isEmpty else {
            throw HelperError(.failure, "the password store at \(directory) has no remote to sync with",
                              fix: "pass git remote add origin URL (a repository only you, or your team, can read)")
        }
        let dirty = try must(["status", "--porcelain"], doing: "cannot read the store's status", fix: "run pass git status")
        guard dirty.isEmpty else {
            throw HelperError(.failure, "the password store has changes that were never committed (\(dirty.split(separator: "\n").count) files), which a merge could lose",
                              fix: "look at pass git status, then commit them (pass git add -A && pass git commit -m MESSAGE) or discard them")
        }
        let branch = try must(["symbolic-ref", "--short", "HEAD"], doing: "the password store is on no branch", fix: "pass git checkout BRANCH")
        let configured = try git(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"])
        let upstream = configured.succeeded ? configured.outputText.trimmed
            : (remotes.contains("origin") ? "origin" : remotes[0]) + "/" + branch
        let remote = String(upstream.prefix { $0 != "/" })
        let remoteBranch = String(upstream.dropFirst(remote.count + 1))
        _ = try must(["fetch", "--quiet", remote], network: true, doing: "cannot fetch from \(remote)",
                     fix: "check that " + ShellWord.command(["pass", "git", "fetch", remote]) + " works (network, access to the repository)")

        guard try git(["rev-parse", "--verify", "--quiet", upstream + "^{commit}"]).succeeded else {
            // Nothing there yet: this machine's store starts the branch.
            let pushed = try count("HEAD")
            _ = try must(["push", "--quiet", "--set-upstream", remote, "HEAD:" + remoteBranch], network: true,
                         doing: "cannot push to \(remote)", fix: "check that " + ShellWord.command(["pass", "git", "push", remote]) + " works")
            return "pushed \(Self.changes(pushed)) to \(upstream), a new branch there"
        }
        if !configured.succeeded { _ = try git(["branch", "--quiet", "--set-upstream-to", upstream]) }

        // Merged while no store runs (a store checks the keys it encrypts to, then pass reads them).
        let (behind, recipients, (kept, changed)) = try pass.exclusively {
            // What is here now is the user's; what comes in may be anyone's who can push.
            try ApprovedKeys(store: directory).approveIfNoneYet(PassCredentialStore.gpgIDs(in: directory))
            let behind = try count("HEAD.." + upstream)
            // A .gpg-id that comes in decides to whom every later store there is encrypted: a
            // teammate's (or an intruder's) key added there must not pass unnoticed.
            // Only those that decide for git/ (its own and below; the store's, when git/ has
            // none): the person's other passwords are pass's business, not the helper's.
            let decides = PassCredentialStore.recipientsFile(for: PassEntry.root, in: directory) == directory + "/.gpg-id"
                ? [":(glob)" + PassEntry.root + "/**/.gpg-id", ".gpg-id"] : [":(glob)" + PassEntry.root + "/**/.gpg-id"]
            let recipients = behind == 0 ? [] : try must(["diff", "--name-only", "HEAD..." + upstream, "--"] + decides,
                                                         doing: "cannot list the changes of \(upstream)", fix: "run pass git log")
                .split(separator: "\n").map(String.init)
            let before = try must(["rev-parse", "--verify", "HEAD"], doing: "cannot read the store's HEAD", fix: "run pass git log")
            return (behind, recipients, behind > 0 ? (try merge(upstream), try entriesChanged(since: before)) : ([], []))
        }
        let ahead = try count(upstream + "..HEAD")
        if ahead > 0 {
            let pushed = try git(["push", "--quiet", remote, "HEAD:" + remoteBranch], network: true)
            guard pushed.succeeded else {
                throw HelperError(.failure, "cannot push to \(remote): \(Self.cause(pushed))",
                                  fix: "run git-credential-pass sync again (another machine may have pushed meanwhile)")
            }
        }
        if behind == 0 && ahead == 0 { return "nothing to do: the password store and \(upstream) are the same" }
        var line = "pulled \(Self.changes(behind)) from \(upstream), pushed \(Self.changes(ahead))"
        if !changed.isEmpty {
            // Whoever can push can replace an entry, even one encrypted to the person alone:
            // named, a replaced credential is seen (issue 26). Only signed commits prove who.
            line += "; entries " + changed.joined(separator: "; ")
        }
        if !recipients.isEmpty {
            line += "; the keys entries are encrypted to changed in " + recipients.joined(separator: ", ")
                + " (a store there refuses any key in it you have not approved: git-credential-pass approve-keys --review shows what changed; then approve or refuse each)"
        }
        if !kept.isEmpty {
            line += "; stored on both machines, kept the version already on \(upstream): " + kept.joined(separator: ", ")
        }
        return line
    }

    /// git's entries that the merge added, changed or removed since `commit`, by name
    /// (quoted as git quotes paths, `Trace.quoted`: nothing that could fake a line), one phrase a kind.
    func entriesChanged(since commit: String) throws -> [String] {
        let result = try git(["diff", "--name-status", "-z", "--no-renames", commit, "HEAD", "--", PassEntry.root + "/"])
        guard result.succeeded else { return [] }
        // -z: STATUS NUL PATH NUL, each.
        let fields = result.output.split(separator: 0, omittingEmptySubsequences: false)
        var kinds: [(String, [String])] = [("added", []), ("changed", []), ("removed", [])]
        var index = 0
        while index + 1 < fields.count {
            let status = fields[index].first, path = fields[index + 1]
            index += 2
            guard path.count > 4, Array(path.suffix(4)) == Array(".gpg".utf8) else { continue }
            let name = Trace.quoted(Array(path.dropLast(4)))
            switch status {
            case UInt8(ascii: "A"): kinds[0].1.append(name)
            case UInt8(ascii: "D"): kinds[2].1.append(name)
            default: kinds[1].1.append(name)
            }
        }
        return kinds.filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1.joined(separator: ", "))" }
    }

    static func changes(_ count: Int) -> String { "\(count) change\(count == 1 ? "" : "s")" }

    /// Merges the upstream; returns the entries of git/ whose conflict took its version.
    func merge(_ upstream: String) throws -> [String] {
        let merged = try git(["merge", "--no-edit", "--quiet", upstream])
        if merged.succeeded { return [] }
        let conflicted = try must(["diff", "--name-only", "--diff-filter=U"], doing: "cannot list the merge's conflicts", fix: "run pass git status")
            .split(separator: "\n").map(String.init)
        let ours = conflicted.filter { $0.hasPrefix(PassEntry.root + "/") && $0.hasSuffix(".gpg") }
        guard !conflicted.isEmpty, ours.count == conflicted.count else {
            _ = try git(["merge", "--abort"])
            let others = conflicted.filter { !ours.contains($0) }
            if others.isEmpty {
                throw HelperError(.failure, "cannot merge \(upstream): \(Self.cause(merged)); the merge was undone",
                                  fix: "run pass git pull to see why, resolve it, then sync again")
            }
            throw HelperError(.failure, "the merge of \(upstream) conflicts on \(others.joined(separator: ", ")), which is not a git credential; the merge was undone and nothing changed",
                              fix: "pass git pull, resolve the conflict (pass edit), pass git commit, then sync again")
        }
        do {
            for path in ours {
                // Taken whole: an entry is one encrypted file, which no line-by-line merge can
                // join. Erased there (no version of theirs): erased here too.
                if try git(["checkout", "--theirs", "--", path]).succeeded {
                    _ = try must(["add", "--", path], doing: "cannot take \(upstream)'s \(path)", fix: "run sync again")
                } else {
                    _ = try must(["rm", "--quiet", "--force", "--", path], doing: "cannot take \(upstream)'s erasure of \(path)", fix: "run sync again")
                }
            }
            _ = try must(["commit", "--no-edit", "--quiet"], doing: "cannot commit the merge of \(upstream)",
                         fix: "set your git identity (git config --global user.email ...), then sync again")
        } catch {
            // Never a store left in the middle of a merge.
            _ = try? git(["merge", "--abort"])
            throw error
        }
        return ours.map { String($0.dropLast(4)) }
    }
}

extension String {
    /// Without the surrounding whitespace and newlines of a command's output.
    var trimmed: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
