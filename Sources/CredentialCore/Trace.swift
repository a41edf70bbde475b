#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What each helper did, for people debugging their setup: `GIT_CREDENTIAL_TRACE` takes
/// git's `GIT_TRACE` values (1, 2 or true: stderr; 3-9: that descriptor; an absolute
/// path: appended to that file, created 0600, if it is a regular file of the user's).
/// Lines look like git's trace lines:
/// `HH:MM:SS.micros PROGRAM: ACTION: what happened`. Passwords, tokens and Basic or
/// Bearer blobs, and the passwords of URLs (`https://alice:PASSWORD@host`, say on a command
/// line), read `<redacted>` unless `GIT_CREDENTIAL_TRACE_REDACT=0`, and even then when the
/// trace is a file others could read. Every value is escaped, so no value can
/// forge a line. Off (the usual case), tracing costs one getenv: `note`'s message is
/// never built.
public enum Trace {
    public static let variable = "GIT_CREDENTIAL_TRACE"
    public static let redactVariable = "GIT_CREDENTIAL_TRACE_REDACT"
    public static let redacted = "<redacted>"

    /// Where the lines go, set once by `start`; `nil` means off.
    nonisolated(unsafe) static var sink: Sink?

    struct Sink {
        let fd: Int32
        let program: String
        let redacts: Bool
        /// The action or command the lines are about ("get", "list").
        var context: String?
    }

    /// Where a `GIT_CREDENTIAL_TRACE` value sends the trace.
    public enum Destination: Equatable, Sendable {
        case off
        case descriptor(Int32)
        case file(String)
        /// Not a value git's `GIT_TRACE` takes (a relative path, a word): warned about, off.
        case invalid(String)

        /// git's rules (trace.c): empty, 0 or false is off; 1 or true is stderr; a
        /// single digit is that descriptor; an absolute path is a file.
        public init(_ value: String?) {
            guard let value, !value.isEmpty, value != "0", value.lowercased() != "false" else { self = .off; return }
            if value == "1" || value.lowercased() == "true" {
                self = .descriptor(2)
            } else if value.utf8.count == 1, let digit = Int32(value), digit >= 2 {
                self = .descriptor(digit)
            } else if value.hasPrefix("/") {
                self = .file(value)
            } else {
                self = .invalid(value)
            }
        }
    }

    /// Reads the environment once; called first thing by every executable. The program
    /// name is asked for only when tracing: a helper's name comes from its command
    /// configuration, whose making costs 2.5% of a whole get (measured: 274K instructions).
    public static func start(program name: @autoclosure () -> String) {
        guard let value = getenv(variable) else { return }
        let destination = Destination(String(cString: value))
        if destination == .off { return }
        let program = name()
        let fd: Int32
        switch destination {
        case .off: return
        case .descriptor(let descriptor):
            // Checked now: a descriptor opened later (the database) must never get the trace.
            guard fcntl(descriptor, F_GETFD) >= 0 else {
                return warn(program, "cannot write the trace to descriptor \(descriptor), which is not open, so nothing is traced",
                            fix: "open that descriptor for writing (\(descriptor)>>FILE), or set \(variable) to 1 or a file")
            }
            fd = descriptor
        case .file(let path):
            guard let opened = openFile(path, program: program) else { return }
            fd = opened
        case .invalid(let text):
            return warn(program, "\(variable)=\(quoted(text)) is not an absolute path, so nothing is traced",
                        fix: "set it to an absolute path (starting with /), to 1 for stderr, or to a descriptor 3-9")
        }
        let wantsSecrets = SystemIO.environment(redactVariable).map(isFalse) ?? false
        let unsafeFile = isReadableByOthers(fd)
        sink = Sink(fd: fd, program: program, redacts: !wantsSecrets || unsafeFile != nil)
        if wantsSecrets, let unsafeFile {
            note("\(redactVariable)=0 ignored: secrets stay redacted because the trace goes to a file \(unsafeFile)")
        }
    }

    /// Later lines are about this action or command.
    public static func enter(_ context: String) {
        sink?.context = context
    }

