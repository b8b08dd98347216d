import FramelabCore
@testable import FramelabDatasets

/// dlib's imglab XML annotations (`dlib:FILE`), through XMLTree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.file(data, size, name: "faces.xml")
    FuzzInput.check(naming: path) { _ = try DlibXMLLoader.load(path) }
    return 0
}
