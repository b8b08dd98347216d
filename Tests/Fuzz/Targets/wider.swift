import FramelabCore
@testable import FramelabDatasets

/// A WIDER FACE ground-truth text file (`wider:FILE`, wider_face_*_bbx_gt.txt).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "wider_face_split/wider_face_val_bbx_gt.txt")
    FuzzInput.check(naming: path) { _ = try WiderFaceLoader.parse(path, images: "images") }
    return 0
}
