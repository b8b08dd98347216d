import FramelabCore
@testable import FramelabDatasets

/// A NumPy .npy file (scikit-image's lfw_subset.npy).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "array.npy")
    FuzzInput.check(naming: path) { _ = try NumpyArray(contentsOf: path) }
    return 0
}
