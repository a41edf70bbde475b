/// One verdict of `doctor`: what was checked, what was found, and the fix when it is
/// not right. Never holds a secret.
public struct HealthCheck: Sendable, Equatable {
    public enum Verdict: String, Sendable { case ok, warn, fail }

    public var verdict: Verdict
    public var subject: String
    public var detail: String
    public var fix: String?

    public init(_ verdict: Verdict, _ subject: String, _ detail: String, fix: String? = nil) {
        self.verdict = verdict
        self.subject = subject
        self.detail = detail
        self.fix = fix
    }

    /// `ok    subject: detail`, `FAIL  subject: detail. Fix: ...`, always one line of
    /// printable text: details carry outside data (git configuration a repository sets,
    /// paths, store contents), and an escape sequence or carriage return in them could
    /// rewrite what the terminal shows, another check's verdict included.
    public var line: String {
        let label = switch verdict { case .ok: "ok  "; case .warn: "warn"; case .fail: "FAIL" }
        return Trace.printable("\(label)  \(subject): \(detail)" + (fix.map { ". Fix: \($0)" } ?? ""))
    }
}
