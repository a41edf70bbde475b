import CredentialCore

/// The keys the user approved for each `.gpg-id` of a password store, kept outside it.
/// pass encrypts an entry to the keys of the `.gpg-id` nearest to it, and in a synced store
/// that file comes from whoever can push: a teammate's or an intruder's key added there
/// (or a new `.gpg-id` deeper down) would silently get every password stored afterwards.
/// So a store encrypts only to what was approved: the first store in a password store
/// approves its `.gpg-id` as it is, and any change after that waits for `approve-keys`.
///
/// A key is approved as the one key gpg found for its name then, and pass gets that key's
/// fingerprint, never the name: a key imported later whose user ID also matches the name
/// (someone else's `alice@example.com`, or a short key ID that collides) is not encrypted
/// to. A name that matches several keys is refused: gpg would choose among them itself.
///
/// The file ($XDG_CONFIG_HOME/git-credential-pass/approved-keys, 0600, never in the
/// store) has one line per `.gpg-id`: the store's real path, the file's path in the store
/// and its keys (`NAME=FINGERPRINT`, or the fingerprint alone when that is the name),
/// tab-separated. Each is kept as its bytes are (`exact`): two names that differ in a byte
/// are two names, for pass and gpg as here.
public struct ApprovedKeys {
    public let file: String
    /// The password store's real path (`exact`): the same store under another name is the same.
    let store: String
    /// That path as the file system takes it.
    let storePath: String
    /// gpg as pass runs it, to find the key a name stands for.
    let pass: PassProgram

    /// One key a `.gpg-id` names, as approved: the name (`exact`) and the fingerprint of
    /// the key gpg found for it then; none yet when it was approved by an earlier release
    /// or by a sync whose gpg did not know it (the next store finds it).
    public struct Key: Equatable {
        public let name: String
        public var fingerprint: String?

        /// What pass gets to encrypt to.
        var pinned: String { fingerprint ?? name }
        /// The fingerprint, when it is not the name itself.
        var found: String? { fingerprint == name ? nil : fingerprint }
        var description: String { found.map { "\(name) (\($0))" } ?? name }
        /// In the file: `NAME=FINGERPRINT`, or the name alone (`exact` writes `=` as %3D).
        var field: String { found.map { name + "=" + $0 } ?? name }

        init(name: String, fingerprint: String?) {
            self.name = name
            self.fingerprint = fingerprint
        }

        init(field: Substring) {
            if let equals = field.firstIndex(of: "="), ApprovedKeys.isFingerprint(field[field.index(after: equals)...]) {
                self.init(name: String(field[..<equals]), fingerprint: String(field[field.index(after: equals)...]))
            } else {
                self.init(name: String(field), fingerprint: ApprovedKeys.isFingerprint(field) ? String(field) : nil)
            }
        }
    }

    public init(store directory: String) throws {
        guard let config = SystemIO.environment("XDG_CONFIG_HOME").flatMap({ $0.hasPrefix("/") ? $0 : nil })
                ?? SystemIO.environment("HOME").map({ $0 + "/.config" }) else {
            throw HelperError(.failure, "neither XDG_CONFIG_HOME nor HOME is set, so there is nowhere to keep the keys you approved",
                              fix: "set HOME")
        }
        file = config + "/git-credential-pass/approved-keys"
        storePath = Subprocess.realPath(directory) ?? directory
        store = Self.exact(storePath.utf8)
        pass = PassProgram(directory: directory)
    }

    /// A name as its bytes are, in text that compares byte for byte (Swift compares
    /// strings by what they mean: an é composed and an e with an accent after it are equal)
    /// and shows what is hidden: every byte that is not printable ASCII, space, `%` and
    /// `=` (which separate a name from its fingerprint in the file) as %XX.
    static func exact<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var text = ""
        for byte in bytes {
            if byte <= 0x20 || byte >= 0x7F || byte == 0x25 || byte == 0x3D {
                text += "%" + Hex.encode([byte]).uppercased()
            } else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return text
    }

