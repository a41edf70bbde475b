import Foundation
import Testing
@testable import CredentialCore

/// The fuzzer's seed corpus (fuzz/corpus) through the fuzzer's own invariant checks, so
/// that `make test` holds the codec to them without building the fuzzer; and the hostile
/// sizes of issue 6 that are too large for a fuzzer's inputs.
@Suite("Codec invariants")
struct CodecInvariantTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus")

    static var seeds: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
    }

    @Test func theSeedCorpusIsThere() {
        #expect(Self.seeds.count >= 30, "fuzz/corpus holds \(Self.seeds.count) files")
    }

    @Test(arguments: seeds)
    func seedKeepsEveryInvariant(name: String) throws {
        let input = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent(name)))
        #expect(CodecInvariants.violations(input) == [])
    }

    @Test func aOneMebibyteLineIsRejectedNamingItsLine() {
        expectRejected(bytes("protocol=https\nwwwauth[]=" + filler(1 << 20) + "\nhost=x\n\n"), line: 2)
    }

    @Test func tenThousandAttributesAreRead() throws {
        let headers = (0..<10_000).map { "wwwauth[]=Basic realm=\"\($0)\", host=evil\nx-\($0)=host=evil\n" }.joined()
        let request = try parse("protocol=https\n" + headers + "host=good\n\n")
        #expect(request.wwwauth.count == 10_000)
        #expect(request.host == "good")
        #expect(CodecInvariants.violations(bytes("protocol=https\n" + headers + "host=good\n\n")) == [])
    }
}
