import ArgumentParser
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

public struct ListCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "list",
            abstract: "List stored credentials: protocol, host, path, user, expiry and backend, never a secret.",
            discussion: """
                A host alone lists it on every port, for every protocol, path and user \
                (github.com covers github.com:8443); a host:port, that port only; a URL, what \
                git would send for it (https://github.com: https on the default port only), \
                and its user, and its path but for http and https, for which git sends none \
                (a clone URL selects its host). erase reads its HOST-OR-URL the same way.

                --format json prints an array of objects with protocol, host, port, path, \
                username, password_expiry_utc (seconds since 1970, or null), expires (ISO \
                8601) and backend; [] when nothing is stored. A value that is no UTF-8 (U+FFFD \
                there) has its bytes in NAME_hex.\(Programs.helper(name, keeps: .passwordStore) ? " An entry that cannot be read (a broken one a sync brought) has unreadable, saying why." : "") The table prints nothing then, \
                not even its header (at a terminal, a line on stderr says so).

                Examples:
                  git-credential-\(name) list
                  git-credential-\(name) list github.com
                  git-credential-\(name) list https://alice@github.com:8443/org/repo
                  git-credential-\(name) list --format json
                """)
    }

    @OptionGroup var options: Options
    @Option(help: ArgumentHelp("table for people, json for scripts.", valueName: "format"))
    var format: ListFormat = .table
    @Argument(help: ArgumentHelp("Only credentials for this host (every port) or host:port, or that a URL would select.",
                                 valueName: "host-or-url"),
              completion: StoredHosts<Options>.completion)
    var host: String?

    enum ListFormat: String, ExpressibleByArgument, CaseIterable { case table, json }

    public func run() throws {
        // Read before the store is opened: a mistyped host fails without a passphrase prompt.
        let target = try host.map { try HostOrURL.parse($0, everything: "leave it out to list everything") }
        let store = try options.managedSettings().openExisting()
        let items = try target.flatMap { $0.request.host }.map { try store?.list(host: $0.text) ?? [] } ?? store?.list() ?? []
        let shown = items.filter { target?.matches($0.credential) ?? true }
        switch format {
        case .table:
            SystemIO.writeAll(1, CredentialTable.render(shown, now: now()))
            // Nothing on stdout for a script; a person at a terminal is told.
            if shown.isEmpty && isatty(1) == 1 { SystemIO.writeAll(2, "no credentials stored" + (host.map { " for \($0)" } ?? "") + "\n") }
        case .json: SystemIO.writeAll(1, CredentialJSON.render(shown))
        }
        for item in shown.sorted(by: CredentialTable.order) {
            guard let reason = item.unreadable, !item.explained else { continue }
            let user = item.credential.username.map { Trace.quoted($0.bytes) + " at " } ?? ""
            SystemIO.writeAll(2, "note: the entry for \(user)\(Trace.quoted(item.credential.host?.bytes ?? [])) cannot be read (\(Trace.printable(reason))); it answers no get: erase removes it\n")
        }
        if let note = ConfiguredPass.note(for: Options.Settings.helperName) { SystemIO.writeAll(2, "note: \(note)\n") }
    }
}

/// Shell completion of the hosts a helper holds (for list and erase): the helper runs
/// with the options typed so far and lists its store, asking no one for anything (a
/// locked store completes nothing). Hosts only: never a secret, never a username.
/// A stored host is anyone's text (an imported file, another program's keyring item):
/// the shells get it as a literal word (scripts/generate-docs makes bash take it so), and
/// a host no shell can insert as it is, or that would not read back as itself, is left
/// out: one holding a line break or another control or format character (a newline
/// would make two candidates, a bidirectional override hides what is inserted), or one
/// starting with `-` (inserted, it would be an option).
enum StoredHosts<Options: StoreOptions> {
    static var completion: CompletionKind {
        .custom { words, _, prefix in
            let hosts = hosts(words: words).filter { $0.hasPrefix(prefix) && isOfferable($0) }
            // zsh gets them through _describe, which reads "value:description" and takes a
            // backslash as an escape: a colon (of a host:port) and a backslash must be
            // escaped, or zsh offers the host without its port, or without the backslash.
            return CompletionShell.requesting == .zsh ? hosts.map(escapedForDescribe) : hosts
        }
    }