    /// The keys a `.gpg-id` names, as pass reads them (its loop is `while read -r gpg_id;
    /// do gpg_id="${gpg_id%%#*}"; [[ -n $gpg_id ]] || continue`): lines ended by a line
    /// feed (bash drops NUL bytes, and an unterminated last line), all from the first `#`
    /// on removed, then spaces and tabs at both ends (pass leaves those before a comment;
    /// gpg, given `KEY `, finds no key that `KEY` would not). Each name `exact`, with its
    /// bytes; sorted, one of each: their order does not change whom an entry is encrypted to.
    public static func names(in bytes: [UInt8]) -> [(name: String, bytes: ArraySlice<UInt8>)] {
        var lines = bytes.filter { $0 != 0 }.split(separator: 0x0A, omittingEmptySubsequences: false)
        lines.removeLast()  // after the last line feed: pass's loop never reads it
        let keys = lines.compactMap { line -> ArraySlice<UInt8>? in
            var key = line.prefix { $0 != 0x23 }.drop { $0 == 0x20 || $0 == 0x09 }
            while key.last == 0x20 || key.last == 0x09 { key.removeLast() }
            return key.isEmpty ? nil : key
        }
        let named = Dictionary(keys.map { (exact($0), $0) }, uniquingKeysWith: { first, _ in first })
        return named.keys.sorted().map { ($0, named[$0]!) }
    }

    /// The names alone, as text (for gpg: doctor's look for a secret key).
    public static func texts(in bytes: [UInt8]) -> [String] {
        names(in: bytes).compactMap { String(validating: $0.bytes, as: UTF8.self) }
    }

    /// The file itself. One that cannot be read whole is refused: pass would read what
    /// this could not. Read as every file of the store is (`CheckedDirectory`): a `.gpg-id` that is a
    /// symbolic link (pass follows it) or a file others could write is refused, never
    /// approved for what it points to (attack finding, issue 26: approve-keys approved the
    /// target of a pushed link, and doctor said ok).
    func bytes(of relative: String) throws -> [UInt8] {
        let path = storePath + "/" + relative
        let why: String
        switch try CheckedDirectory.open(storePath, rootIsTrusted: true)?.read(relative, limit: 1 << 16) ?? .missing {
        case .bytes(let bytes): return bytes
        case .missing: why = "\(path) is missing"
        case .refused(let reason): why = reason
        }
        throw HelperError(.failure, "\(why), so whom pass would encrypt to there is not known",
                          fix: "a .gpg-id is a regular file of yours, one key a line: check who put it there (pass git log -- \(ShellWord.quoted(relative))), remove it: "
                              + ShellWord.command(["pass", "git", "rm", "--quiet", "--", relative]) + " && "
                              + ShellWord.command(["pass", "git", "commit", "--quiet", "-m", "Remove " + relative])
                              + ", then, if the folder is to be shared, pass init -p with the keys you checked")
    }

    /// This store's approved `.gpg-id` files and their keys.
    func approved() throws -> [String: [Key]] {
        try (lines() ?? []).filter { $0.store == store }.reduce(into: [:]) { $0[$1.relative] = $1.keys }
    }

    /// A fingerprint (40 hex digits), optionally as `0x…` or `…!`: a name gpg matches to
    /// one key only, which pass may get as it is. Not 64 digits (a v5 key's): gpg 2.2
    /// searches user IDs for those (attack finding, stop 21). ASCII digits only:
    /// Character.isHexDigit takes fullwidth ones too, which gpg would search user IDs for.
    static func isFingerprint(_ text: Substring) -> Bool {
        var digits = text.hasPrefix("0x") ? text.dropFirst(2) : text
        if digits.hasSuffix("!") { digits = digits.dropLast() }
        return digits.utf8.count == 40 && digits.utf8.allSatisfy { Hex.value(of: $0) != nil }
    }

