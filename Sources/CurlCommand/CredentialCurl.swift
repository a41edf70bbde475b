import CredentialCore
import HelperCommand

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `credential-curl [CURL OPTIONS] URL`: curl with the credential git would use for URL,
/// taken from `git credential fill` and handed to curl on a pipe. The everyday path reads
/// its arguments with the option table, never with the argument parser, whose reflection
/// would cost more than the rest of the run (see HelperRunner.main(command:parsedWithout:));
/// --help, --version and the shells' completion are the parser's (CredentialCurlCommand).
public enum CredentialCurl {
    static let program = "credential-curl"

    /// The first arguments that are the argument parser's.
    static let parsersWords = ["-h", "--help", "--version", "--experimental-dump-help", "---completion", "--generate-completion-script"]

    public static func start() -> Never {
        ProcessHardening.apply()  // no core file can hold the header or the credential
        openClosedStandardDescriptors()
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } } ?? []
        }
        if let first = arguments.first.map({ String(decoding: $0, as: UTF8.self) }),
           parsersWords.contains(where: { first == $0 || first.hasPrefix("--generate-completion-script=") }) {
            HelperRunner.main(command: CredentialCurlCommand.self)
        }
        Trace.start(program: program)
        // Tracing asked for but not started (it warned once): the helpers git runs for us
        // would only warn again.
        if getenv(Trace.variable) != nil && !Trace.isOn { unsetenv(Trace.variable) }
        do {
            exit(try run(arguments))
        } catch {
            exit(HelperRunner.report(error, root: CredentialCurlCommand.self))
        }
    }

    /// A standard descriptor the caller closed is /dev/null: a descriptor opened later (a
    /// pipe) must not become curl's stdout or stderr, nor ours.
    static func openClosedStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 {
            _ = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
        }
    }

    /// The whole request: curl's exit status, once the credential is approved or rejected.
    static func run(_ arguments: [[UInt8]]) throws(HelperError) -> Int32 {
        // The package only recommends curl: said here, before git is asked for a credential
        // (a prompt for a password that could not be sent).
        guard let curl = Subprocess.which("curl") else {
            throw HelperError(.usage, "curl is not installed (not on PATH), and it is what sends the request", fix: "apt-get install curl")
        }
        let request = try CurlArguments.read(arguments)
        try CurlURL.check(request.url)
        let shownURL = CurlURL.shown(request.url)
        // Never a URL's password, whatever GIT_CREDENTIAL_TRACE_REDACT says.
        Trace.note("url " + Trace.redactingURLPasswords(Trace.quoted(request.url)))
        let origin = CurlURL.origin(request.url)!

        let (answer, credential) = try GitCredentialCalls.fill(request.url, shown: shownURL)
        Trace.note("git credential fill gave a credential for username=" + Trace.quoted(credential.username?.bytes ?? []))
        // The credential must be for URL's origin as curl reads URL: a URL that git parses
        // otherwise, or a helper's answer for another protocol or host, would send it
        // elsewhere, and the approval at the end would store it for that other host.
        let filled = CurlURL.origin((credential.protocol?.bytes ?? []) + Array("://".utf8) + (credential.host?.bytes ?? []) + [0x2F])
        guard filled == origin else {
            throw HelperError(.usage, "git credential fill answered for \(CurlURL.shown(Array((filled ?? "no protocol and host").utf8))), not for \(origin), the origin curl would send it to",
                              fix: "check the URL, and what your credential helpers answer for it")
        }
        let (header, scheme) = try AuthorizationHeader.of(credential)
        Trace.note("made the Authorization header (\(Trace.quoted(scheme)), never traced); curl gets it on a pipe")

        // Interrupted or told to end: curl too (it would go on sending, on its own), then
        // 128 + the signal, as a shell reports it.
        for stop in [SIGINT, SIGTERM, SIGHUP] {
            signal(stop) { received in
                if CurlProcess.running > 0 { kill(CurlProcess.running, received) }
                _exit(128 + received)
            }
        }
        let outcome = try CurlProcess.run(curl, request: request, header: header)
        Trace.note("curl exited with \(outcome.status); last response: HTTP \(Trace.quoted(outcome.code.isEmpty ? "none" : outcome.code)) from \(Trace.quoted(outcome.effective))")

        // A 401 (or a 2xx) says something about the credential only when it came from its
        // own origin: after a redirect to another host, port or scheme, curl sent no
        // credential there.
        let answeredBy = CurlURL.origin(outcome.effective)
        guard answeredBy == origin else {
            Trace.note("neither approving nor rejecting the credential: the last response came from \(Trace.quoted(answeredBy ?? "none")), not from the credential's origin")
            return outcome.status
        }
        let token = credential.authtype != nil && credential.credential != nil
        if outcome.code.utf8.count == 3 && outcome.code.hasPrefix("2") {
            Trace.note("approving the credential (git credential approve): a 2xx from its own origin")
            GitCredentialCalls.tell("approve", answer, token: token)
        } else if outcome.code == "401" {
            Trace.note("rejecting the credential (git credential reject): a 401 from its own origin")
            GitCredentialCalls.tell("reject", answer, token: token)
            // Said even with -s, which silences curl's own messages, not ours: the stored
            // credential is gone, and the next run (a cron job's) would fail or ask.
            let user = credential.username.map { CurlURL.shown($0.bytes) } ?? ""
            SystemIO.writeAll(2, "\(program): \(origin) refused the credential of \(user.isEmpty ? "no user name" : user) (HTTP 401): git credential reject told git's helpers to erase it, so the next call asks for one again\n")
        } else {
            Trace.note("neither approving nor rejecting the credential: HTTP \(Trace.quoted(outcome.code.isEmpty ? "none" : outcome.code)) says nothing about it")
        }
        return outcome.status
    }
}
