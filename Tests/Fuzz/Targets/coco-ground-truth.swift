import FramelabCore
@testable import FramelabDatasets

/// COCO ground truth (`coco:FILE.json`): images, annotations, the face category.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "instances.json")
    FuzzInput.check(naming: path) { _ = try COCOLoader.load(path) }
    return 0
}
