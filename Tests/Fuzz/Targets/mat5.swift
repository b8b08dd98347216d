import FramelabCore
import FramelabDatasets

/// A MATLAB 5 file (the WIDER kit's ground truth), every variable read back. The inflate
/// limit is 1 MiB here so a zlib bomb costs the fuzzer little; the limit itself is covered.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let name = "input.mat"
    FuzzInput.check(naming: name) {
        let file = try MAT5File(bytes: FuzzInput.bytes(data, size), path: name, inflateLimit: 1 << 20)
        for v in file.variables { _ = try file.variable(v.name) }
    }
    return 0
}
