import ArgumentParser
import CredentialCore
import CredentialCrypto
import HelperCommand

#if canImport(Glibc)
import Glibc
#endif

public struct ImportCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "import",
            abstract: "Import credentials from git-credential-store files, a netrc file, an export file or another backend.",
            discussion: """
                Each FILE may be a git-credential-store file (one URL per line, as \
                ~/.git-credentials), git's key=value records (export --plaintext --format \
                protocol), a netrc file (its entries become https credentials), or a file \
                written by export (asks for its passphrase). With no FILE and no --from, \
                ~/.git-credentials and $XDG_CONFIG_HOME/git/credentials are read, those that \
                exist. --from reads the other backend's store through its own helper, so \
                secrets pass through a pipe only. Lines that are not complete credentials are \
                counted and skipped. Of entries for the same protocol, host, path and user, \
                the first is imported, across the files in order, as git-credential-store \
                reads them; an expired one without a refresh token is not. A netrc entry is \
                imported only when curl reads it from the file exactly as written; each other \
                one (an account, a macro, a value starting with # unquoted, an unclosed quote) \
                gets a line saying why.

                --remove-source overwrites and removes each plaintext file once every entry \
                in it reads back from the store, and only the very file that was read. It \
                keeps, and says why, a file with skipped lines, a symbolic link (a dotfile \
                manager's: wipe its target yourself, and from its repository's history), a \
                file with other hard links, of another user, read-only, or changed since it \
                was read.

                --from gcm reads Git Credential Manager's stores as its settings say, the one it \
                uses first: its Secret Service items, ~/.gcm/store and its gpg store (your gpg \
                may ask for the key's passphrase). What others could have put there is left \
                out, saying why; --remove-source removes each entry imported, if unchanged.

                An export file that is truncated, damaged or altered says so, apart from a \
                wrong passphrase; one larger than 16 MiB, or asking for more scrypt work than \
                export writes, is refused before any work.

                Examples:
                  git-credential-\(name) import
                  git-credential-\(name) import --remove-source ~/.git-credentials
                  git-credential-\(name) import ~/.netrc
                  git-credential-\(name) import --from \(Backend.helpers.first { $0 != name } ?? "sqlite")
                  git-credential-\(name) import backup.gitcred
                  git-credential-\(name) import --from gcm --remove-source
                """)
    }

    @OptionGroup var options: Options
    @Option(help: ArgumentHelp("Import from this backend's store: \(Backend.helpers.joined(separator: ", ")), or gcm (Git Credential Manager's stores).",
                               valueName: "backend"))
    var from: Backend?
    @Flag(help: "Wipe each plaintext source file once every credential in it reads back.")
    var removeSource = false
    @Option(name: .customLong("file-passphrase-fd"), help: ArgumentHelp(
        "Read an export file's passphrase from this file descriptor instead of asking.", valueName: "n"))
    var filePassphraseFD: Int32?
    @Argument(help: ArgumentHelp("Files to import.", valueName: "file"), completion: .file())
    var files: [String] = []

    /// A backend to import from: each helper of the suite that keeps one store (Programs),
    /// run for its export; or gcm, read here.
    struct Backend: ExpressibleByArgument, Equatable {
        let name: String
        static var gcm: Backend { Backend(name: "gcm") }
        /// The helpers, a SQLite store first, then the desktop keyring, then pass's store.
        static var helpers: [String] { Programs.Place.allCases.compactMap(Programs.helper(keepingOnly:)) }
        static var allValueStrings: [String] { helpers + [gcm.name] }
        static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
        init(name: String) { self.name = name }
        init?(argument: String) {
            guard Self.allValueStrings.contains(argument) else { return nil }
            name = argument
        }
    }

    public func run() throws {
        // Here, not in validate(): the argument parser validates before it reports an
        // unknown option, whose value it has taken for a FILE (`--from sqlite
        // --passphrase-fd 3` on a helper without that option said "not both").
        if from != nil && !files.isEmpty { throw HelperError(.usage, "give files or --from, not both", fix: "run import once for each") }
        let sources = ImportSelection.select(try readSources(), now: now())
        let credentials = ImportSelection.storingOrder(sources)
        let store = try options.managedSettings().openOrCreate()
        // What is stored now, to say what the import changes; a store that cannot show
        // every item (one locked) is imported into all the same, without the breakdown.
        var stored = (try? store.allWhereReplaceWrites()).map(StoredKeys.init)
        let progress = Progress(label: "importing", total: credentials.count)
        try store.replace(with: credentials, progress: progress)
        progress?.finish()
        for source in sources {
            let count = source.credentials.count
            var summary = ""
            if count > 0, var keys = stored {
                var counts: [StoredKeys.Change: Int] = [:]
                for credential in source.credentials { counts[keys.record(credential), default: 0] += 1 }
                stored = keys
                summary = ": \(counts[.new] ?? 0) new, \(counts[.replaced] ?? 0) replaced, \(counts[.unchanged] ?? 0) unchanged"
            }
            for (kind, places) in [(source.skippedKind, source.skippedLines), ("repeated", source.repeated.map(\.line)), ("expired", source.expired)] where !places.isEmpty {
                summary += "; skipped \(places.count) \(kind) entr\(places.count == 1 ? "y" : "ies") (\(source.places(places)))"
            }
            SystemIO.writeAll(2, "read \(count) credential\(count == 1 ? "" : "s") from \(source.name)\(summary)\n")
            for note in source.orderedNotes { SystemIO.writeAll(2, "not imported from \(source.name): \(note.text)\n") }
            for text in source.leftOut { SystemIO.writeAll(2, Trace.printable("imported from \(source.name) without a part: \(text)") + "\n") }
            if source.isNetrc, let covered = Self.netrcCoverage(source) { SystemIO.writeAll(2, Trace.printable(covered) + "\n") }
            if source.isNetrc && !removeSource, let home = SystemIO.environment("HOME"),
               Subprocess.realPath(home + "/.netrc").map({ $0 == Subprocess.realPath(source.name) }) == true {
                // --remove-source keeps a file with entries it could not import: then the way
                // out is to move the file where curl does not read it.
                SystemIO.writeAll(2, "note: git's HTTP transport reads \(source.name) before it asks any helper; once you no longer need it, "
                    + (source.skipped == 0 ? "import with --remove-source, or remove it\n"
                        : "move it where curl does not read it (what was not imported stays there, for curl --netrc-file): \(NetrcFile.asideCommand(source.name))\n"))
            }
        }
        if removeSource { try removePlaintext(sources, store: store) }
    }

    /// curl uses `machine HOST` for every protocol and port of HOST; an imported entry is
    /// a credential for https://HOST, which git asks for that URL only: said, entry by
    /// entry (the first few), so that the person is not surprised to be asked for
    /// http://HOST or HOST:8443 (once: git stores what is typed then).
    static func netrcCoverage(_ source: ImportSource) -> String? {
        var urls: [String] = []
        for credential in source.credentials {
            // A repeated machine was read twice but is one credential.
            guard let host = credential.host else { continue }
            let url = "\(credential.username.map { Trace.quoted($0.bytes) + " at " } ?? "")https://\(Trace.quoted(host.bytes))"
            if !urls.contains(url) { urls.append(url) }
        }
        guard !urls.isEmpty else { return nil }
        let shown = urls.prefix(5).joined(separator: ", ") + (urls.count > 5 ? " and \(urls.count - 5) more" : "")
        return "note: each entry imported from \(source.name) now answers git for https://HOST only (\(shown)); "
            + "curl used it for every protocol and port of that machine, so git asks once for any other (http://HOST, HOST:8443) and stores the answer"
    }

    func readSources() throws -> [ImportSource] {
        if from == .gcm { return try GCMImport.sources() }
        if let from { return [try Sibling.export(from.name)] }
        let paths = files.isEmpty ? PlaintextFiles.existing : files
        if paths.isEmpty {
            throw HelperError(.usage, "nothing to import: no file given, and neither \(PlaintextFiles.all.joined(separator: " nor ")) exists",
                              fix: "name a file, or use --from sqlite or --from secretservice")
        }
        return try paths.map { path in
            let (file, bytes) = try SourceFile.read(path, defaultFile: files.isEmpty)
            if ExportArchive.isArchive(bytes) { return try openArchive(bytes, name: path) }
            var source = NetrcFile.looksLikeNetrc(bytes) ? NetrcFile.read(bytes, name: path)
                : CredentialRecordsFile.looksLikeRecords(bytes) ? CredentialRecordsFile.read(bytes, name: path)
                : GitCredentialsFile.read(bytes, name: path)
            source.plaintextFile = file
            return source
        }
    }

    func openArchive(_ bytes: [UInt8], name: String) throws -> ImportSource {
        let source = PassphraseSource(fd: filePassphraseFD, option: "--file-passphrase-fd")
        let credentials = try ExportArchive.open(bytes, name: name) {
            guard let passphrase = try source.read(prompt: "Passphrase for \(name): ") else { throw source.noOneToAsk }
            return passphrase
        }
        return ImportSource(name: name, credentials: credentials, unit: "entry")
    }

    /// Each plaintext file goes only when every credential read from it is found again,
    /// secrets and all, and only the file that was read (see `SourceFile.wipe`). Each file
    /// kept gets its own line, the last one as the error, so that the exit status says
    /// that not everything asked for was done.
    func removePlaintext(_ sources: [ImportSource], store: ManagedStore) throws {
        var kept: [HelperError] = []
        var removed: [SourceFile] = []
        // Files named as themselves first: a link to one of them (~/.git-credentials to
        // ~/.config/git/credentials) then finds its plaintext already gone.
        let ordered = sources.filter { $0.plaintextFile?.isLink != true } + sources.filter { $0.plaintextFile?.isLink == true }
        for source in ordered {
            if source.fromGCM {
                kept += try GCMImport.remove(source, store: store)
                continue
            }
            if let file = source.plaintextFile, let earlier = removed.first(where: file.isSameFile) {
                if earlier.path != file.path { SystemIO.writeAll(2, "left \(file.path): it leads to \(earlier.path), removed\n") }
                continue
            }
            guard let file = source.plaintextFile else {
                SystemIO.writeAll(2, "kept \(source.name): --remove-source wipes plaintext files only\n")
                continue
            }
            if source.skipped > 0 {
                kept.append(HelperError(.failure, "kept \(file.path): \(source.skipped == 1 ? "1 entry in it was" : "\(source.skipped) entries in it were") not imported (\(source.skippedLinesText))",
                                        fix: "move them by hand, then remove the file"))
                continue
            }
            let differing = source.repeated.filter { !$0.same }.map(\.line)
            if !differing.isEmpty {
                kept.append(HelperError(.failure, "kept \(file.path): \(source.places(differing)) repeat\(differing.count == 1 ? "s" : "") an earlier entry with a different password or token, not imported",
                                        fix: "remove the entries git should not use, then import again"))
                continue
            }
            let missing = try source.credentials.filter { credential in
                let key = Credential(protocol: credential.protocol, host: credential.host, path: credential.path, username: credential.username)
                return try !store.items(matching: key, for: .lookup).contains(credential.storable)
            }
            if !missing.isEmpty {
                kept.append(HelperError(.failure, "kept \(file.path): \(missing.count) of its credentials do not read back from the store",
                                        fix: "check the store (list, doctor), then import again"))
                continue
            }
            do throws(SourceFile.Kept) {
                try file.wipe()
                removed.append(file)
                SystemIO.writeAll(2, "removed \(file.path)\n")
            } catch {
                kept.append(HelperError(.failure, "kept \(file.path): \(error.reason)", fix: error.fix))
            }
        }
        guard let last = kept.popLast() else { return }
        for error in kept { SystemIO.writeAll(2, error.line(program: "git-credential-" + Options.Settings.helperName) + "\n") }
        throw last
    }
}

