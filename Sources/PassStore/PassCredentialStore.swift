import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// The password store of `pass`: one gpg-encrypted entry per credential under `git/`
/// (see `PassEntry`), written and removed through pass itself, so that its git commits,
/// `.gpg-id` recipients and PASSWORD_STORE_DIR behave as pass users expect. Entry names
/// say where to look; what an entry holds decides, by the one matching rule.
public final class PassCredentialStore: ManagedStore {
    public let pass: PassProgram
    var directory: String { pass.directory }
    /// The keys a store may encrypt to; nil: any (a throwaway store of doctor's).
    let approvedKeys: ApprovedKeys?
    /// Doctor's throwaway store: the fingerprints the user approved for git's entries, which
    /// it encrypts to as a store of the user's would (nil: what its .gpg-id says, as gpg trusts it).
    let approvedForThrowaway: [String]?

    init(pass: PassProgram, approvedKeys: ApprovedKeys? = nil, approvedForThrowaway: [String]? = nil) {
        self.pass = pass
        self.approvedKeys = approvedKeys
        self.approvedForThrowaway = approvedForThrowaway
    }

    /// The store to read from; nil when there is none, or nothing under `git/` yet.
    public static func openExisting(directory: String) throws -> PassCredentialStore? {
        guard try checkDirectory(directory), PrivateFiles.exists(directory + "/" + PassEntry.root) else {
            Trace.note("no password store entries under \(Trace.quoted(directory + "/" + PassEntry.root))")
            return nil
        }
        if let program = PassProgram.missingProgram { throw PassProgram.missing(program) }
        return PassCredentialStore(pass: PassProgram(directory: directory))
    }

    /// The store to write to: initialised (a `.gpg-id` that applies to `git/`), pass and
    /// gpg installed. pass creates the entries' directories itself. Each store checks
    /// the keys it would encrypt to against those approved (`ApprovedKeys`), unless
    /// `approving` is false (doctor's throwaway store: `approved`, the user's approved keys,
    /// are what it encrypts to).
    public static func openForWriting(directory: String, approving: Bool = true, approved: [String]? = nil) throws -> PassCredentialStore {
        if let program = PassProgram.missingProgram {
            throw HelperError(.failure, PassProgram.missing(program).message, fix: PassProgram.missing(program).fix)
        }
        guard try checkDirectory(directory) else {
            throw HelperError(.failure, "there is no password store at \(directory): pass was never initialised",
                              fix: "pass init YOUR-GPG-KEY-ID (gpg --list-secret-keys shows yours)")
        }
        guard recipientsFile(for: PassEntry.root, in: directory) != nil else {
            throw HelperError(.failure, "the password store at \(directory) has no .gpg-id for \(PassEntry.root)/, so pass does not know whom to encrypt to",
                              fix: "pass init -p \(PassEntry.root) YOUR-GPG-KEY-ID")
        }
        return PassCredentialStore(pass: PassProgram(directory: directory), approvedKeys: approving ? try ApprovedKeys(store: directory) : nil,
                                   approvedForThrowaway: approved)
    }

    /// Whether the store's directory exists; throws when it is not the user's own (its
    /// real path: a password store is often a link into a synced folder).
    static func checkDirectory(_ directory: String) throws -> Bool {
        guard let real = Subprocess.realPath(directory) else { return false }
        return try PrivateFiles.checkOwned(real, as: .directory)
    }

    /// The `.gpg-id` pass encrypts an entry in `subtree` to: the nearest one up to the store
    /// that is a regular file once links are followed (pass's `-f`).
    public static func recipientsFile(for subtree: String, in directory: String) -> String? {
        var parts = subtree.split(separator: "/").map(String.init)
        while true {
            let candidate = ([directory] + parts + [".gpg-id"]).joined(separator: "/")
            var info = stat()
            if stat(candidate, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { return candidate }
            if parts.isEmpty { return nil }
            parts.removeLast()
        }
    }

    /// Every `.gpg-id` (as a path in the store) that decides whom an entry of git's is
    /// encrypted to: the one `git/` itself takes, and those below it.
    public static func gpgIDs(in directory: String) -> [String] {
        func below(_ subtree: String) -> [String] {
            guard let handle = opendir(directory + "/" + subtree) else { return [] }
            defer { closedir(handle) }
            var found: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                let relative = subtree + "/" + name
                var info = stat(), followed = stat()
                guard name != ".", name != "..", lstat(directory + "/" + relative, &info) == 0 else { continue }
                // A .gpg-id as pass finds one (links followed); directories as walk does (not).
                if name == ".gpg-id" && stat(directory + "/" + relative, &followed) == 0 && (followed.st_mode & S_IFMT) == S_IFREG {
                    found.append(relative)
                }
                if (info.st_mode & S_IFMT) == S_IFDIR && !name.hasPrefix(".") { found += below(relative) }
            }
            return found
        }
        let top = recipientsFile(for: PassEntry.root, in: directory).map { [String($0.dropFirst(directory.count + 1))] } ?? []
        return Array(Set(top + below(PassEntry.root))).sorted()
    }

