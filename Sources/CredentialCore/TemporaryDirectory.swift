#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A directory of one's own for work that must leave nothing behind: made by mkdtemp
/// (mode 0700, a name no one else can have taken) under $TMPDIR or /tmp, and removed
/// with everything in it when the work is done, however it ends.
public enum TemporaryDirectory {
    public static func with<T>(prefix: String, _ body: (String) throws -> T) throws -> T {
        // An absolute TMPDIR only: a relative one would land in whatever directory this runs in.
        let base = SystemIO.environment("TMPDIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((base + "/" + prefix + ".XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else {
            throw HelperError(.failure, "cannot create a temporary directory in \(base): \(SystemIO.errorText())",
                              fix: "set TMPDIR to a directory of your own")
        }
        let path = String(cString: template)
        defer { remove(path) }
        return try body(path)
    }

    /// Removes `path` and, for a directory, everything below it; symbolic links are
    /// removed, never followed.
    static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        if let directory = opendir(path) {
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: &entry.pointee.d_name) {
                    String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            for name in names { remove(path + "/" + name) }
        }
        rmdir(path)
    }
}