    /// Writes one line; `message` is evaluated only when tracing is on. Values in it must
    /// come through `quoted`, `describe` or `secret`.
    public static func note(_ message: @autoclosure () -> String) {
        guard let current = sink else { return }
        let text = line(message(), program: current.program, context: current.context, redacting: current.redacts)
        if !SystemIO.writeAll(current.fd, Array(text.utf8)) {
            let error = SystemIO.errorText()
            sink = nil
            let target = current.fd == 2 ? "stderr" : "descriptor \(current.fd)"
            warn(current.program, "cannot write the trace to \(target): \(error), so tracing stops",
                 fix: "open that descriptor for writing, or set \(variable) to 1 or a file")
        }
    }

    /// One whole line, LF included: `HH:MM:SS.micros PROGRAM: CONTEXT: message`.
    static func line(_ message: String, program: String, context: String?, redacting: Bool) -> String {
        var line = printable(timestamp() + " " + program + ": " + (context.map { $0 + ": " } ?? "") + message)
        if redacting { line = redactingURLPasswords(redactingAuthorization(line)) }
        return line + "\n"
    }

    // MARK: Values

    /// Whether secrets are hidden: always, unless tracing to a safe place was asked to show them.
    public static var redacts: Bool { sink?.redacts != false }

    /// Whether lines are written (tracing asked for, and started without a warning).
    public static var isOn: Bool { sink != nil }

    /// A secret as the trace shows it: `<redacted>`, or escaped when secrets are wanted.
    public static func secret(_ value: Value, redacting: Bool = redacts) -> String {
        redacting ? redacted : quoted(value.bytes)
    }

    /// The attributes of a credential, in the order git writes them, secrets redacted.
    public static func describe(_ credential: Credential, redacting: Bool = redacts) -> String {
        var parts: [String] = []
        func add(_ key: String, _ value: Value?, secret isSecret: Bool = false) {
            guard let value else { return }
            parts.append(key + "=" + (isSecret ? secret(value, redacting: redacting) : quoted(value.bytes)))
        }
        for capability in credential.capabilities { add("capability[]", capability) }
        add("protocol", credential.protocol)
        add("host", credential.host)
        add("path", credential.path)
        add("username", credential.username)
        add("password", credential.password, secret: true)
        add("password_expiry_utc", credential.passwordExpiryUTC.map { Value(String($0)) })
        add("oauth_refresh_token", credential.oauthRefreshToken, secret: true)
        add("authtype", credential.authtype)
        add("credential", credential.credential, secret: true)
        if credential.ephemeral { parts.append("ephemeral=true") }
        for value in credential.wwwauth { add("wwwauth[]", value) }
        for value in credential.state { add("state[]", value, secret: true) }
        return parts.isEmpty ? "(nothing)" : parts.joined(separator: " ")
    }

    public static func quoted(_ text: String) -> String { quoted(Array(text.utf8)) }