    // MARK: CredentialStore

    public func items(matching request: Credential, for purpose: MatchPurpose) throws -> [Credential] {
        try entries(matching: request, for: purpose).map(\.credential)
    }

    /// get reads entries newest first and stops at the first that answers (the one the
    /// look-up would take of them all): a host with thousands of entries (a team's, or
    /// pushed to hold git up) costs one gpg run when the newest answers. And it gives up
    /// on what is left after the time a gpg run may take, saying so in the trace.
    public var lookupSources: [LookupSource] {
        [LookupSource(name: "the password store") { request in
            let now = UInt64(max(0, time(nil)))
            return try self.entries(matching: request, for: .lookup, until: { $0.answersWhole(request, now: now) },
                                    within: PassProgram.timeoutSeconds).map(\.credential)
        } unreadUsers: { request in
            // The users of the entries not decrypted, from their names (nothing decrypted).
            guard let tree = try? self.tree() else { return [] }
            return self.candidates(for: request, in: tree).compactMap { PassEntry.credential(named: $0.name) }
                .filter { $0.isMatched(by: request, for: .lookup) }.map(\.username)
        }]
    }

    public func replace(with credentials: [Credential], progress: Progress?) throws {
        for credential in credentials {
            guard let name = PassEntry.name(of: credential) else { continue }
            // pass encrypts to the .gpg-id nearest the entry: every directory on the way must
            // be the user's alone, or another user could have put theirs, naming their key.
            try PrivateFiles.checkDirectoryChain(directory, below: directory + "/" + name)
            // Under the lock sync merges under too: the .gpg-id checked is the one pass reads,
            // and the entry pass's `gpg -o` writes is no link a pull put there since the check.
            let (result, created) = try pass.exclusively {
                try tree()?.checkWritable(name + ".gpg")
                let pinned = try checkRecipients(of: name) ?? approvedForThrowaway
                let created = missingDirectories(of: name)
                return (try pass.insert(name, contents: PassEntry.contents(of: credential), approved: pinned), created)
            }
            guard result.succeeded, PrivateFiles.exists(directory + "/" + name + ".gpg") else {
                // pass makes the entry's directories before gpg runs: none left empty behind.
                for made in created { _ = rmdir(directory + "/" + made) }
                throw HelperError(.failure, "pass could not store \(name): \(PassProgram.reason(result))",
                                  fix: "check the keys in \(Self.recipientsFile(for: name, in: directory) ?? "the store's .gpg-id") (gpg --list-keys), then try again")
            }
            progress?.advance()
        }
    }

    /// The directories (in the store, deepest first) that pass would create for the entry
    /// `name`: those a failed store removes again.
    func missingDirectories(of name: String) -> [String] {
        var missing: [String] = [], parent = PrivateFiles.directory(of: name)
        while parent != "." && !PrivateFiles.exists(directory + "/" + parent) {
            missing.append(parent)
            parent = PrivateFiles.directory(of: parent)
        }
        return missing
    }

    /// The keys pass will encrypt the entry to must have been approved (ApprovedKeys), and
    /// the .gpg-id that names them must be the user's own file (not a link to one another
    /// user can change after the check). Returns them, for pass to take as they were
    /// checked; nil when there is nothing to check: pass takes PASSWORD_STORE_KEY, the
    /// user's own choice, over any .gpg-id (and doctor's throwaway store checks nothing).
    func checkRecipients(of name: String) throws -> [String]? {
        guard let approvedKeys, SystemIO.environment("PASSWORD_STORE_KEY")?.isEmpty ?? true else { return nil }
        // None there now (a git pull replacing it): pass would read whichever comes next
        // (attack finding, stop 21: 1 store in 60 encrypted to the one a sync put back).
        guard let recipients = Self.recipientsFile(for: PrivateFiles.directory(of: name), in: directory) else {
            throw HelperError(.failure, "the password store at \(directory) has no .gpg-id for \(name) now, so whom pass would encrypt to is unknown",
                              fix: "run the command again once a sync has finished, or pass init -p \(PassEntry.root) YOUR-GPG-KEY-ID")
        }
        try PrivateFiles.checkOwned(recipients, as: .file)
        let relative = String(recipients.dropFirst(directory.count + 1))
        let pinned = try approvedKeys.check(relative)
        // Encrypted to none of the person's keys, an entry is others' to read and never
        // theirs (attack finding, issue 26: Bob's own password stored into git/, encrypted
        // to Alice alone, which she read after a sync).
        guard try pinned.contains(where: pass.holdsSecretKey(named:)) else {
            throw HelperError(.failure, "\(name) would be encrypted to \(pinned.joined(separator: ", ")) (\(relative)), none of them a key whose secret key you hold: you could not read it back, and they could",
                              fix: "keep this host's credentials in a helper of your own (git-credential-sqlite configure), and let git ask pass only for URLs whose folder's .gpg-id names your key (git config --global credential.URL.helper pass)")
        }
        return pinned
    }

    /// The `.gpg-id` files (paths in the store, see `gpgIDs`) that name a key whose secret
    /// key is here: the folders whose entries the person can read. A file that cannot be
    /// read as a store reads it (a link) counts as none. Doctor's key check and round trip.
    public static func readableFolders(in directory: String) -> [String] {
        let pass = PassProgram(directory: directory)
        let store = try? ApprovedKeys(store: directory)
        return gpgIDs(in: directory).filter { relative in
            guard let bytes = try? store?.bytes(of: relative) else { return false }
            return ApprovedKeys.texts(in: bytes).contains { (try? pass.holdsSecretKey(named: $0)) == true }
        }
    }

    /// git's erase, and erase HOST: an entry that cannot be read is matched by its name
    /// (what it says it holds), so the helper that stored it can remove it; never by a
    /// request with a password, which only what an entry holds can match.
    @discardableResult
    public func remove(matching request: Credential) throws -> Int {
        let doomed = try entries(matching: request, for: .erase, unreadable: .matchedByName)
        for entry in doomed { try removeEntry(entry.name) }
        return doomed.count
    }

    /// Every entry; with a key gpg-agent cannot unlock here (no terminal), the rows it can
    /// give, those it cannot decrypt marked unreadable, and one line saying why (it printed
    /// nothing and exited 1: attack finding, issue 26).
    public func list() throws -> [StoredItem] {
        try listed(among: nil)
    }

    func listed(among given: [Candidate]?) throws -> [StoredItem] {
        var locked: HelperError?
        let found = try entries(matching: Credential(), for: .lookup, unreadable: .matchedByName, among: given, markingLocked: true, locked: &locked)
        if let locked {
            SystemIO.writeAll(2, HelperError(.unavailable, "warning: " + locked.message + "; the entries that need your key are listed as unreadable",
                                             fix: "run git-credential-pass list in a terminal and type the passphrase (gpg-agent then keeps it a while)").line(program: "git-credential-pass") + "\n")
        }
        return found.map {
            StoredItem(backend: "pass", credential: $0.credential.withoutSecrets, unreadable: $0.unreadable, explained: $0.unreadable == Self.lockedReason)
        }
    }

    /// Why an entry is listed unreadable when the key is locked (said once, by `listed`).
    static let lockedReason = "gpg-agent needs the passphrase of your gpg key"

    public func all() throws -> [Credential] {
        try entries(matching: Credential(), for: .lookup, skippingOthers: false).map(\.credential)
    }

    @discardableResult
    public func removeAll() throws -> Int { try removeAll(includingShared: true) }

    @discardableResult
    public func removeAll(includingShared: Bool) throws -> Int {
        var doomed = try entries(matching: Credential(), for: .lookup, unreadable: .matchedByName)
        if !includingShared {
            var owners = SharedEntries(store: self)
            doomed = try doomed.filter { try !owners.isShared($0.name) }
        }
        for entry in doomed { try removeEntry(entry.name) }
        return doomed.count
    }

    public func sharedItems() throws -> [StoredItem] {
        var owners = SharedEntries(store: self)
        let all = try entries(matching: Credential(), for: .lookup, unreadable: .matchedByName).map {
            StoredItem(backend: "pass", credential: $0.credential.withoutSecrets, unreadable: $0.unreadable)
        }
        return try all.filter { item in
            guard let name = PassEntry.name(of: item.credential) else { return false }
            return try owners.isShared(name)
        }
    }

    func removeEntry(_ name: String) throws {
        if try removeOddFile(name) { return }
        let result = try pass.exclusively { try pass.run(["rm", "--force", name]) }
        guard result.succeeded || !PrivateFiles.exists(directory + "/" + name + ".gpg") else {
            throw HelperError(.failure, "pass could not remove \(name): \(PassProgram.reason(result))", fix: "run " + ShellWord.command(["pass", "rm", name]))
        }
    }

    /// An entry that is no regular file: a symbolic link (pushed through sync, perhaps to
    /// nothing), a FIFO, a socket, a device. pass rm tests the entry with `-f`, which
    /// follows a link and is false for all of them, and says "not in the password store"
    /// (a FIFO blocked erase HOST and erase-all, and list's Fix, pass rm, failed too).
    /// The name itself is removed here, never what it names, and its removal committed as
    /// pass commits one (that path alone: nothing else the person has staged). False for
    /// a regular file, pass's to remove.
    func removeOddFile(_ name: String) throws -> Bool {
        let file = name + ".gpg"
        var info = stat()
        guard lstat(directory + "/" + file, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR,
              let tree = try tree() else { return false }
        return try pass.exclusively {
            guard try tree.remove(file) else { return false }
            if PrivateFiles.exists(directory + "/.git") {
                _ = try pass.run(["git", "rm", "--quiet", "--cached", "--ignore-unmatch", "--", file])
                _ = try pass.run(["git", "commit", "--quiet", "-m", "Remove \(name) from store.", "--", file])
            }
            Trace.note("removed \(name), which is no regular file, itself")
            return true
        }
    }

    // MARK: Entries

    struct Entry {
        let name: String
        let credential: Credential
        let modified: timespec
        /// Why it cannot be read, for an entry matched by its name alone.
        var unreadable: String? = nil
    }

    /// What becomes of an entry that cannot be read (no OpenPGP data, a broken packet, a
    /// link, a file others could have written): it is passed over (a trace note) and never
    /// hides the others; for list and erase it is matched by its name.
    enum Unreadable { case passedOver, matchedByName }

    /// The store's directory, opened to read what is below it (`CheckedDirectory`): its real
    /// path, since a password store is often a link into a synced folder.
    func tree() throws -> CheckedDirectory? {
        guard let real = Subprocess.realPath(directory) else { return nil }
        return try CheckedDirectory.open(real, rootIsTrusted: true)
    }

    /// How many entries git's part of the store at `directory` holds, counted by their
    /// names (no gpg run, nothing decrypted); nil when it cannot be read.
    public static func entryCount(in directory: String) -> Int? {
        guard (try? checkDirectory(directory)) != nil else { return nil }
        guard PrivateFiles.exists(directory + "/" + PassEntry.root) else { return 0 }
        guard let tree = try? PassCredentialStore(pass: PassProgram(directory: directory)).tree() else { return nil }
        return walk(tree, PassEntry.root).count
    }

    /// The most an entry's file may hold: a credential's ciphertext is a few hundred bytes,
    /// and a line git allows (64 KiB) encrypted, a little more.
    static let largestFile = 1 << 20

    /// git's entries that the request matches, newest first: those whose name can hold a
    /// match are decrypted, and what they hold is matched. An entry encrypted to none of
    /// the user's keys (a team's, for others) is passed over, or, for `all` (export,
    /// which must not leave one out), an error.
    /// `until`: stops after the first entry found that it accepts (candidates are read newest
    /// first); `within`: stops when that many seconds have passed, the rest passed over.
    func entries(matching request: Credential, for purpose: MatchPurpose, skippingOthers: Bool = true,
                 unreadable: Unreadable = .passedOver, until done: ((Credential) -> Bool)? = nil,
                 within seconds: Double? = nil, among given: [Candidate]? = nil) throws -> [Entry] {
        var locked: HelperError?
        return try entries(matching: request, for: purpose, skippingOthers: skippingOthers, unreadable: unreadable, until: done,
                           within: seconds, among: given, markingLocked: false, locked: &locked)
    }

    /// `locked`: when given, a key gpg-agent needs the passphrase of (and cannot ask for)
    /// makes that entry and every later one unreadable (one gpg run, not one each), and
    /// the error is put there; else it is thrown.
    func entries(matching request: Credential, for purpose: MatchPurpose, skippingOthers: Bool = true,
                 unreadable: Unreadable = .passedOver, until done: ((Credential) -> Bool)? = nil,
                 within seconds: Double? = nil, among given: [Candidate]? = nil, markingLocked: Bool, locked: inout HelperError?) throws -> [Entry] {
        guard let tree = try tree() else { return [] }
        let deadline = seconds.map { time(nil) + time_t($0) }
        var found: [Entry] = []
        let sorted = (given ?? candidates(for: request, in: tree)).sorted { ($0.modified.tv_sec, $0.modified.tv_nsec) > ($1.modified.tv_sec, $1.modified.tv_nsec) }
        for (index, candidate) in sorted.enumerated() {
            if let last = found.last, last.unreadable == nil, done?(last.credential) == true { break }
            if let deadline, time(nil) >= deadline {
                Trace.note("passed over \(sorted.count - index) more entries: reading them would take longer than \(Int(seconds ?? 0)) seconds")
                break
            }
            let name = candidate.name
            var reason = candidate.refused
            if reason == nil {
                switch tree.read(name + ".gpg", limit: Self.largestFile) {
                case .missing: continue
                case .refused(let why): reason = why
                case .bytes(let ciphertext):
                    let decrypted: PassProgram.Decrypted
                    if locked != nil {
                        decrypted = .unreadable(Self.lockedReason)
                    } else {
                        do {
                            decrypted = try pass.decrypt(ciphertext, of: name)
                        } catch let error as HelperError where markingLocked && PassProgram.isPassphraseNeeded(error) {
                            locked = error
                            decrypted = .unreadable(Self.lockedReason)
                        }
                    }
                    switch decrypted {
                    case .notForYou:
                        guard skippingOthers else {
                            throw HelperError(.failure, "\(name) is not encrypted to any of your gpg keys, so it cannot be exported",
                                              fix: "ask someone who can read it to run pass init again with your key in its .gpg-id")
                        }
                        Trace.note("passed over \(name): it is not encrypted to any of your keys")
                        continue
                    case .unreadable(let why): reason = why
                    case .text(let text):
                        guard let credential = PassEntry.credential(from: text) else {
                            Trace.note("passed over \(name): it holds no git credential")
                            continue
                        }
                        if credential.isMatched(by: request, for: purpose) { found.append(Entry(name: name, credential: credential, modified: candidate.modified)) }
                        continue
                    }
                }
            }
            let why = reason ?? "it cannot be read"
            Trace.note("passed over \(name): \(why)")
            if unreadable == .matchedByName, let named = PassEntry.credential(named: name), named.isMatched(by: request, for: purpose) {
                found.append(Entry(name: name, credential: named, modified: candidate.modified, unreadable: why))
            }
        }
        return found
    }

    /// An entry's name (without `.gpg`), when it was changed, and why it is not read when it
    /// is not (a link, a FIFO, a file others could have written).
    struct Candidate {
        let name: String
        let modified: timespec
        let refused: String?
    }

    /// Entries whose name can be the request's: below its protocol and host when it names
    /// them (a host without protocol: that host's directory of every protocol), with its
    /// path and username when it names those. Names are read, nothing decrypted: erase of a
    /// host with no entry runs no gpg (and pops no pinentry).
    func candidates(for request: Credential, in tree: CheckedDirectory) -> [Candidate] {
        var names: [Candidate]
        if let host = request.host {
            let wanted = PassEntry.encode(host)
            names = hostDirectories(request.protocol, in: tree) { $0 == wanted }.flatMap { Self.walk(tree, $0) }
        } else {
            names = Self.walk(tree, request.protocol.map { PassEntry.root + "/" + PassEntry.encode($0) } ?? PassEntry.root)
        }
        if request.host != nil, request.protocol != nil, let wanted = PassEntry.name(of: request) {
            // The parts after the host: the path's, then the username.
            let wantedParts = wanted.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3)
            names = names.filter { candidate in
                let parts = candidate.name.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3)
                if request.username != nil && parts.last != wantedParts.last { return false }
                if request.path != nil && Array(parts.dropLast()) != Array(wantedParts.dropLast()) { return false }
                return true
            }
        }
        return names
    }

