import CredentialCore

/// The keys the user approved for each `.gpg-id` of a password store, kept outside it.
/// pass encrypts an entry to the keys of the `.gpg-id` nearest to it, and in a synced store
/// that file comes from whoever can push: a teammate's or an intruder's key added there
/// (or a new `.gpg-id` deeper down) would silently get every password stored afterwards.
/// So a store encrypts only to what was approved: the first store in a password store
/// approves its `.gpg-id` as it is, and any change after that waits for `approve-keys`.
///
/// The file ($XDG_CONFIG_HOME/git-credential-pass/approved-keys, 0600, never in the
/// store) has one line per `.gpg-id`: the store's real path, the file's path in the store
/// and its keys, tab-separated. Each is kept as its bytes are (`exact`): two names that
/// differ in a byte are two names, for pass and gpg as here.
public struct ApprovedKeys {
    public let file: String
    /// The password store's real path (`exact`): the same store under another name is the same.
    let store: String
    /// That path as the file system takes it.
    let storePath: String

    public init(store directory: String) throws {
        guard let config = SystemIO.environment("XDG_CONFIG_HOME").flatMap({ $0.hasPrefix("/") ? $0 : nil })
                ?? SystemIO.environment("HOME").map({ $0 + "/.config" }) else {
            throw HelperError(.failure, "neither XDG_CONFIG_HOME nor HOME is set, so there is nowhere to keep the keys you approved",
                              fix: "set HOME")
        }
        file = config + "/git-credential-pass/approved-keys"
        storePath = Subprocess.realPath(directory) ?? directory
        store = Self.exact(storePath.utf8)
    }

