import Foundation
import Testing
@testable import CredentialCore

@Suite struct SubprocessTests {
    /// A child that closes its output before it reads its input (`exec >&-`, then reads
    /// more than a pipe holds): run writes all of the input, then returns. It used to poll
    /// no descriptor at all once the last input was written after the output had ended,
    /// and so wait for ever (credential-curl's `git credential approve`, 1 run in 8).
    @Test func aChildThatClosesItsOutputFirstGetsAllItsInputAndRunEnds() throws {
        let counted = NSTemporaryDirectory() + "/subprocess-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: counted) }
        let input = [UInt8](repeating: 0x61, count: 200_000)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Subprocess.Result?
        Thread.detachNewThread {
            result = Subprocess.run("/bin/sh", ["-c", "exec >&-; sleep 0.2; exec wc -c >\"$0\"", counted], input: input, collectErrors: false)
            done.signal()
        }
        // A bounded wait: a run that never returns fails here (its thread stays blocked).
        try #require(done.wait(timeout: .now() + 60) == .success, "Subprocess.run did not return after its child ended")
        #expect(result?.status == 0, "\(String(describing: result))")
        #expect(String(decoding: FileManager.default.contents(atPath: counted) ?? Data(), as: UTF8.self) == "200000\n")
    }
}