    /// The bytes as one readable token, the way git's quote_c_style writes paths: as they
    /// are when that is unambiguous; else in double quotes, with `\"`, `\\`, `\n`, `\t`
    /// and octal escapes for control characters, Unicode line breaks and direction
    /// overrides (which could fake or reorder a line) and for invalid UTF-8.
    public static func quoted(_ bytes: [UInt8]) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return "\"" + bytes.map { $0 < 0x80 ? escape(Unicode.Scalar($0)) : octal($0) }.joined() + "\""
        }
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0 != " " && escape($0) == String($0) }
        return plain ? text : "\"" + text.unicodeScalars.map(escape).joined() + "\""
    }

    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default: return isHazard(scalar) ? String(scalar).utf8.map(octal).joined() : String(scalar)
        }
    }

    /// Control characters (C0, DEL, C1), line and paragraph separators, and format
    /// characters (Unicode category Cf: the bidirectional overrides and isolates, which
    /// reorder what follows; zero-width spaces and joiners, the soft hyphen, which hide in
    /// a name that looks like another); spaces other than ASCII's (a no-break space looks
    /// like one and keeps a value unquoted: `x.git user alice-work?` in a path read as the
    /// user of a confirmation), letters that show nothing (the Hangul fillers, the braille
    /// blank), and private-use and unassigned code points. Shared by the trace, `list`,
    /// completion, serve's log and its questions.
    public static func isHazard(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        if [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800].contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .unassigned, .surrogate: return true
        default: return false
        }
    }

    static func octal(_ byte: UInt8) -> String {
        "\\" + String(byte >> 6) + String((byte >> 3) & 7) + String(byte & 7)
    }

    /// Whatever escaped `quoted` (a message's own text), with the same escapes for hazards;
    /// the last guard that keeps a trace line one line.
    public static func printable(_ line: String) -> String {
        line.unicodeScalars.contains(where: isHazard)
            ? line.unicodeScalars.map { isHazard($0) ? escape($0) : String($0) }.joined() : line
    }

    /// `Basic`, `Bearer`, `Negotiate` or `NTLM` followed by a token68 blob (RFC 7235):
    /// the blob becomes `<redacted>`. Challenges (`Basic realm="x"`) are left alone.
    public static func redactingAuthorization(_ line: String) -> String {
        let schemes: Set<String> = ["basic", "bearer", "negotiate", "ntlm"]
        let isWordCharacter: (UInt8) -> Bool = { $0 >= 0x80 || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF) }
        var bytes = Array(line.utf8), index = 0
        while index < bytes.count {
            guard isWordCharacter(bytes[index]), index == 0 || !isWordCharacter(bytes[index - 1]) else { index += 1; continue }
            var end = index
            while end < bytes.count, isWordCharacter(bytes[end]) { end += 1 }
            guard schemes.contains(String(decoding: bytes[index..<end], as: UTF8.self).lowercased()),
                  end < bytes.count, bytes[end] == 0x20 else { index = end; continue }
            var start = end
            while start < bytes.count, bytes[start] == 0x20 { start += 1 }
            var stop = start
            while stop < bytes.count, isToken68(bytes[stop]) { stop += 1 }
            while stop < bytes.count, bytes[stop] == 0x3D { stop += 1 }  // '=' padding
            let endsToken = stop == bytes.count || [0x20, 0x2C, 0x22, 0x3B].contains(bytes[stop])  // space , " ;
            if stop > start, endsToken {
                bytes.replaceSubrange(start..<stop, with: Array(redacted.utf8))
                index = start + redacted.utf8.count
            } else {
                index = end
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `scheme://user:PASSWORD@host`: the password becomes `<redacted>`, wherever such a URL
    /// appears (an argument, a message, an error). The user part ends at the first `:`, as
    /// in git; the password at the last `@` before the authority ends: at a `/`, `?` or `#`
    /// (as git and curl read it), or at a space, whichever comes later, so a password
    /// holding `@`, `:`, spaces or a stray `/` is hidden whole. A port followed by some
    /// text with an `@` in it is hidden too, which costs a trace little. Linear in the
    /// line's length, however many `://` a hostile value holds.
    public static func redactingURLPasswords(_ line: String) -> String {
        let bytes = Array(line.utf8), count = bytes.count
        guard bytes.indices.dropLast(2).contains(where: { bytes[$0] == 0x3A && bytes[$0 + 1] == 0x2F && bytes[$0 + 2] == 0x2F })
        else { return line }
        // For each position: the next space, end of an authority (/ ? #) and colon at or
        // after it, and the last @ before it.
        var nextSpace = [Int](repeating: count, count: count + 1), nextEnd = nextSpace, nextColon = nextSpace
        for index in stride(from: count - 1, through: 0, by: -1) {
            let byte = bytes[index]
            nextSpace[index] = byte == 0x20 ? index : nextSpace[index + 1]
            nextEnd[index] = byte == 0x2F || byte == 0x3F || byte == 0x23 ? index : nextEnd[index + 1]
            nextColon[index] = byte == 0x3A ? index : nextColon[index + 1]
        }
        var lastAt = [Int](repeating: -1, count: count + 1)
        for index in 0..<count { lastAt[index + 1] = bytes[index] == 0x40 ? index : lastAt[index] }
        var result: [UInt8] = [], copied = 0, index = 0
        while index + 3 <= count {
            guard bytes[index] == 0x3A, bytes[index + 1] == 0x2F, bytes[index + 2] == 0x2F else { index += 1; continue }
            let start = index + 3
            let at = lastAt[max(nextEnd[start], nextSpace[start])], colon = nextColon[start]
            guard at > start, colon + 1 < at else { index = start; continue }
            result += bytes[copied...colon] + Array(redacted.utf8)
            copied = at
            index = at
        }
        return String(decoding: result + bytes[copied...], as: UTF8.self)
    }

    /// token68's characters, padding aside: A-Z a-z 0-9 - . _ ~ + /
    static func isToken68(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E, 0x2B, 0x2F: true
        default: false
        }
    }

    // MARK: Plumbing

    /// git's boolean false: 0, false, no, off.
    static func isFalse(_ value: String) -> Bool { ["0", "false", "no", "off"].contains(value.lowercased()) }

    /// "(mode 644)" or "(owned by another user)" when `fd` is a regular file that someone
    /// else could read; `nil` for a private file, a terminal or a pipe.
    static func isReadableByOthers(_ fd: Int32) -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return switch PrivateFiles.whyNotPrivate(info) {
        case .notRegular, nil: nil
        case .anotherUsers: "owned by another user"
        case .sharedMode(let mode): "readable by others (mode \(mode))"
        }
    }

    /// The trace file, opened to append, or `nil` after one warning. Opening never blocks
    /// (O_NONBLOCK: a FIFO without a reader fails at once, where git would hang in open)
    /// and never follows a link (O_NOFOLLOW: a link planted where the trace goes cannot
    /// make the trace append to a file of the user's). What was opened must then be a
    /// regular file, the user's own, with no other name: not a FIFO someone reads, not a
    /// device or a terminal, not another user's file (they could read it, or have made it
    /// a hard link to one of ours). O_NONBLOCK changes nothing for a regular file.
    static func openFile(_ path: String, program: String) -> Int32? {
        let fix = "give the path of a regular file of your own in a directory that exists (created 0600 if missing), or set \(variable) to 1 for stderr"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let error = errno
            var info = stat()
            let kind = lstat(path, &info) == 0 ? fileKind(info.st_mode) : nil
            let cause = kind.map { "it is \($0)" } ?? SystemIO.errorText(error)
            warn(program, "cannot open \(quoted(path)) for \(variable): \(cause), so nothing is traced", fix: fix)
            return nil
        }
        var info = stat()
        let problem: String
        if fstat(fd, &info) != 0 {
            problem = SystemIO.errorText()
        } else if case .notRegular(let kind) = PrivateFiles.whyNotPrivate(info) {
            problem = "it is \(kind)"
        } else if case .anotherUsers(let uid) = PrivateFiles.whyNotPrivate(info) {
            // Its mode may be any: a trace others can read gets every secret redacted (isReadableByOthers).
            problem = "it belongs to another user (uid \(uid))"
        } else if info.st_nlink != 1 {
            problem = "it has \(info.st_nlink) names (hard links)"
        } else {
            return fd
        }
        close(fd)
        warn(program, "will not write the trace to \(quoted(path)): \(problem), so nothing is traced", fix: fix)
        return nil
    }

    /// What a file that is not a regular file is, for messages; `nil` for a regular file.
    static func fileKind(_ mode: mode_t) -> String? {
        mode & S_IFMT == S_IFREG ? nil : PrivateFiles.kind(of: mode)
    }

    /// One line on stderr, in the helpers' `PROGRAM: cause. Fix: fix` form.
    static func warn(_ program: String, _ message: String, fix: String) {
        SystemIO.writeAll(2, printable(HelperError(.failure, "warning: " + message, fix: fix).line(program: program)) + "\n")
    }

    /// Local time as git's trace writes it: HH:MM:SS.micros.
    static func timestamp() -> String {
        var now = timeval()
        gettimeofday(&now, nil)
        var seconds = now.tv_sec, local = tm()
        localtime_r(&seconds, &local)
        func padded(_ number: Int, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(Int(local.tm_hour), 2) + ":" + padded(Int(local.tm_min), 2) + ":" + padded(Int(local.tm_sec), 2)
            + "." + padded(Int(now.tv_usec), 6)
    }
}