    /// A name as its bytes are, in text that compares byte for byte (Swift compares
    /// strings by what they mean: an é composed and an e with an accent after it are equal)
    /// and shows what is hidden: every byte that is not printable ASCII, and `%`, as %XX.
    static func exact<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var text = ""
        for byte in bytes {
            if byte < 0x20 || byte >= 0x7F || byte == 0x25 {
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
    /// gpg, given `KEY `, finds no key that `KEY` would not). Sorted: their order does not
    /// change whom an entry is encrypted to.
    public static func keys(in bytes: [UInt8]) -> [String] {
        Set(rawKeys(in: bytes).map { exact($0) }).sorted()
    }

    static func rawKeys(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = bytes.filter { $0 != 0 }.split(separator: 0x0A, omittingEmptySubsequences: false)
        lines.removeLast()  // after the last line feed: pass's loop never reads it
        return lines.compactMap { line -> ArraySlice<UInt8>? in
            var key = line.prefix { $0 != 0x23 }.drop { $0 == 0x20 || $0 == 0x09 }
            while key.last == 0x20 || key.last == 0x09 { key.removeLast() }
            return key.isEmpty ? nil : key
        }
    }

    /// What the `.gpg-id` at `relative` (a path in the store) names, read now.
    func keys(of relative: String) throws -> [String] {
        Self.keys(in: try bytes(of: relative))
    }

    /// The file itself. One that cannot be read whole is refused: pass would read what
    /// this could not.
    func bytes(of relative: String) throws -> [UInt8] {
        let path = storePath + "/" + relative
        guard let bytes = SystemIO.readFile(path, limit: 1 << 16) else {
            throw HelperError(.failure, "cannot read \(path) (or it is over 64 KiB), so whom pass would encrypt to is unknown",
                              fix: "check the file: it should list one gpg key a line")
        }
        return bytes
    }

    /// This store's approved `.gpg-id` files and their keys.
    func approved() throws -> [String: [String]] {
        try lines().filter { $0.store == store }.reduce(into: [:]) { $0[$1.relative] = $1.keys }
    }

    /// Refuses to encrypt to the `.gpg-id` at `relative` when it names a key that was not
    /// approved for it (or, for a `.gpg-id` new there, for the nearest approved one above,
    /// which decided until it came). Fewer keys than approved need no one's approval, and
    /// become what is approved. Approves it when nothing of this store was approved yet.
    /// Returns the keys as pass would read them, for the store to give pass itself
    /// (PASSWORD_STORE_KEY): pass then never reads the file again, and a sync tool that
    /// rewrites it between this check and pass's read (attack finding: 13 stores of 30)
    /// changes nothing.
    public func check(_ relative: String) throws -> [String] {
        let name = Self.exact(relative.utf8), bytes = try bytes(of: relative)
        let now = Self.keys(in: bytes), approvals = try approved()
        let pinned = try Self.rawKeys(in: bytes).map { key in
            // PASSWORD_STORE_KEY is split at white space, and each word expanded as a file name pattern.
            guard let text = String(validating: key, as: UTF8.self), !key.contains(where: { " \t\n*?[".utf8.contains($0) }) else {
                throw HelperError(.failure, "\(store)/\(name) names a key as \(Self.exact(key)), which pass would not pass to gpg unchanged here",
                                  fix: "name each key by its fingerprint (gpg --list-keys --with-colons shows it)")
            }
            return text
        }
        guard !pinned.isEmpty else {
            throw HelperError(.failure, "\(store)/\(name) names no key", fix: "pass init -p \(PassEntry.root) YOUR-GPG-KEY-ID")
        }
        guard !approvals.isEmpty else {
            // The first use of all approves; a store new to a record of others' (or one
            // moved: its path changed) waits for approve-keys.
            guard try lines().isEmpty else {
                throw HelperError(.failure, "\(store) is a password store whose keys you never approved (a new one, or one that moved), and \(name) names \(Self.list(now))",
                                  fix: "check the keys (gpg --list-keys), then, if you trust them, run: git-credential-pass approve-keys")
            }
            try record([name: now])
            Trace.note("approved the keys of \(name) in \(store) on first use: \(Self.list(now))")
            return pinned
        }
        let added = Self.unapproved(now, of: name, in: approvals)
        guard added.isEmpty else {
            throw HelperError(.failure, problem(name, added, approvals) + ", so a store would encrypt your password to a key you did not approve",
                              fix: "check the keys (gpg --list-keys), then, if you trust them, run: git-credential-pass approve-keys")
        }
        if approvals[name] != now { try record(approvals.merging([name: now]) { $1 }) }
        return pinned
    }

    /// For doctor: what is not approved among the store's `.gpg-id` files, one line each.
    public func problems(_ relatives: [String]) throws -> [String] {
        let approvals = try approved()
        guard !approvals.isEmpty else {
            return try lines().isEmpty ? [] : ["\(store) is a password store whose keys you never approved (a new one, or one that moved)"]
        }
        return try relatives.compactMap { relative in
            let name = Self.exact(relative.utf8), added = Self.unapproved(try keys(of: relative), of: name, in: approvals)
            return added.isEmpty ? nil : problem(name, added, approvals)
        }
    }

    func problem(_ name: String, _ added: [String], _ approvals: [String: [String]]) -> String {
        approvals[name] == nil ? "\(store)/\(name) is a .gpg-id you never approved, and it names \(Self.list(added))"
            : "the keys in \(store)/\(name) changed since you approved them: it now also names \(Self.list(added))"
    }

    /// Those of `keys` approved neither for the `.gpg-id` at `name` nor, when it is new,
    /// for the nearest approved one above it.
    static func unapproved(_ keys: [String], of name: String, in approvals: [String: [String]]) -> [String] {
        let before = approvals[name] ?? inherited(name, from: approvals) ?? []
        return keys.filter { !before.contains($0) }
    }

    /// The keys approved for the nearest `.gpg-id` above `relative`.
    static func inherited(_ relative: String, from approvals: [String: [String]]) -> [String]? {
        var directory = PrivateFiles.directory(of: relative)
        while directory != "." {
            directory = PrivateFiles.directory(of: directory)
            let candidate = directory == "." ? ".gpg-id" : directory + "/.gpg-id"
            if let keys = approvals[candidate] { return keys }
        }
        return nil
    }

    /// Approves what the store's `.gpg-id` files name now (see `PassCredentialStore.gpgIDs`),
    /// in place of what was approved for it before.
    public func approve(_ relatives: [String]) throws -> [(name: String, keys: [String])] {
        let now = try relatives.map { (name: Self.exact($0.utf8), keys: try keys(of: $0)) }
        try record(Dictionary(now.map { ($0.name, $0.keys) }, uniquingKeysWith: { first, _ in first }))
        return now
    }

    /// Approves the `.gpg-id` files as they are when nothing was ever approved (the first
    /// use, as for a store): sync does, before it merges what others pushed, so that what
    /// comes in is checked.
    func approveIfNoneYet(_ relatives: [String]) throws {
        guard try lines().isEmpty, !relatives.isEmpty else { return }
        let approved = try approve(relatives)
        Trace.note("approved the keys of \(approved.map(\.name).joined(separator: ", ")) in \(store) before syncing")
    }

    /// Whether anything was ever approved here (else the first store approves).
    public var approvedAny: Bool { get throws { try !lines().isEmpty } }

    public static func list(_ keys: [String]) -> String {
        keys.isEmpty ? "no key" : keys.joined(separator: ", ")
    }

    // MARK: The file

    struct Line: Equatable {
        let store: String
        let relative: String
        let keys: [String]
    }

    /// Every line of the file; none when there is no file yet. One another user could
    /// have written, or put where they can remove it, is refused.
    func lines() throws -> [Line] {
        let directory = PrivateFiles.directory(of: file)
        try PrivateFiles.checkAncestors(of: directory)
        guard try PrivateFiles.checkOwned(directory, as: .directory), try PrivateFiles.checkOwned(file, as: .file) else { return [] }
        guard let bytes = SystemIO.readFile(file, limit: 1 << 20) else {
            throw HelperError(.failure, "cannot read \(file) (or it is over 1 MiB)", fix: "check it: it lists the keys you approved, one .gpg-id a line")
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else { return nil }
            return Line(store: fields[0], relative: fields[1], keys: Array(fields.dropFirst(2)))
        }
    }

    /// Replaces this store's lines by `approvals`; other stores' lines stay.
    func record(_ approvals: [String: [String]]) throws {
        let kept = try lines().filter { $0.store != store }
        let added = approvals.keys.sorted().map { Line(store: store, relative: $0, keys: approvals[$0] ?? []) }
        let text = "# The keys git-credential-pass may encrypt to, per .gpg-id: store, file in it, keys (git-credential-pass approve-keys)\n"
            + (kept + added).map { ([$0.store, $0.relative] + $0.keys).joined(separator: "\t") + "\n" }.joined()
        try PrivateFiles.replace(file, contents: Array(text.utf8))
    }
}
