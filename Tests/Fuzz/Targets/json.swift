import FramelabCore
@testable import FramelabDatasets

/// Framelab's JSON parser alone (no file): a syntax error must carry a line and column
/// inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    do {
        _ = try JSONText.parse(bytes)
    } catch {
        let lines = bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
        guard error.line >= 1, error.line <= lines, error.column >= 1 else {
            fatalError("syntax error at line \(error.line) column \(error.column) of a \(lines)-line input: \(error.why)")
        }
    }
    return 0
}