    /// The fingerprint of the one key gpg finds for the name `bytes` in the `.gpg-id`
    /// at `relative` (a fingerprint stands for itself).
    func fingerprint(of bytes: ArraySlice<UInt8>, named name: String, in relative: String) throws -> String {
        let place = "\(store)/\(Self.exact(relative.utf8))"
        guard let text = String(validating: bytes, as: UTF8.self), !text.hasPrefix("-") else {
            throw HelperError(.failure, "\(place) names a key as \(name), which is no name gpg takes",
                              fix: "name each key by its fingerprint (gpg --list-keys --with-colons shows it)")
        }
        if Self.isFingerprint(text[...]) {
            // Approved as it is, it would fail every store (gpg has nothing to encrypt to).
            guard try !pass.encryptionKeys(named: text).isEmpty else {
                throw HelperError(.failure, "\(place) names the key \(name), which is not in your keyring (or cannot encrypt), so it is not approved",
                                  fix: "import it (gpg --import KEY-FILE, from its owner), check it, then run git-credential-pass approve-keys again")
            }
            return text
        }
        guard !text.hasSuffix("!") else {
            throw HelperError(.failure, "\(place) names a subkey as \(name)", fix: "name it by its whole fingerprint, with the !")
        }
        let found = try pass.encryptionKeys(named: text)
        guard found.count == 1 else {
            throw found.isEmpty
                ? HelperError(.failure, "gpg has no key to encrypt to for \(name), which \(place) names",
                              fix: "import the key (gpg --import), or correct the .gpg-id")
                : HelperError(.failure, "\(name), which \(place) names, matches \(found.count) keys that can encrypt (\(found.joined(separator: ", "))), and gpg would choose among them itself",
                              fix: "name the key by its fingerprint in the .gpg-id (pass init -p \(PassEntry.root) FINGERPRINT)")
        }
        return found[0]
    }

    /// Refuses to encrypt to the `.gpg-id` at `relative` (a path in the store) when it
    /// names a key that was not approved for it (or, for a `.gpg-id` new there, for the
    /// nearest approved one above, which decided until it came). Fewer keys than approved
    /// need no one's approval, and become what is approved. Approves it when nothing of
    /// this store was approved yet. Returns the fingerprints of the approved keys, for the
    /// store to give pass itself (PASSWORD_STORE_KEY): pass then never reads the file again
    /// (a sync tool rewriting it between this check and pass's read got 13 stores of 30
    /// encrypted to its key), nor asks gpg for a name (which a key imported since could match).
    public func check(_ relative: String) throws -> [String] {
        let name = Self.exact(relative.utf8), named = Self.names(in: try bytes(of: relative))
        let now = named.map(\.name), approvals = try approved()
        guard !named.isEmpty else {
            throw HelperError(.failure, "\(store)/\(name) names no key", fix: "pass init -p \(PassEntry.root) YOUR-GPG-KEY-ID")
        }
        let before: [Key]
        if approvals.isEmpty {
            // The first use of all approves; a store new to a record of others' (or one
            // moved: its path changed) waits for approve-keys.
            guard try lines() == nil else {
                throw HelperError(.failure, "\(store) is a password store whose keys you never approved (a new one, or one that moved), and \(name) names \(Self.list(now))",
                                  fix: "check the keys (gpg --list-keys), then, if you trust them, run: git-credential-pass approve-keys")
            }
            before = []
        } else {
            let added = Self.unapproved(now, of: name, in: approvals)
            guard added.isEmpty else {
                throw HelperError(.failure, problem(name, added, approvals) + ", so a store would encrypt your password to a key you did not approve",
                                  fix: Self.review(relative))
            }
            before = approvals[name] ?? Self.inherited(name, from: approvals) ?? []
        }
        // Each key as it was approved; found now when it never was (see Key).
        let keys = try named.map { key in
            if let approved = before.first(where: { $0.name == key.name && $0.fingerprint != nil }) { return approved }
            let found = Key(name: key.name, fingerprint: try fingerprint(of: key.bytes, named: key.name, in: relative))
            // Approved by name alone before (an earlier release, a sync): say which key it is now.
            if before.contains(where: { $0.name == key.name }), found.fingerprint != key.name {
                SystemIO.writeAll(2, "git-credential-pass: note: \(key.name), approved in \(store)/\(name) by name, is now the key \(found.fingerprint ?? "")\n")
            }
            return found
        }
        if approvals[name] != keys {
            try record(approvals.merging([name: keys]) { $1 })
            if approvals.isEmpty { Trace.note("approved the keys of \(name) in \(store) on first use: \(Self.list(keys))") }
        }
        return keys.map(\.pinned)
    }

