// libFuzzer entry point for the credential codec (`make fuzz`): each input is checked
// against CodecInvariants (Tests/CredentialCoreTests/CodecInvariants.swift), and a broken
// invariant aborts, so that libFuzzer keeps the input as a crash. Built by the Makefile
// with CredentialCore's codec sources in one module, -sanitize=fuzzer,address.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCodec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let broken = CodecInvariants.violations(input)
    if !broken.isEmpty {
        for violation in broken { fputs("invariant broken: \(violation)\n", stderr) }
        abort()
    }
    return 0
}
