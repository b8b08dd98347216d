import Foundation
import FramelabCore
@testable import FramelabDatasets

/// The WIDER kit's wider_face_val.mat as a `wider:KIT` folder: the MATLAB 5 reader and
/// the kit's cell-of-cells walk (events, files, boxes, labels) over a fuzzed file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "kit/" + WiderKitGroundTruth.mainFile)
    FuzzInput.check(naming: path) { _ = try WiderKitGroundTruth.load(folder: (path as NSString).deletingLastPathComponent) }
    return 0
}
