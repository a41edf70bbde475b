import ArgumentParser
import CredentialCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `basic-auth-header`: a credential in git's protocol on stdin, one HTTP Basic
/// `Authorization` header line on stdout, for curl and scripts.
public struct BasicAuthHeaderCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "basic-auth-header",
        abstract: "Print an HTTP Basic Authorization header for the credential on standard input.",
        discussion: """
            Reads a credential in git's credential protocol (username=, password=, as printed \
            by `git credential fill` or a helper's get) and prints `Authorization: Basic ...`: \
            base64 of the UTF-8 bytes of user:password (RFC 7617). A ':' in the username or a \
            control character in either part is refused (exit 2): it could not be sent \
            intact, or could smuggle a header. The credential never appears in arguments.

            Examples:
              printf 'url=https://example.com\\n\\n' | git credential fill | basic-auth-header
              ... | basic-auth-header --curl-config | curl -K - https://example.com/api
            """,
        version: Version.line("basic-auth-header"))

    @Flag(name: .customLong("curl-config"), help: "Print a curl config line (header = \"...\") instead.")
    var curlConfig = false

    public init() {}

    /// The program's entry point. credential-curl's trace lines come first: a hidden mode,
    /// before the argument parser (it traces as credential-curl, not as basic-auth-header).
    public static func start() -> Never {
        if isCredentialCurlTrace(Array(CommandLine.arguments.dropFirst())) { writeCredentialCurlTrace() }
        HelperRunner.main(command: BasicAuthHeaderCommand.self, parsedWithout: parsedWithout)
    }

    /// The two calls of scripts and credential-curl, without the argument parser (see
    /// HelperRunner.main(command:parsedWithout:)); anything else is the parser's.
    static func parsedWithout(_ arguments: [String]) -> BasicAuthHeaderCommand? {
        guard arguments.isEmpty || arguments == ["--curl-config"] else { return nil }
        var command = BasicAuthHeaderCommand()
        command.curlConfig = !arguments.isEmpty
        return command
    }

    public func run() throws {
        let credential: Credential
        do { credential = try WireFormat.read(from: 0) } catch { throw error.asInputError("no header was written") }
        Trace.note("read " + Trace.describe(credential))
        guard let username = credential.username, let password = credential.password else {
            throw HelperError(.usage, "the input has no \(credential.username == nil ? "username" : "password")",
                              fix: "pipe in a credential with username= and password= lines, e.g. from git credential fill")
        }
        let header: String
        do { header = "Authorization: " + (try BasicAuth.headerValue(username: username, password: password)) } catch {
            throw HelperError(.usage, error.message, fix: "a Basic credential cannot carry it; use another credential")
        }
        SystemIO.writeAll(1, (curlConfig ? "header = " + Self.curlQuoted(header) : header) + "\n")
        // Redacted (the Basic blob) unless secrets are asked for: see Trace.
        Trace.note("wrote " + (curlConfig ? "a curl config line for " : "") + Trace.quoted(header))
    }

    /// A curl config string: double quotes, with backslash and double quote escaped.
    static func curlQuoted(_ text: String) -> String {
        "\"" + text.flatMap { $0 == "\\" || $0 == "\"" ? "\\\($0)" : "\($0)" } + "\""
    }
}

/// The hidden mode `basic-auth-header --credential-curl-trace`: one line of
/// scripts/credential-curl's trace, written by the one trace writer, so that the script
/// neither opens the trace itself (following links, blocking on a FIFO) nor quotes values.
extension BasicAuthHeaderCommand {
    public static let credentialCurlTraceFlag = "--credential-curl-trace"

    /// Whether `arguments` (without argv[0]) ask for the mode: that flag alone.
    public static func isCredentialCurlTrace(_ arguments: [String]) -> Bool {
        arguments == [credentialCurlTraceFlag]
    }

    /// Stdin holds one message, NUL-separated parts: text, then value and text in turn
    /// (a shell value holds no NUL); values are quoted as every trace quotes them.
    /// Exits 0 when the line went to the trace, 1 when nothing is traced (tracing off,
    /// or it could not start and warned), so that the script stops asking.
    public static func writeCredentialCurlTrace() -> Never {
        ProcessHardening.apply()
        // The script's steps name no secret but a URL's password, which stays redacted
        // whatever GIT_CREDENTIAL_TRACE_REDACT says.
        unsetenv(Trace.redactVariable)
        Trace.start(program: "credential-curl")
        let input = SystemIO.readAll(0, limit: 64 * 1024)
        var traced = false
        Trace.note({
            traced = true
            guard let input else { return "(a trace message that could not be read, or longer than 64 KiB)" }
            return input.split(separator: 0, omittingEmptySubsequences: false).enumerated().map { index, part in
                index % 2 == 0 ? String(decoding: part, as: UTF8.self) : Trace.quoted(Array(part))
            }.joined()
        }())
        Glibc.exit(traced ? 0 : 1)
    }
}
