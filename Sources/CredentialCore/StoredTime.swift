#if canImport(Glibc)
import Glibc
#endif

/// When a credential was stored, in nanoseconds since 1970 (UTC): the one clock every
/// store writes (a Secret Service item's `stored_ns` attribute, a SQLite record's sealed
/// time). Whole seconds cannot order two stores made in the same second, and
/// git-credential-keyring compares the times of its two stores to answer with the newer.
public enum StoredTime {
    public static func now() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(max(0, now.tv_sec)) &* 1_000_000_000 &+ UInt64(max(0, now.tv_nsec))
    }
}
