import Foundation
import FramelabCore
import FramelabDatasets

/// One file of a WIDER submission folder (`--predictions wider:FOLDER`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "submission/0--Parade/0_Parade_marchingband_1_20.txt")
    let folder = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
    FuzzInput.check(naming: path) { _ = try WiderPredictions.read(folder: folder) }
    return 0
}
