#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Thin, EINTR-safe wrappers over read(2)/write(2) and the environment: the
/// helpers avoid Foundation's FileHandle to keep startup short.
public enum SystemIO {
    /// read(2) once, retrying on EINTR. Returns the byte count, 0 at EOF, -1 on error.
    public static func readSome(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count >= 0 || errno != EINTR { return count }
        }
    }

    /// Reads to EOF, at most `limit` bytes; `nil` on error or when over the limit.
    public static func readAll(_ fd: Int32, limit: Int) -> [UInt8]? {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = readSome(fd, into: &chunk)
            if count < 0 { return nil }
            if count == 0 { return result }
            result += chunk[0..<count]
            if result.count > limit { return nil }
        }
    }

    /// A whole file, at most `limit` bytes; `nil` when it cannot be read (errno says why).
    public static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer {
            let saved = errno
            close(fd)
            errno = saved
        }
        return readAll(fd, limit: limit)
    }

    /// Writes everything, retrying short writes and EINTR. False on error (EPIPE included).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    public static func writeAll(_ fd: Int32, _ text: String) { writeAll(fd, Array(text.utf8)) }

    /// An environment variable, `nil` when unset or empty (an empty override means none).
    public static func environment(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let value = String(cString: raw)
        return value.isEmpty ? nil : value
    }

    public static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