    /// The host directories (`git/PROTOCOL/HOST`) of `scheme` (nil: of every protocol)
    /// whose encoded name `accepts` takes: the one rule for where a host's entries are.
    func hostDirectories(_ scheme: Value?, in tree: CheckedDirectory, accepts: (String) -> Bool) -> [String] {
        let protocols = scheme.map { [PassEntry.encode($0)] } ?? Self.subdirectories(tree, PassEntry.root)
        return protocols.flatMap { part in
            let base = PassEntry.root + "/" + part
            return Self.subdirectories(tree, base).filter(accepts).map { base + "/" + $0 }
        }
    }

    /// The names of the directories right below `subtree` (no link followed; hidden ones, as
    /// walk, passed over).
    static func subdirectories(_ tree: CheckedDirectory, _ subtree: String) -> [String] {
        let directory: CheckedDirectory
        switch tree.find(subtree) {
        case .directory(let found): directory = found
        case .file(let fd, _): close(fd); return []
        case .missing: return []
        case .refused(let path, let reason):
            Trace.note("passed over \(path): it \(reason)")
            return []
        }
        return directory.entries().filter { !$0.name.hasPrefix(".") && $0.info.st_mode & S_IFMT == S_IFDIR }.map(\.name)
    }

    /// list HOST and erase HOST: the entries of `host` on every port (`HOST` and `HOST:PORT`
    /// directories of every protocol); only those are decrypted.
    public func list(host: String) throws -> [StoredItem] {
        guard let tree = try tree() else { return [] }
        let wanted = PassEntry.encode(Value(host))
        let names = hostDirectories(nil, in: tree) { $0 == wanted || $0.hasPrefix(wanted + ":") }.flatMap { Self.walk(tree, $0) }
        return try listed(among: names)
    }

