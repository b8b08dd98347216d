import FramelabCore
@testable import FramelabDatasets

/// An FDDB ellipse list (`fddb:FILE`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "FDDB-folds/FDDB-fold-01-ellipseList.txt")
    FuzzInput.check(naming: path) { _ = try FDDBLoader.ellipseList(path, pictures: "originalPics") }
    return 0
}
