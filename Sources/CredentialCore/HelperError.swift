/// A failure to report as one line on stderr: `PROGRAM: message. Fix: fix`.
/// Messages name files and causes, never a secret.
public struct HelperError: Error, Equatable {
    public enum Kind: Sendable {
        /// Bad arguments or input: exit 2, nothing stored.
        case usage
        /// The backend cannot be used now (locked, no service): get stays silent on
        /// stdout and exits 0 so git asks the next helper; store and erase exit 1.
        case unavailable
        /// Anything else: exit 1.
        case failure
    }

    public let kind: Kind
    public let message: String
    public let fix: String?

    public init(_ kind: Kind, _ message: String, fix: String? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
    }

    /// The one line, newlines flattened so that it stays one line whatever the cause,
    /// other control and format characters escaped as the trace escapes them (a message can
    /// quote a hostile value, or another program's output), and the password of any URL in
    /// it (one the user typed, echoed back) redacted.
    public func line(program: String) -> String {
        var text = "\(program): \(message)"
        if let fix { text += (text.last.map { ".?!".contains($0) } == true ? " " : ". ") + "Fix: \(fix)" }
        return Trace.redactingURLPasswords(Trace.printable(String(text.map { $0.isNewline ? " " : $0 })))
    }
}