    static func isOfferable(_ host: String) -> Bool {
        !host.hasPrefix("-") && !host.unicodeScalars.contains(where: Trace.isHazard) && readsBack(host)
    }

    /// Whether list and erase read the host, typed as it is, as that very host and nothing
    /// more (`HostOrURL`): not a host with a `/`, `@` or `%41` in it (read as a path, a
    /// user, a decoded byte), nor one with what is no port after a colon (refused).
    static func readsBack(_ host: String) -> Bool {
        guard let read = try? HostOrURL.parse(host, everything: "") else { return false }
        return read.request == Credential(host: Value(host))
    }

    static func escapedForDescribe(_ host: String) -> String {
        String(host.flatMap { $0 == ":" || $0 == "\\" ? ["\\", $0] : [$0] })
    }

    /// A completion is typed at a prompt: one that cannot answer within 2 seconds (a
    /// keyring of thousands of items, a wedged one) ends, offering nothing, rather than
    /// freeze the shell, and ends the gpg it waits for too.
    static var completionSeconds: UInt32 { 2 }

    static func hosts(words: [String]) -> [String] {
        SecretPrompt.allowed = false
        Subprocess.exit(afterSeconds: completionSeconds)
        let settings = Options.Settings(readingLeniently: words.dropFirst())
        // The store erase and list would use, without their note: completion prints only words.
        let hosts = (try? ((try? settings.followingGit(saying: false)) ?? settings).openExisting()?.storedHosts()) ?? []
        return Array(Set(hosts.filter { !$0.isEmpty })).sorted()
    }
}

/// The human-readable listing. Values are shown as the trace shows them (Trace.quoted):
/// a stored value cannot play tricks on the terminal (control characters) nor on the eye
/// (bidirectional overrides, zero-width and other format characters), and one holding a
/// space stays one column.
enum CredentialTable {
    static func render(_ items: [StoredItem], now: UInt64) -> String {
        let header = ["PROTOCOL", "HOST", "PATH", "USERNAME", "EXPIRES", "BACKEND"]
        let rows = items.sorted(by: order).map { stored in
            let item = stored.credential
            return [shown(item.protocol), shown(item.host), shown(item.path), shown(item.username),
                    stored.unreadable != nil ? "unreadable" : item.passwordExpiryUTC.map { expiry($0, now: now) } ?? "never", stored.backend]
        }
        if rows.isEmpty { return "" }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            zip(row, widths).map { $0.padding(to: $1) }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }.joined()
    }

    static func shown(_ value: Value?) -> String {
        guard let value else { return "-" }
        return Trace.quoted(value.bytes)
    }

    /// The order of both formats: by protocol, host, path, user, then backend.
    static func order(_ one: StoredItem, _ other: StoredItem) -> Bool {
        func key(_ item: StoredItem) -> [[UInt8]] {
            let fields = [item.credential.protocol, item.credential.host, item.credential.path, item.credential.username]
            return fields.map { $0?.bytes ?? [] } + [Array(item.backend.utf8)]
        }
        return key(one).lexicographicallyPrecedes(key(other)) { $0.lexicographicallyPrecedes($1) }
    }

    static func expiry(_ seconds: UInt64, now: UInt64) -> String {
        let text = time(seconds, format: "%Y-%m-%d %H:%M UTC") ?? "\(seconds) s after 1970"
        return seconds < now ? text + " (expired)" : text
    }

    /// ISO 8601 in UTC, for scripts.
    static func isoTime(_ seconds: UInt64) -> String? { time(seconds, format: "%Y-%m-%dT%H:%M:%SZ") }

    /// `nil` for a time no calendar date holds (git takes any number as an expiry).
    static func time(_ seconds: UInt64, format: String) -> String? {
        var time = time_t(clamping: seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, $0.count, format, &parts) }
        }
        return String(decoding: buffer.prefix(length), as: UTF8.self)
    }
}

extension String {
    func padding(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
