#if canImport(Glibc)
import Glibc
#endif

/// "label: done/total" rewritten in place on a terminal's stderr, for imports and
/// exports that take a while. Nothing at all when stderr is not a terminal (a pipe, a
/// log file), so scripts see only the final counts.
public final class Progress {
    let label: String
    let total: Int
    var done = 0
    var shownAt: timespec = timespec()

    /// `nil` when stderr is not a terminal.
    public init?(label: String, total: Int, fd: Int32 = 2) {
        guard isatty(fd) == 1 else { return nil }
        self.label = label
        self.total = total
    }

    public func advance(by count: Int = 1) {
        done += count
        // At most ten redraws a second: a terminal that scrolls slowly must not slow us.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let elapsed = Double(now.tv_sec - shownAt.tv_sec) + Double(now.tv_nsec - shownAt.tv_nsec) / 1e9
        if done >= total || elapsed >= 0.1 {
            shownAt = now
            SystemIO.writeAll(2, "\r\(label): \(done)/\(total)")
        }
    }

    /// Clears the line, so the final report starts at the left margin.
    public func finish() { SystemIO.writeAll(2, "\r\u{1B}[K") }
}
