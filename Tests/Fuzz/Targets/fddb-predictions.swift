import FramelabCore
import FramelabDatasets

/// An FDDB detection list (`--predictions fddb:FILE`): rectangles and ellipses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "fold-01-out.txt")
    FuzzInput.check(naming: path) { _ = try FDDBPredictions.read(path) }
    return 0
}
