import CProcess
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// One connection between the two ends, non-blocking, every read and write bounded by a
/// deadline (monotonic seconds): neither end waits on the other past it, whatever the other
/// sends or fails to send.
struct ForwardConnection {
    let fd: Int32
    private var buffer: [UInt8] = []
    /// The other end closed its side.
    private(set) var ended = false
    /// How many bytes came.
    private(set) var received = 0

    init(fd: Int32) { self.fd = fd }

    static var now: Double { Subprocess.monotonicSeconds() }

    /// Whether the other end has closed (or shut down its writing half): a request it no
    /// longer waits for is worth no question on the person's desktop.
    var closedByPeer: Bool {
        let readHangUp: Int16 = 0x2000  // POLLRDHUP (Linux; glibc names it only with _GNU_SOURCE)
        var descriptor = pollfd(fd: fd, events: readHangUp, revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & (readHangUp | Int16(POLLHUP | POLLERR)) != 0
    }

    /// Waits for `events` on the socket until `deadline`; false when it passed.
    private func wait(for events: Int32, until deadline: Double) -> Bool {
        while true {
            let left = deadline - Self.now
            if left <= 0 { return false }
            var descriptor = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left * 1000, 60_000)) + 1)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    /// Reads what has come; false at the deadline, at the end, or on an error.
    private mutating func fill(until deadline: Double) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while !ended {
            let count = read(fd, &chunk, chunk.count)
            if count > 0 {
                buffer += chunk[0..<count]
                received += count
                return true
            }
            // A reset is the other end gone too (closed with our bytes unread: sshd, when
            // ssh on the person's side found no one to pass the connection to).
            if count == 0 || (count < 0 && errno == ECONNRESET) { ended = true; break }
            if errno == EINTR { continue }
            guard errno == EAGAIN, wait(for: Int32(POLLIN), until: deadline) else { return false }
        }
        return false
    }

    /// The next line, its LF removed; nil when none came whole by the deadline or it is
    /// longer than `limit`.
    mutating func line(until deadline: Double, limit: Int) -> [UInt8]? {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                return line.count <= limit ? line : nil
            }
            guard buffer.count <= limit, fill(until: deadline) else { return nil }
        }
    }

    /// git's key=value lines up to the empty line that ends them, that line included; nil
    /// when they did not come whole by the deadline (an answer cut short is no answer), or
    /// are longer than `limit`.
    mutating func block(until deadline: Double, limit: Int) -> [UInt8]? {
        var searched = 0
        while true {
            if buffer.first == 0x0A {
                buffer.removeFirst()
                return [0x0A]
            }
            while searched + 1 < buffer.count {
                if buffer[searched] == 0x0A && buffer[searched + 1] == 0x0A {
                    let block = Array(buffer[...(searched + 1)])
                    buffer.removeFirst(searched + 2)
                    return block
                }
                searched += 1
            }
            if buffer.count > limit { return nil }
            if !fill(until: deadline) { return nil }
        }
    }

    /// Writes all of `bytes`; false when the other end is gone or the deadline passed.
    @discardableResult
    func write(_ bytes: [UInt8], until deadline: Double) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 { offset += sent; continue }
            if sent < 0 && errno == EINTR { continue }
            guard sent < 0, errno == EAGAIN, wait(for: Int32(POLLOUT), until: deadline) else { return false }
        }
        return true
    }

    func close() { _ = Glibc.close(fd) }
}
