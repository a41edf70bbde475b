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
                Examples:
                  git-credential-\(name) list
                  git-credential-\(name) list github.com
                """)
    }

    @OptionGroup var options: Options
    @Argument(help: ArgumentHelp("Only credentials for this host (host or host:port).", valueName: "host"),
              completion: StoredHosts<Options>.completion)
    var host: String?

    public func run() throws {
        let items = try options.settings.openExisting()?.list() ?? []
        let shown = items.filter { host == nil || $0.credential.host?.text == host }
        SystemIO.writeAll(1, CredentialTable.render(shown, now: now()))
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
        !host.hasPrefix("-") && !host.unicodeScalars.contains(where: Trace.isHazard)
    }

    static func escapedForDescribe(_ host: String) -> String {
        String(host.flatMap { $0 == ":" || $0 == "\\" ? ["\\", $0] : [$0] })
    }

    static func hosts(words: [String]) -> [String] {
        SecretPrompt.allowed = false
        var settings = Options.Settings()
        var remaining = words.dropFirst()[...]
        while let word = remaining.popFirst() {
            guard let (name, inline) = Options.Settings.option(word) else { continue }
            if let inline {
                _ = settings.set(option: name, to: inline)
            } else if let value = remaining.first, settings.set(option: name, to: value) {
                remaining.removeFirst()
            }
        }
        let items = (try? settings.openExisting()?.list()) ?? []
        return Array(Set(items.compactMap { $0.credential.host?.text }.filter { !$0.isEmpty })).sorted()
    }
}

/// The human-readable listing. Values are shown as the trace shows them (Trace.quoted):
/// a stored value cannot play tricks on the terminal (control characters) nor on the eye
/// (bidirectional overrides, zero-width and other format characters), and one holding a
/// space stays one column.
enum CredentialTable {
    static func render(_ items: [StoredItem], now: UInt64) -> String {
        let header = ["PROTOCOL", "HOST", "PATH", "USERNAME", "EXPIRES", "BACKEND"]
        let rows = items
            .map { stored in
                let item = stored.credential
                return [shown(item.protocol), shown(item.host), shown(item.path), shown(item.username),
                        item.passwordExpiryUTC.map { expiry($0, now: now) } ?? "never", stored.backend]
            }
            .sorted { $0.lexicographicallyPrecedes($1) }
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

    static func expiry(_ seconds: UInt64, now: UInt64) -> String {
        var time = time_t(clamping: seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [UInt8](repeating: 0, count: 32)
        let length = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, $0.count, "%Y-%m-%d %H:%M UTC", &parts) }
        }
        let text = String(decoding: buffer.prefix(length), as: UTF8.self)
        return seconds < now ? text + " (expired)" : text
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
