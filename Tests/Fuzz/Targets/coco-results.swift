import FramelabCore
import FramelabDatasets

/// COCO detection results JSON (`--predictions coco:FILE`), with and without a face category.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "results.json")
    FuzzInput.check(naming: path) { _ = try COCOResults.read(path, category: 1) }
    FuzzInput.check(naming: path) { _ = try COCOResults.read(path, category: nil) }
    return 0
}
