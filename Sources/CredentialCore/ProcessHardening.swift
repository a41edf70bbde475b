import CProcess

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Run first in every executable: no core dumps, not dumpable, files private by
/// default, and a closed stdout is an error to report, not a signal that kills us.
public enum ProcessHardening {
    public static func apply() {
        _ = cprocess_harden()
        umask(0o077)
        signal(SIGPIPE, SIG_IGN)
    }
}
