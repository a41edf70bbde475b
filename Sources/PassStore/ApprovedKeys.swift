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
/// and its keys, tab-separated.
public struct ApprovedKeys {
    public let file: String
    /// The password store's real path: the same store under another name is the same.
    let store: String

    public init(store directory: String) throws {
        guard let config = SystemIO.environment("XDG_CONFIG_HOME").flatMap({ $0.hasPrefix("/") ? $0 : nil })
                ?? SystemIO.environment("HOME").map({ $0 + "/.config" }) else {
            throw HelperError(.failure, "neither XDG_CONFIG_HOME nor HOME is set, so there is nowhere to keep the keys you approved",
                              fix: "set HOME")
        }
        file = config + "/git-credential-pass/approved-keys"
        store = Subprocess.realPath(directory) ?? directory
    }

    /// The keys a `.gpg-id` names, as pass reads them: a `#` starts a comment, blank lines
    /// name nothing. Sorted: their order does not change whom an entry is encrypted to.
    public static func keys(in text: String) -> [String] {
        Set(text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            var key = line.prefix { $0 != "#" }
            while key.first?.isWhitespace == true { key.removeFirst() }
            while key.last?.isWhitespace == true { key.removeLast() }
            return key.isEmpty ? nil : String(key)
        }).sorted()
    }

    /// What the `.gpg-id` at `relative` (a path in the store) names, read now.
    func keys(of relative: String) -> [String] {
        keys(atPath: store + "/" + relative)
    }

    func keys(atPath path: String) -> [String] {
        Self.keys(in: String(decoding: SystemIO.readFile(path, limit: 1 << 16) ?? [], as: UTF8.self))
    }

    /// This store's approved `.gpg-id` files and their keys.
    func approved() throws -> [String: [String]] {
        try lines().filter { $0.store == store }.reduce(into: [:]) { $0[$1.relative] = $1.keys }
    }

    /// Refuses to encrypt to the `.gpg-id` at `relative` when it names a key that was not
    /// approved for it (or, for a `.gpg-id` new there, for the nearest approved one above,
    /// which decided until it came). Fewer keys than approved need no one's approval, and
    /// become what is approved. Approves it when nothing of this store was approved yet.
    public func check(_ relative: String) throws {
        let now = keys(of: relative), approvals = try approved()
        guard !approvals.isEmpty else {
            try record([relative: now])
            Trace.note("approved the keys of \(relative) in \(store) on first use: \(Self.list(now))")
            return
        }
        let added = Self.unapproved(now, of: relative, in: approvals)
        guard added.isEmpty else {
            throw HelperError(.failure, problem(relative, added, approvals) + ", so a store would encrypt your password to a key you did not approve",
                              fix: "check the keys (gpg --list-keys), then, if you trust them, run: git-credential-pass approve-keys")
        }
        if approvals[relative] != now { try record(approvals.merging([relative: now]) { $1 }) }
    }

    /// For doctor: what is not approved among the store's `.gpg-id` files, one line each.
    public func problems(_ relatives: [String]) throws -> [String] {
        let approvals = try approved()
        guard !approvals.isEmpty else { return [] }
        return relatives.compactMap { relative in
            let added = Self.unapproved(keys(of: relative), of: relative, in: approvals)
            return added.isEmpty ? nil : problem(relative, added, approvals)
        }
    }

    func problem(_ relative: String, _ added: [String], _ approvals: [String: [String]]) -> String {
        approvals[relative] == nil ? "\(store)/\(relative) is a .gpg-id you never approved, and it names \(Self.list(added))"
            : "the keys in \(store)/\(relative) changed since you approved them: it now also names \(Self.list(added))"
    }

    /// Those of `keys` approved neither for `relative` nor, when it is new, for the nearest
    /// approved `.gpg-id` above it.
    static func unapproved(_ keys: [String], of relative: String, in approvals: [String: [String]]) -> [String] {
        let before = approvals[relative] ?? inherited(relative, from: approvals) ?? []
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
    public func approve(_ relatives: [String]) throws -> [(relative: String, keys: [String])] {
        let now = relatives.map { (relative: $0, keys: keys(of: $0)) }
        try record(Dictionary(now.map { ($0.relative, $0.keys) }, uniquingKeysWith: { first, _ in first }))
        return now
    }

    /// Approves the `.gpg-id` files as they are when nothing of this store was approved
    /// yet: sync does, before it merges what others pushed, so that what comes in is checked.
    func approveIfNoneYet(_ relatives: [String]) throws {
        guard try approved().isEmpty, !relatives.isEmpty else { return }
        let approved = try approve(relatives)
        Trace.note("approved the keys of \(approved.map(\.relative).joined(separator: ", ")) in \(store) before syncing")
    }

    public static func list(_ keys: [String]) -> String {
        keys.isEmpty ? "no key" : keys.joined(separator: ", ")
    }

    // MARK: The file

    struct Line: Equatable {
        let store: String
        let relative: String
        let keys: [String]
    }

    /// Every line of the file; none when there is no file yet. A file another user could
    /// have written (or read: it says which hosts' keys you use) is refused.
    func lines() throws -> [Line] {
        guard PrivateFiles.exists(file) else { return [] }
        try PrivateFiles.checkAncestors(of: file)
        let text = String(decoding: try PrivateFiles.readSecret(file, limit: 1 << 20), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else { return nil }
            return Line(store: fields[0], relative: fields[1], keys: Array(fields.dropFirst(2)))
        }
    }

    /// Replaces this store's lines by `approvals`; other stores' lines stay.
    func record(_ approvals: [String: [String]]) throws {
        let fields = [store] + approvals.keys + approvals.values.joined()
        guard !fields.contains(where: { $0.contains("\t") || $0.contains("\n") }) else {
            throw HelperError(.failure, "a path or key of \(store) has a tab or a line break, which \(file) cannot record",
                              fix: "rename it, or set PASSWORD_STORE_KEY to the keys to encrypt to")
        }
        let kept = try lines().filter { $0.store != store }
        let added = approvals.keys.sorted().map { Line(store: store, relative: $0, keys: approvals[$0] ?? []) }
        let text = "# The keys git-credential-pass may encrypt to, per .gpg-id: store, file in it, keys (git-credential-pass approve-keys)\n"
            + (kept + added).map { ([$0.store, $0.relative] + $0.keys).joined(separator: "\t") + "\n" }.joined()
        try PrivateFiles.replace(file, contents: Array(text.utf8))
    }
}
