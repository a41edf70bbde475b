import ArgumentParser
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

public struct ListCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "list",
            abstract: "List stored credentials: protocol, host, path, user and expiry, never a secret.",
            discussion: "Example:\n  git-credential-sqlite list")
    }

    @OptionGroup var options: Options

    public func run() throws {
        let items = try options.settings.openExisting()?.list() ?? []
        SystemIO.writeAll(1, CredentialTable.render(items, now: now()))
    }
}

public struct ImportCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "import",
            abstract: "Import a git-credential-store file (one URL per line, as ~/.git-credentials).",
            discussion: """
                All entries are stored in one transaction; lines that are not complete \
                credential URLs are counted and skipped. The file is left as it is.

                Example:
                  git-credential-sqlite import ~/.git-credentials
                """)
    }

    @OptionGroup var options: Options
    @Argument(help: ArgumentHelp("The file to import.", valueName: "file")) var file: String

    public func run() throws {
        let source = try GitCredentialsFile.read(file)
        if !source.credentials.isEmpty { try options.settings.openOrCreate().replace(with: source.credentials) }
        SystemIO.writeAll(2, "imported \(source.credentials.count) credentials from \(file); skipped \(source.skipped) lines\n")
    }
}

/// git-credential-store's file format: one `proto://user:password@host/path` per line,
/// user and password percent-encoded.
enum GitCredentialsFile {
    static func read(_ path: String) throws -> (credentials: [Credential], skipped: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, let bytes = SystemIO.readAll(fd, limit: 1 << 30) else {
            let reason = SystemIO.errorText()
            if fd >= 0 { close(fd) }
            throw HelperError(.failure, "cannot read \(path): \(reason)", fix: "check the path and its permissions")
        }
        close(fd)
        var credentials: [Credential] = []
        var skipped = 0
        for line in bytes.split(separator: 0x0A) where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            if let credential = try? CredentialURL.parse(Value(Array(line))), credential.isStorable {
                credentials.append(credential)
            } else {
                skipped += 1
            }
        }
        return (credentials, skipped)
    }
}

/// The human-readable listing. Control characters are shown escaped, so a stored value
/// cannot play tricks on the terminal.
enum CredentialTable {
    static func render(_ items: [Credential], now: UInt64) -> String {
        let header = ["PROTOCOL", "HOST", "PATH", "USERNAME", "EXPIRES"]
        let rows = items
            .map { item in
                [shown(item.protocol), shown(item.host), shown(item.path), shown(item.username),
                 item.passwordExpiryUTC.map { expiry($0, now: now) } ?? "never"]
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
        return value.text.unicodeScalars.map { scalar in
            let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            return isControl ? "\\x" + Hex.encode([UInt8(scalar.value)]) : String(scalar)
        }.joined()
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
