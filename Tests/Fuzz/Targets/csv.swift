import FramelabCore
@testable import FramelabDatasets

/// Framelab's CSV annotations (`csv:FILE`), from the file a user hands in.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "faces.csv")
    FuzzInput.check(naming: path) { _ = try CSVAnnotationLoader.load(path) }
    return 0
}