    /// The fingerprints approved for the `.gpg-id` at `relative`, in its order, when every
    /// key it names now was approved by fingerprint; nil otherwise. Approves nothing: for
    /// doctor's round trip, which encrypts as a store here would (`PassProgram.insert`).
    public func approvedFingerprints(_ relative: String) throws -> [String]? {
        let name = Self.exact(relative.utf8), approvals = try approved()
        guard let keys = approvals[name] ?? Self.inherited(name, from: approvals) else { return nil }
        let now = Self.names(in: try bytes(of: relative)).map(\.name)
        guard !now.isEmpty, Self.unapproved(now, of: name, in: approvals).isEmpty else { return nil }
        let pinned = now.compactMap { named in keys.first { $0.name == named }?.fingerprint }
        return pinned.count == now.count ? pinned : nil
    }

    /// For doctor: what is not approved among the store's `.gpg-id` files, one line each.
    public func problems(_ relatives: [String]) throws -> [String] {
        let approvals = try approved()
        guard !approvals.isEmpty else {
            return try lines() == nil ? [] : ["\(store) is a password store whose keys you never approved (a new one, or one that moved)"]
        }
        return try relatives.compactMap { relative in
            let name = Self.exact(relative.utf8)
            let added = Self.unapproved(Self.names(in: try bytes(of: relative)).map(\.name), of: name, in: approvals)
            return added.isEmpty ? nil : problem(name, added, approvals)
        }
    }

    /// How to look at a changed `.gpg-id`, then refuse or approve it, that file alone.
    public static func review(_ relative: String) -> String {
        "see who changed it (" + ShellWord.command(["pass", "git", "log", "--stat", "--", relative]) + ") and check the keys (gpg --list-keys); to refuse it, "
            + ShellWord.command(["pass", "git", "revert", "COMMIT"]) + " (or pass git rm it and commit), then git-credential-pass sync; to approve it: "
            + ShellWord.command(["git-credential-pass", "approve-keys", relative])
    }

    func problem(_ name: String, _ added: [String], _ approvals: [String: [Key]]) -> String {
        approvals[name] == nil ? "\(store)/\(name) is a .gpg-id you never approved, and it names \(added.joined(separator: ", "))"
            : "the keys in \(store)/\(name) changed since you approved them: it now also names \(added.joined(separator: ", "))"
    }

    /// Those of `names` approved neither for the `.gpg-id` at `name` nor, when it is new,
    /// for the nearest approved one above it. A key's fingerprint is its name too: the
    /// fix for a name that matches several keys is the fingerprint of the one approved.
    static func unapproved(_ names: [String], of name: String, in approvals: [String: [Key]]) -> [String] {
        let before = approvals[name] ?? inherited(name, from: approvals) ?? []
        func plain(_ text: String) -> String { (text.hasPrefix("0x") ? String(text.dropFirst(2)) : text).uppercased() }
        return names.filter { key in
            !before.contains { $0.name == key || ($0.fingerprint.map(plain) == plain(key) && isFingerprint(key[...])) }
        }
    }

