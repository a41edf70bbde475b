import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// `serve --log`: one line per request, what was asked and what was done, never a secret.
/// Values the remote sent (host, path, user) are quoted as the trace quotes them: the remote
/// is the less trusted end, and an escape sequence in a log read on a terminal could rewrite
/// what the person sees.
/// Refusals are at most `refusalsPerMinute` lines a minute (a remote refused in a loop wrote
/// 1.7 GB an hour), other lines `othersPerMinute` (answers to a loop of gets with long
/// paths: 360 MB an hour): the rest are counted, and the count is said with the next line
/// written. A person's git does a few a minute.
struct ForwardLog {
    let fd: Int32
    /// Shared by serve's children (the count of refusals); nil: no bound.
    var memory: ServeMemory?
    static let refusalsPerMinute: Int64 = 20
    static let othersPerMinute: Int64 = 120

    /// FILE (created 0600, appended to; the user's own, not a link) or `-` (stderr).
    static func open(_ path: String) throws(HelperError) -> ForwardLog {
        if path == "-" { return ForwardLog(fd: 2) }
        guard PrivateFiles.exists(PrivateFiles.directory(of: path)) else {
            throw HelperError(.usage, "cannot open the log \(path): its directory \(PrivateFiles.directory(of: path)) does not exist",
                              fix: "create it (mkdir -p \(ShellWord.quoted(PrivateFiles.directory(of: path)))), or name a file in a directory that exists")
        }
        try PrivateFiles.checkAncestors(of: path)
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw HelperError(.failure, "cannot open the log \(path): \(SystemIO.errorText())",
                              fix: errno == ELOOP ? "name the file itself, not a symbolic link" : "check the permissions of \(PrivateFiles.directory(of: path))")
        }
        var info = stat()
        if fstat(fd, &info) != 0 || PrivateFiles.whyNotPrivate(info) != nil {
            Glibc.close(fd)
            throw HelperError(.failure, "the log \(path) is not a private file of yours (another user's, not a regular file, or readable by others)",
                              fix: "name a file of your own (chmod 600), or a new one")
        }
        return ForwardLog(fd: fd)
    }

    /// `2026-11-27T06:40:00Z build get https://github.com/ user "alice": answered`.
    /// `what`: the action, or "connection" for one that asked nothing.
    func write(_ name: String, _ what: String, _ request: Credential?, _ outcome: String, refusal: Bool = false) {
        // The kind of line: what was asked, where and for whom (not the path, which a
        // flood varies) and whether it was refused.
        let kind = memory?.digest([Value(what), request?.protocol, request?.host, request?.username, refusal ? "refused" : nil])
        let admitted = kind.flatMap { memory?.admit(refusal: refusal, kind: $0, perMinute: refusal ? Self.refusalsPerMinute : Self.othersPerMinute) }
        guard admitted?.write ?? true else { return }
        sayUntold(name, admitted?.untold ?? (0, 0))
        line(name, what, request, outcome)
    }

    /// The counts of lines not written, if any (serve's loop says them once a minute, and
    /// as it stops: a flood's count is not left for a later request to tell).
    func sayUntold(_ name: String, _ untold: (refused: Int64, other: Int64)) {
        if untold.refused > 0 {
            line(name, "log", nil, "\(untold.refused) more refused request\(untold.refused == 1 ? "" : "s") not written (over \(Self.refusalsPerMinute) a minute of kinds said already)")
        }
        if untold.other > 0 {
            line(name, "log", nil, "\(untold.other) more request\(untold.other == 1 ? "" : "s") not written (over \(Self.othersPerMinute) answered a minute of kinds said already)")
        }
    }

    private func line(_ name: String, _ what: String, _ request: Credential?, _ outcome: String) {
        var now = time(nil), parts = tm()
        gmtime_r(&now, &parts)
        var stamp = [CChar](repeating: 0, count: 32)
        strftime(&stamp, stamp.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        let asked = request.map { " " + Self.place($0) } ?? ""
        let line = String(decoding: stamp.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + " \(name) \(what)\(asked): \(outcome)\n"
        // One write of a whole line (O_APPEND): the children's lines never interleave.
        SystemIO.writeAll(fd, Trace.printable(String(line.dropLast())) + "\n")
    }

    /// `https://github.com/PATH user "alice"`, the remote's values quoted.
    /// Each value at most `shown` bytes: a remote could send 64 KiB values, each line of
    /// the log would then be a megabyte.
    static func place(_ request: Credential) -> String {
        let place = (request.protocol.map { quoted($0) + "://" } ?? "") + (request.host.map(quoted) ?? "(no host)")
            + (request.path.map { "/" + quoted($0) } ?? "")
        return place + (request.username.map { " user " + quoted($0) } ?? "")
    }

    static let shown = 100

    static func quoted(_ value: Value) -> String {
        value.bytes.count <= shown ? Trace.quoted(value.bytes) : Trace.quoted(Array(value.bytes.prefix(shown))) + "...(\(value.bytes.count) bytes)"
    }
}
