/// A failure to report as one line on stderr: `PROGRAM: message. Fix: fix`.
/// Messages name files and causes, never a secret.
public struct HelperError: Error, Equatable {
    public enum Kind: Sendable {
        /// Bad arguments or input: exit 2, nothing stored.
        case usage
        /// The backend cannot be used now (locked, no service): get stays silent on
        /// stdout and exits 0 so git asks the next helper; store and erase exit 1.
        case unavailable
        /// A store named explicitly (an option, an environment variable) does not exist:
        /// a typo, not an empty store. Exit 1; get answers nothing, silently but for the trace.
        case notFound
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

extension HelperError {
    /// Another program's error line (`OTHER: cause. Fix: fix`) relayed as ours: its cause
    /// (without its name, which `action` gives) after what we were doing, and its own fix, the one that helps (only `fix` when it
    /// gave none), so that the line has one cause and one fix.
    public static func relayed(_ line: String, from program: String, doing action: String, fix: String) -> HelperError {
        let marker = Array(". Fix: ")
        let characters = Array(line.hasPrefix(program + ": ") ? line.dropFirst(program.count + 2) : Substring(line))
        guard characters.count >= marker.count,
              let start = (0...(characters.count - marker.count)).last(where: { characters[$0..<$0 + marker.count].elementsEqual(marker) })
        else { return HelperError(.failure, "\(action): " + String(characters), fix: fix) }
        // The fix ends its sentence with our own ". " when it has no full stop of its own.
        return HelperError(.failure, "\(action): " + String(characters[..<start]), fix: String(characters[(start + marker.count)...]))
    }
}

extension ProtocolError {
    /// Input that is not the credential protocol, as one line that says what was done
    /// with it (`outcome`: "nothing was stored", "no header was written").
    public func asInputError(_ outcome: String) -> HelperError {
        HelperError(.usage, "invalid credential input: \(message); \(outcome)",
                    fix: "send key=value lines as git does (see git help credential)")
    }
}
