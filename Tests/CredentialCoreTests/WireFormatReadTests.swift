import Dispatch
import Testing
@testable import CredentialCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// WireFormat.read(from:) on a real pipe. git keeps the helper's stdin open until it has
/// the answer, so the reader must stop at the blank line, not at EOF.
@Suite("WireFormat.read(from:) on a pipe")
struct WireFormatReadTests {
    /// What a thread hands back; the semaphores order the accesses.
    final class Box<Value>: @unchecked Sendable {
        var value: Value?
    }

    /// Runs `body` on a thread of its own. Not on Dispatch's or Swift concurrency's pool:
    /// with two cores, blocked test threads could starve it, and the timeout would never fire.
    static func runOnNewThread(_ body: @escaping @Sendable () -> Void) throws {
        let box = Box<@Sendable () -> Void>()
        box.value = body
        let context = Unmanaged.passRetained(box).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box<@Sendable () -> Void>>.fromOpaque(raw!).takeRetainedValue()
            box.value?()
            return nil
        }, context)
        try #require(status == 0)
        pthread_detach(thread)
    }

    /// Writes `input` to a fresh pipe and reads it with `WireFormat.read(from:)`, the write
    /// end left open unless `closeAfterWriting`. Writer and reader have threads of their
    /// own; if the read has not returned after `timeout` seconds, the test fails and the
    /// write end is closed so that the reader sees EOF: the test never hangs.
    static func readFromPipe(
        _ input: [UInt8], closeAfterWriting: Bool = false, timeout: Int = 10,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Result<Credential, ProtocolError> {
        // A reader that stops early must not kill the test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0, sourceLocation: sourceLocation)
        let (readEnd, writeEnd) = (fds[0], fds[1])

        let written = DispatchSemaphore(value: 0)
        try runOnNewThread {
            SystemIO.writeAll(writeEnd, input)
            if closeAfterWriting { close(writeEnd) }
            written.signal()
        }
        let done = DispatchSemaphore(value: 0)
        let result = Box<Result<Credential, ProtocolError>>()
        try runOnNewThread {
            result.value = Result { () throws(ProtocolError) in try WireFormat.read(from: readEnd) }
            done.signal()
        }

        func seconds(_ count: Int) -> DispatchTime { .now() + .seconds(count) }
        var writeEndOpen = !closeAfterWriting
        if done.wait(timeout: seconds(timeout)) == .timedOut {
            Issue.record("read(from:) did not return within \(timeout) s", sourceLocation: sourceLocation)
            if written.wait(timeout: seconds(5)) == .success, writeEndOpen {
                close(writeEnd)  // EOF for the reader
                writeEndOpen = false
            }
            // Still stuck: leave the threads and their descriptors, fail, and go on.
            try #require(done.wait(timeout: seconds(5)) == .success, "the reader ignores EOF", sourceLocation: sourceLocation)
        }
        close(readEnd)  // a writer still blocked gets EPIPE and returns
        _ = written.wait(timeout: seconds(5))
        if writeEndOpen { close(writeEnd) }
        return try #require(result.value, sourceLocation: sourceLocation)
    }

    @Test func returnsAtTheBlankLineWithoutWaitingForEOF() throws {
        let result = try Self.readFromPipe(bytes("protocol=https\nhost=x\n\n"))
        #expect(try result.get() == Credential(protocol: "https", host: "x"))
    }

    @Test func ignoresWhatFollowsTheBlankLine() throws {
        let result = try Self.readFromPipe(bytes("protocol=https\nhost=x\n\nhost=evil\nno equals\n"))
        #expect(try result.get() == Credential(protocol: "https", host: "x"))
    }

    @Test func readsToEOFWhenThereIsNoBlankLine() throws {
        let result = try Self.readFromPipe(bytes("protocol=https\nhost=x"), closeAfterWriting: true)
        #expect(try result.get() == Credential(protocol: "https", host: "x"))
    }

    @Test func emptyInputAtEOFIsAnEmptyRequest() throws {
        let result = try Self.readFromPipe([], closeAfterWriting: true)
        #expect(try result.get() == Credential())
    }

    @Test func rejectsAnOverlongLineWithoutWaitingForEOF() throws {
        // 65535 bytes and still no LF: that line is already too long, whatever follows.
        let result = try Self.readFromPipe(bytes("protocol=https\npassword=" + filler(65_600)))
        #expect(throws: ProtocolError.self) { try result.get() }
        if case .failure(let error) = result { expectNames(line: 2, in: error.message) }
    }

    @Test func acceptsLinesOfExactly65535BytesAcrossReadChunks() throws {
        let long = "password=" + filler(65535 - 10) + "\n"
        let result = try Self.readFromPipe(bytes("protocol=https\n" + long + "host=x\n\n"))
        let request = try result.get()
        #expect(request.password?.bytes.count == 65525)
        #expect(request.host == "x")
    }

    @Test func rejectsA65536ByteLineWithItsLF() throws {
        let long = "password=" + filler(65536 - 10) + "\n"
        let result = try Self.readFromPipe(bytes("protocol=https\n" + long + "\n"))
        #expect(throws: ProtocolError.self) { try result.get() }
    }

    @Test func readsManyLinesSpanningSeveralChunks() throws {
        let headers = (0..<200).map { "wwwauth[]=Basic realm=\"\($0)\(filler(300))\"\n" }.joined()
        let result = try Self.readFromPipe(bytes("protocol=https\n" + headers + "host=x\n\n"))
        let request = try result.get()
        #expect(request.wwwauth.count == 200)
        #expect(request.host == "x")
    }

    @Test(arguments: [
        "protocol=https\nhost=x\r\n\n",
        "protocol=https\nno equals\n\n",
        "protocol=https\nurl=example.com\n\n",
    ])
    func rejectsWhatParseRejects(input: String) throws {
        let result = try Self.readFromPipe(bytes(input))
        #expect(throws: ProtocolError.self) { try result.get() }
        #expect(throws: ProtocolError.self) { try parse(input) }
    }

    @Test func rejectsANulByte() throws {
        let result = try Self.readFromPipe(bytes("protocol=https\nhost=x") + [0] + bytes("\n\n"))
        #expect(throws: ProtocolError.self) { try result.get() }
    }

    @Test func rejectsInputBeyondTheOverallBound() throws {
        // Valid lines without end must not exhaust memory.
        let line = "wwwauth[]=" + filler(1013) + "\n"
        let lines = WireFormat.maxInputLength / line.utf8.count + 1
        let result = try Self.readFromPipe(bytes(String(repeating: line, count: lines)))
        #expect(throws: ProtocolError.self) { try result.get() }
    }

    /// A file of one unterminated 65535-byte line is the same input whether git pipes it
    /// or a caller passes its bytes: both entry points must give the same answer.
    @Test func agreesWithParseOnAnUnterminated65535ByteLine() throws {
        let input = bytes("password=" + filler(65535 - 9))
        let fromPipe = try Self.readFromPipe(input, closeAfterWriting: true)
        let fromBytes = Result { () throws(ProtocolError) in try WireFormat.parse(input) }
        #expect((try? fromPipe.get()) == (try? fromBytes.get()))
    }

    @Test func unreadableDescriptorIsAProtocolError() {
        #expect(throws: ProtocolError.self) { try WireFormat.read(from: -1) }
    }
}
