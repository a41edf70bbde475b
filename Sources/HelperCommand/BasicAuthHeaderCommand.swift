import ArgumentParser
import CredentialCore

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

    /// The program's entry point.
    public static func start() -> Never {
        HelperRunner.main(command: BasicAuthHeaderCommand.self, parsedWithout: parsedWithout)
    }

    /// The two calls of scripts, without the argument parser (see
    /// HelperRunner.main(command:parsedWithout:)); anything else is the parser's.
    static func parsedWithout(_ arguments: [String]) -> BasicAuthHeaderCommand? {
        guard arguments.isEmpty || arguments == ["--curl-config"] else { return nil }
        var command = BasicAuthHeaderCommand()
        command.curlConfig = !arguments.isEmpty
        return command
    }

    public func run() throws {
        TerminalInput.sayWhatIsRead("reads a credential from the terminal: username= and password= lines, then an empty line "
            + "(the password shows as typed; git credential fill | basic-auth-header does not show it)")
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
        _ = SystemIO.writeAll(1, curlConfig ? CurlConfig.line("header", Array(header.utf8)) : Array((header + "\n").utf8))
        // Redacted (the Basic blob) unless secrets are asked for: see Trace.
        Trace.note("wrote " + (curlConfig ? "a curl config line for " : "") + Trace.quoted(header))
    }
}
