import Foundation

/// The figures of the reliability parts (issue 6): each part prints one line and appends
/// a row to $RELIABILITY_REPORT when set; `make test` prints them as a table at the end
/// (scripts/reliability-summary).
enum ReliabilityReport {
    /// Larger sizes under `make stress` (CREDENTIAL_STRESS=1); sizes that fit CI otherwise.
    static var stress: Bool { ProcessInfo.processInfo.environment["CREDENTIAL_STRESS"] == "1" }

    static func size(ci: Int, stress: Int) -> Int { Self.stress ? stress : ci }

    /// Records one part: `cases` run, `failures` among them, in `seconds` of wall time.
    static func record(part: String, cases: Int, failures: Int, seconds: Double) {
        let rate = seconds > 0 ? Double(cases) / seconds : 0
        let row = "\(part)\t\(cases)\t\(failures)\t\(String(format: "%.1f", rate))\n"
        print("reliability: \(part): \(cases) cases, \(failures) failures, \(String(format: "%.1f", rate)) ops/s")
        guard let path = ProcessInfo.processInfo.environment["RELIABILITY_REPORT"], !path.isEmpty else { return }
        // O_APPEND writes of one short line are atomic, so parallel tests can share the file.
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = row.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }
}