/// The store's items by key (protocol, host, path, user), to tell what an import adds,
/// replaces or finds already there.
struct StoredKeys {
    enum Change { case new, replaced, unchanged }
    var items: [[Value?]: Credential] = [:]

    init(_ credentials: [Credential]) {
        for credential in credentials { items[Self.key(credential)] = credential.storable }
    }

    /// What storing `credential` does, as stored from now on.
    mutating func record(_ credential: Credential) -> Change {
        let key = Self.key(credential)
        let before = items.updateValue(credential.storable, forKey: key)
        return before == nil ? .new : before == credential.storable ? .unchanged : .replaced
    }

    static func key(_ credential: Credential) -> [Value?] {
        [credential.protocol, credential.host, credential.path, credential.username]
    }
}

/// The files git-credential-store reads when it is given none.
/// Another backend's helper, run beside this one: its store is read through its own
/// code (and libraries), and the secrets come through a pipe, never a file.
enum Sibling {
    /// The helper `program`, beside this one, else on PATH.
    static func path(_ program: String) -> String? {
        let here = Subprocess.currentExecutable.map(PrivateFiles.directory(of:))
        return here.map { $0 + "/" + program }.flatMap { access($0, X_OK) == 0 ? $0 : nil } ?? Subprocess.which(program)
    }

    static func export(_ backend: String) throws -> ImportSource {
        let program = "git-credential-" + backend
        guard let path = path(program), let result = Subprocess.run(path, ["export", "--plaintext", "--format", "protocol"], input: []) else {
            throw HelperError(.failure, "cannot run \(program)", fix: "install it beside this helper or on PATH")
        }
        guard result.succeeded else {
            throw HelperError.relayed(result.lastErrorLine, from: program, doing: "\(program) could not export", fix: "run \(program) doctor")
        }
        do {
            return ImportSource(name: backend, credentials: try ExportArchive.records(result.output), unit: "entry")
        } catch {
            throw HelperError(.failure, "\(program) wrote something that is not credentials: \(error.message)", fix: "run \(program) doctor")
        }
    }
}