    /// The hosts entries are named for (TAB completion): from the names alone, no entry
    /// decrypted (17 entries took gpg 5.6 s, and completion is killed after 2 s).
    public func storedHosts() throws -> [String] {
        guard let tree = try tree() else { return [] }
        return Self.walk(tree, PassEntry.root).compactMap { PassEntry.credential(named: $0.name)?.host?.text }
    }

    /// Every `.gpg` name below `subtree`, reached through `CheckedDirectory` (no link
    /// followed, nothing others could have written taken): a directory that fails is passed
    /// over with what is in it (a trace note); a `.gpg` name that is no regular file of the
    /// user's is a candidate that cannot be read, so that list names it and erase removes it.
    static func walk(_ tree: CheckedDirectory, _ subtree: String) -> [Candidate] {
        let directory: CheckedDirectory
        switch tree.find(subtree) {
        case .directory(let found): directory = found
        case .missing: return []
        case .file(let fd, _):
            close(fd)
            return []
        case .refused(let path, let reason):
            Trace.note("passed over \(path): it \(reason)")
            return []
        }
        var found: [Candidate] = []
        for (name, info) in directory.entries() where !name.hasPrefix(".") {
            let relative = subtree + "/" + name
            if info.st_mode & S_IFMT == S_IFDIR {
                found += walk(tree, relative)
            } else if name.hasSuffix(".gpg") {
                let path = directory.path + "/" + name
                let refused: String? = switch info.st_mode & S_IFMT {
                case S_IFLNK: path + " is a symbolic link"
                case S_IFREG: PrivateFiles.whyOthersCouldWrite(info, rootIsTrusted: true).map { path + " " + $0 }
                default: path + " is not a regular file"
                }
                found.append(Candidate(name: String(relative.dropLast(4)), modified: info.st_mtim, refused: refused))
            }
        }
        return found
    }
}