    /// The keys approved for the nearest `.gpg-id` above `relative`.
    static func inherited(_ relative: String, from approvals: [String: [Key]]) -> [Key]? {
        var directory = PrivateFiles.directory(of: relative)
        while directory != "." {
            directory = PrivateFiles.directory(of: directory)
            let candidate = directory == "." ? ".gpg-id" : directory + "/.gpg-id"
            if let keys = approvals[candidate] { return keys }
        }
        return nil
    }

    /// Approves what the store's `.gpg-id` files name now (see `PassCredentialStore.gpgIDs`),
    /// in place of what was approved for it before, each key as the one gpg finds for its
    /// name now. `finding: false` (sync) leaves a name gpg finds no single key for to the
    /// next store; else it is refused, and nothing approved.
    @discardableResult
    public func approve(_ relatives: [String], finding: Bool = true) throws -> [(name: String, keys: [Key])] {
        let now = try relatives.map { relative in
            (name: Self.exact(relative.utf8), keys: try Self.names(in: try bytes(of: relative)).map { key in
                Key(name: key.name, fingerprint: finding ? try fingerprint(of: key.bytes, named: key.name, in: relative)
                    : try? fingerprint(of: key.bytes, named: key.name, in: relative))
            })
        }
        try record(Dictionary(now.map { ($0.name, $0.keys) }, uniquingKeysWith: { first, _ in first }))
        return now
    }

    /// A `.gpg-id` as approve-keys shows it before approving: its keys as gpg finds them
    /// now, what changed since the last approval, and whether a folder whose entries went
    /// to the person alone would now go to others too (attack finding, issue 26: a
    /// teammate pushed the team's .gpg-id into the person's own folder, and approve-keys,
    /// all or nothing, approved it with the rest).
    public struct Review {
        /// The file's path in the store (`exact`).
        public let name: String
        public let keys: [Key]
        /// "first approval", "new", "unchanged", or what changed ("changed: now also X; no longer Y").
        public let change: String
        /// The keys, not the person's own, that a folder encrypted to them alone would now
        /// also be encrypted to: empty when it widens nothing.
        public let sharedWith: [String]
        /// The entries in its folder now (encrypted as they were; later stores there go to `keys`).
        public let entries: Int
        /// Its folder, as pass names it (`git/https/github.com`).
        public var folder: String { PrivateFiles.directory(of: name) == "." ? PassEntry.root : PrivateFiles.directory(of: name) }
        /// Approved only when named (approve-keys PATH): the person's own entries are there,
        /// and their next stores would be shared.
        public var needsNaming: Bool { !sharedWith.isEmpty && entries > 0 }
    }

    /// Each `.gpg-id` of `relatives` as it is now, against what was approved (see Review).
    /// A key gpg does not find (or finds several of) is refused, as approve is.
    public func review(_ relatives: [String]) throws -> [Review] {
        let approvals = try approved()
        var yours: [String: Bool] = [:]
        func isYours(_ key: Key) throws -> Bool {
            if let known = yours[key.pinned] { return known }
            let held = try pass.holdsSecretKey(named: key.pinned)
            yours[key.pinned] = held
            return held
        }
        return try relatives.map { relative in
            let name = Self.exact(relative.utf8)
            let keys = try Self.names(in: try bytes(of: relative)).map { key in
                Key(name: key.name, fingerprint: try fingerprint(of: key.bytes, named: key.name, in: relative))
            }
            let before = approvals[name] ?? Self.inherited(name, from: approvals) ?? []
            let change: String
            if approvals.isEmpty {
                change = "first approval"
            } else if let was = approvals[name] {
                let added = keys.filter { key in !was.contains { $0.name == key.name } }, dropped = was.filter { key in !keys.contains { $0.name == key.name } }
                change = added.isEmpty && dropped.isEmpty ? "unchanged"
                    : "changed:" + (added.isEmpty ? "" : " now also \(Self.list(added))") + (added.isEmpty || dropped.isEmpty ? "" : ";")
                        + (dropped.isEmpty ? "" : " no longer \(Self.list(dropped))")
            } else {
                change = "new"
            }
            // Widened: before, only the person's keys; now others' too.
            let alone = try !before.isEmpty && before.allSatisfy(isYours)
            let added = keys.filter { key in !before.contains { $0.name == key.name || ($0.fingerprint != nil && $0.fingerprint == key.fingerprint) } }
            let sharedWith = alone ? try added.filter { try !isYours($0) }.map(\.description) : []
            let folder = PrivateFiles.directory(of: relative) == "." ? PassEntry.root : PrivateFiles.directory(of: relative)
            let entries = try CheckedDirectory.open(storePath, rootIsTrusted: true).map { PassCredentialStore.walk($0, folder).count } ?? 0
            return Review(name: name, keys: keys, change: change, sharedWith: sharedWith, entries: entries)
        }
    }

