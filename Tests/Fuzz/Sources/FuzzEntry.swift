import Foundation

/// libFuzzer's entry points (Tests/Fuzz/README.md). `make fuzz` builds this executable with
/// `--sanitize=fuzzer --sanitize=address`; libFuzzer supplies `main` and calls
/// `LLVMFuzzerTestOneInput` once per input. The target comes from `PUSHNODE_FUZZ_TARGET`.
///
/// A target must only *return* for any input: a refusal (a thrown error) is the expected answer to
/// garbage. A crash, a trap (bounds, overflow, `!`), a leak or an ASan report is a finding, and so
/// is a broken round-trip invariant, which the targets check with `FuzzCheck.expect`.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let environment = ProcessInfo.processInfo.environment
    if let directory = environment["PUSHNODE_FUZZ_WRITE_SEEDS"] {
        do {
            try SeedCorpus.write(to: directory, vectors: environment["PUSHNODE_FUZZ_VECTORS"] ?? "Spec/vectors")
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("writing seeds failed: \(error)\n".utf8))
            exit(1)
        }
    }
    let name = environment["PUSHNODE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.all[name] else {
        let known = FuzzTargets.all.keys.sorted().joined(separator: " ")
        FileHandle.standardError.write(Data("PUSHNODE_FUZZ_TARGET=\(name) is not a target; one of: \(known)\n".utf8))
        exit(2)
    }
    FuzzTargets.selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    FuzzTargets.selected?(bytes)
    return 0
}
