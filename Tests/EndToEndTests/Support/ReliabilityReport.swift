import Foundation
import Testing

/// The figures of the reliability parts (issue 6): each part prints one line and appends
/// a row to $RELIABILITY_REPORT when set; `make test` prints them as a table at the end
/// (scripts/reliability-summary, which adds up the rows of one part).
enum ReliabilityReport {
    /// Larger sizes under `make stress` (CREDENTIAL_STRESS=1); sizes that fit CI otherwise.
    static var stress: Bool { ProcessInfo.processInfo.environment["CREDENTIAL_STRESS"] == "1" }

    static func size(ci: Int, stress: Int) -> Int { Self.stress ? stress : ci }

    /// Records one part: `cases` run, `failures` among them, in `seconds` of wall time.
    static func record(part: String, cases: Int, failures: Int, seconds: Double) {
        let rate = seconds > 0 ? Double(cases) / seconds : 0
        print("reliability: \(part): \(cases) cases, \(failures) failures, \(String(format: "%.1f", rate)) ops/s")
        guard let path = ProcessInfo.processInfo.environment["RELIABILITY_REPORT"], !path.isEmpty else { return }
        let row = "\(part)\t\(cases)\t\(failures)\t\(String(format: "%.6f", seconds))\n"
        // O_APPEND writes of one short line are atomic, so parallel tests can share the file.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = row.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }
}

/// Counts the cases of one reliability part as they are checked, each check also an
/// expectation of the test, and records the figures at the end.
final class ReliabilityTally {
    let part: String
    private let start = Date()
    private(set) var cases = 0
    private(set) var failures = 0

    init(part: String) { self.part = part }

    /// One case: passes when `passed`; otherwise a failure, with `comment` in the test's issue.
    func check(_ passed: Bool, _ comment: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        cases += 1
        if !passed {
            failures += 1
            Issue.record(Comment(rawValue: comment()), sourceLocation: sourceLocation)
        }
    }

    /// One case whose expectations the test has checked already (`passed`: all held).
    func count(_ passed: Bool) {
        cases += 1
        if !passed { failures += 1 }
    }

    /// Cases counted elsewhere (by a worker process), with the failures among them.
    func add(cases: Int, failures: Int) {
        self.cases += cases
        self.failures += failures
    }

    func record() {
        ReliabilityReport.record(part: part, cases: cases, failures: failures, seconds: Date().timeIntervalSince(start))
    }
}