    /// Approves the reviewed files as they were reviewed; what else was approved stays.
    public func approve(_ reviews: [Review]) throws {
        try record(try approved().merging(reviews.map { ($0.name, $0.keys) }) { $1 })
    }

    /// Approves the `.gpg-id` files as they are when nothing was ever approved (the first
    /// use, as for a store): sync does, before it merges what others pushed, so that what
    /// comes in is checked.
    func approveIfNoneYet(_ relatives: [String]) throws {
        guard try lines() == nil, !relatives.isEmpty else { return }
        let approved = try approve(relatives, finding: false)
        Trace.note("approved the keys of \(approved.map(\.name).joined(separator: ", ")) in \(store) before syncing")
    }

    /// Whether anything was ever approved here (else the first store approves).
    public var approvedAny: Bool { get throws { try lines() != nil } }

    static func list(_ names: [String]) -> String {
        names.isEmpty ? "no key" : names.joined(separator: ", ")
    }

    public static func list(_ keys: [Key]) -> String {
        list(keys.map(\.description))
    }

    // MARK: The file

    struct Line: Equatable {
        let store: String
        let relative: String
        let keys: [Key]
    }

    /// Every line of the file; nil when there is no file yet (the first use of all: see
    /// `check`). One another user could have written, or put where they can remove it, is
    /// refused. Lines end at a line feed, a carriage return before it dropped (a file that
    /// went through an editor or a checkout with CRLF read as one comment line, and the
    /// next store approved anew: attack finding, stop 21).
    func lines() throws -> [Line]? {
        let directory = PrivateFiles.directory(of: file)
        try PrivateFiles.checkAncestors(of: directory)
        guard try PrivateFiles.checkOwned(directory, as: .directory), try PrivateFiles.checkOwned(file, as: .file) else { return nil }
        guard let bytes = SystemIO.readFile(file, limit: 1 << 20) else {
            throw HelperError(.failure, "cannot read \(file) (or it is over 1 MiB)", fix: "check it: it lists the keys you approved, one .gpg-id a line")
        }
        return bytes.split(separator: 0x0A).compactMap { bytes in
            let line = String(decoding: bytes.last == 0x0D ? bytes.dropLast() : bytes, as: UTF8.self)
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { return nil }
            return Line(store: String(fields[0]), relative: String(fields[1]), keys: fields.dropFirst(2).map(Key.init(field:)))
        }
    }

    /// Replaces this store's lines by `approvals`; other stores' lines stay.
    func record(_ approvals: [String: [Key]]) throws {
        let kept = try (lines() ?? []).filter { $0.store != store }
        let added = approvals.keys.sorted().map { Line(store: store, relative: $0, keys: approvals[$0] ?? []) }
        let text = "# The keys git-credential-pass may encrypt to, per .gpg-id: store, file in it, keys as NAME=FINGERPRINT (git-credential-pass approve-keys)\n"
            + (kept + added).map { ([$0.store, $0.relative] + $0.keys.map(\.field)).joined(separator: "\t") + "\n" }.joined()
        try PrivateFiles.replace(file, contents: Array(text.utf8))
    }
}
