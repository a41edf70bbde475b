import CredentialCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// curl run with the header on a pipe: `curl -q --globoff --config /dev/fd/3 OPTIONS -- URL`.
/// -q must be curl's first argument (no ~/.curlrc); the config on fd 3 is read to its end
/// before any caller's option (so no `-d @/dev/fd/3` can read it); --globoff keeps the one
/// URL one URL. stdin and stdout are the caller's (-d @-, -T -, the body); curl's stderr
/// passes through a filter that takes out our marked line, the answer's status and URL,
/// and hands the rest to the caller's stderr as it comes. No file: a temporary directory
/// could be replaced by whoever owns TMPDIR, and a file planted there would decide
/// between approve and reject.
struct CurlProcess {
    /// The last response's HTTP code and effective URL, as curl's --write-out gave them.
    var code = "", effective: [UInt8] = []
    var status: Int32 = 0

    /// Our write-out line starts and ends with a random marker, so that nothing else on
    /// curl's stderr (a body written there with -o /dev/stderr, from whatever server) can
    /// pass for it. It is in the config on the pipe, never in curl's arguments, where ps
    /// shows it.
    static func marker() throws(HelperError) -> [UInt8] {
        var random = [UInt8](repeating: 0, count: 16)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        let count = fd < 0 ? -1 : read(fd, &random, 16)
        if fd >= 0 { close(fd) }
        guard count == 16 else {
            throw HelperError(.failure, "cannot read /dev/urandom for a marker", fix: "check that /dev/urandom is readable")
        }
        return Array(("credential-curl-" + Hex.encode(random)).utf8)
    }

    static func run(_ curl: String, request: CurlRequest, header: String) throws(HelperError) -> CurlProcess {
        let marker = try marker()
        // The caller's format first; ours after %{stderr}, on a line of its own.
        let config = CurlConfig.line("header", Array(header.utf8))
            + CurlConfig.line("write-out", request.writeOut + Array("%{stderr}".utf8) + marker
                + Array(" response %{http_code} %{url_effective} ".utf8) + marker + [0x0A])
        var configPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard pipe(&configPipe) == 0 else { throw cannotStart(curl) }
        guard pipe(&errorPipe) == 0 else { throw cannotStart(curl) }
        // Above the standard descriptors and 3 (dup2 onto the same number would keep
        // close-on-exec), and inherited by no child as they are.
        func lifted(_ fd: Int32) -> Int32 {
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
            close(fd)
            return moved
        }
        configPipe = configPipe.map(lifted)
        errorPipe = errorPipe.map(lifted)
        let argv = [Array("curl".utf8)] + ["-q", "--globoff", "--config", "/dev/fd/3"].map { Array($0.utf8) }
            + request.options + [Array("--".utf8), request.url]
        // TLS key logs would let whoever reads the file decrypt the header.
        let pid = Subprocess.spawn(curl, argv, descriptors: [(errorPipe[1], 2), (configPipe[0], 3)],
                                   environment: ["SSLKEYLOGFILE": nil])
        close(configPipe[0])
        close(errorPipe[1])
        guard let pid else {
            close(configPipe[1])
            close(errorPipe[0])
            throw cannotStart(curl)
        }
        running = pid
        // curl reads the config first, before it writes anything (a refused value: after
        // it); a curl that ended early makes this EPIPE, which is no error here.
        _ = SystemIO.writeAll(configPipe[1], config)
        close(configPipe[1])
        var result = CurlProcess()
        result.filter(errorPipe[0], marker: marker)
        close(errorPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        running = 0
        result.status = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return result
    }

    /// The curl running now (0: none), for a signal that ends credential-curl to end it too.
    nonisolated(unsafe) static var running: pid_t = 0

    static func cannotStart(_ curl: String) -> HelperError {
        HelperError(.failure, "cannot start \(curl): \(SystemIO.errorText())", fix: "check that curl runs (curl --version)")
    }

    /// curl's stderr to ours as it comes, but for our marked line: it may follow what
    /// curl wrote without a line break (a body to stderr), and ends with the marker again
    /// (the effective URL of one curl refused may hold line breaks, which become ?). Only
    /// a tail that could be the start of our marker is held back (shorter than it): a long
    /// line and a progress meter's updates pass at once, and each byte is looked at a
    /// bounded number of times (a 40 MB body without a line break took 22 s when whole
    /// lines were held and scanned again).
    mutating func filter(_ fd: Int32, marker: [UInt8]) {
        let opening = marker + [0x20], closing = [0x20] + marker
        var held: [UInt8] = []
        var ours: [UInt8]?
        // Our line's own end goes with it, also when it comes in a read of its own (curl's
        // stderr is unbuffered: --write-out writes piece by piece).
        var endOfOurs = false
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = SystemIO.readSome(fd, into: &chunk)
            if count <= 0 { break }
            var input = chunk[0..<count]
            while !input.isEmpty {
                if endOfOurs {
                    endOfOurs = false
                    if input.first == 0x0A { input = input.dropFirst() }
                    continue
                }
                if var captured = ours {
                    let from = captured.count - min(captured.count, closing.count - 1)
                    captured += input
                    input = []
                    guard let end = CurlURL.find(closing, in: captured[from...]) else {
                        ours = captured
                        break
                    }
                    answered(captured[..<end])
                    ours = nil
                    endOfOurs = true
                    // What follows is curl's again.
                    input = ArraySlice(captured[(end + closing.count)...])
                } else {
                    let from = held.count - min(held.count, opening.count - 1)
                    held += input
                    input = []
                    if let start = CurlURL.find(opening, in: held[from...]) {
                        _ = SystemIO.writeAll(2, Array(held[..<start]))
                        input = ArraySlice(held[(start + opening.count)...])
                        held = []
                        ours = []
                    } else {
                        let kept = Self.overlap(held, opening)
                        _ = SystemIO.writeAll(2, Array(held.dropLast(kept)))
                        held = Array(held.suffix(kept))
                    }
                }
            }
        }
        if let ours { answered(ours[...]) } else { _ = SystemIO.writeAll(2, held) }
    }

    /// How many bytes at the end of `text` are the start of `marker` (fewer than all of it).
    static func overlap(_ text: [UInt8], _ marker: [UInt8]) -> Int {
        for length in stride(from: min(text.count, marker.count - 1), to: 0, by: -1)
        where text.suffix(length).elementsEqual(marker.prefix(length)) {
            return length
        }
        return 0
    }

    /// `response CODE EFFECTIVE_URL`: the last one is the answer (curl writes it after
    /// every body).
    mutating func answered(_ captured: ArraySlice<UInt8>) {
        let line = captured.map { $0 == 0x0A ? UInt8(ascii: "?") : $0 }[...]
        let prefix = Array("response ".utf8)
        guard line.starts(with: prefix) else { return }
        let rest = line.dropFirst(prefix.count)
        let space = rest.firstIndex(of: 0x20) ?? rest.endIndex
        code = String(decoding: rest[..<space], as: UTF8.self)
        effective = Array(rest[space...].dropFirst())
    }
}
