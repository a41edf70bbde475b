import ArgumentParser
import CredentialCore
import CredentialCrypto
import HelperCommand

#if canImport(Glibc)
import Glibc
#endif

public struct ExportCommand<Options: StoreOptions>: ParsableCommand {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "export",
            abstract: "Export every stored credential, encrypted with a passphrase unless --plaintext.",
            discussion: """
                The file is sealed with AES-256-GCM under a key derived from a passphrase \
                (scrypt); import reads it back into any of the helpers. The passphrase comes \
                from --file-passphrase-fd, an askpass program or the terminal (asked twice). \
                --plaintext writes git-credential-store lines instead (or git's credential \
                format with --format protocol): every secret in clear, so only on request. \
                Lines have no expiry or refresh token: expired passwords are left out, and \
                the count of those that lose an expiry is given; --format protocol keeps all. \
                Output goes to --output (created 0600, never overwritten) or a pipe, never to \
                a terminal.

                Examples:
                  git-credential-\(name) export --output backup.gitcred
                  git-credential-\(name) export --plaintext --output ~/.git-credentials
                  git-credential-\(name) export --plaintext | ssh host git-credential-sqlite import /dev/stdin
                """)
    }

    @OptionGroup var options: Options
    @Flag(help: "Write the secrets in clear (git-credential-store format).") var plaintext = false
    @Option(help: ArgumentHelp("With --plaintext: store (one URL per line) or protocol (git's key=value records).", valueName: "format"))
    var format: PlainFormat = .store
    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write; it must not exist yet (- for standard output).", valueName: "file"), completion: .file())
    var output: String?
    @Option(name: .customLong("file-passphrase-fd"), help: ArgumentHelp(
        "Read the export file's passphrase from this file descriptor instead of asking.", valueName: "n"))
    var filePassphraseFD: Int32?
    @OptionGroup var scrypt: ScryptCost

    enum PlainFormat: String, ExpressibleByArgument, CaseIterable { case store, `protocol` }

    public func run() throws {
        if destination == nil && isatty(1) == 1 {
            throw HelperError(.usage, "will not write an export to a terminal", fix: "add --output FILE, or pipe it")
        }
        let credentials = try options.managedSettings().openExisting()?.all() ?? []
        var left = 0, expired = 0, lossy = 0
        var bytes: [UInt8] = []
        if plaintext {
            switch format {
            case .store:
                let time = now()
                for credential in credentials {
                    // This format has no expiry: an expired password would come back as
                    // one that never expires.
                    if credential.isExpired(now: time) { expired += 1; continue }
                    guard let line = GitCredentialsFile.line(for: credential) else { left += 1; continue }
                    if GitCredentialsFile.loses(credential) { lossy += 1 }
                    bytes += line
                }
            case .`protocol`: bytes = ExportArchive.payload(credentials)
            }
        } else {
            let passphrase = try PassphraseSource(fd: filePassphraseFD, option: "--file-passphrase-fd").readNew(prompt: "Passphrase for the export file: ")
            bytes = try ExportArchive.seal(credentials, passphrase: passphrase, cost: scrypt.cost)
        }
        try write(bytes)
        var notes = left > 0 ? "; left out \(left) that this format cannot hold: no username and password, or a protocol or host that would not read back as written (use the encrypted format)" : ""
        if expired > 0 {
            notes += "; left out \(expired) expired credential\(expired == 1 ? "" : "s"), which this format would make never expire (--format protocol keeps expiry and refresh tokens)"
        }
        let how = plaintext ? "in plaintext" : "encrypted with a passphrase"
        SystemIO.writeAll(2, "exported \(Self.count(credentials.count - left - expired)) \(how) to \(destination ?? "standard output")\(notes)\n")
        if lossy > 0 {
            SystemIO.writeAll(2, "\(Self.count(lossy)) lost \(lossy == 1 ? "its" : "their") expiry, refresh token or authtype in this format (--format protocol keeps them)\n")
        }
    }

    static func count(_ number: Int) -> String { "\(number) credential\(number == 1 ? "" : "s")" }

    /// The file to write, `nil` for standard output (no --output, or `-` as every Unix tool reads it).
    var destination: String? { output == "-" ? nil : output }

    func write(_ bytes: [UInt8]) throws {
        guard let output = destination else {
            guard SystemIO.writeAll(1, bytes) else {
                throw HelperError(.failure, "cannot write the export to standard output: \(SystemIO.errorText())", fix: nil)
            }
            return
        }
        guard try PrivateFiles.createExclusively(output, contents: bytes) else {
            throw HelperError(.usage, "\(output) exists already", fix: "choose a new file name, or remove it first")
        }
    }
}

/// The scrypt cost of new passphrase-sealed data. For tests: debug builds run scrypt
/// several times slower. Hidden from help.
public struct ScryptCost: ParsableArguments {
    public init() {}
    @Option(name: .customLong("scrypt-cost"), help: .hidden)
    public var cost: UInt8 = PassphraseWrap.defaultCost

    /// The floor of release builds: log2 N = 15, 32 MiB, a quarter of the default's work.
    /// Debug builds, which the tests run and where scrypt is many times slower, go lower.
    #if DEBUG
    static let minimum: UInt8 = 1
    #else
    static let minimum: UInt8 = 15
    #endif

    /// Checked before anything is written: a cost beyond what import and the store open
    /// again would leave a store or file no one can open (init wrote the database first,
    /// then failed, blaming the database).
    public func validate() throws {
        guard cost <= ExportArchive.maximumCost else {
            throw ValidationError("--scrypt-cost \(cost) is more than import accepts (at most \(ExportArchive.maximumCost))")
        }
        guard cost >= Self.minimum else {
            throw ValidationError("--scrypt-cost \(cost) is below \(Self.minimum): a passphrase under so little scrypt work is guessed quickly")
        }
    }
}
