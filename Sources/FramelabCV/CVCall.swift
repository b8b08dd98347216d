import CFramelabCV
import FramelabCore

/// Runs one bridge call with an error buffer, turning its status into a `FramelabError`
/// whose message starts with `context` (which names the input).
@discardableResult
func cvCall(_ context: @autoclosure () -> String, kind: FramelabError.Kind = .processing,
            _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws -> Int32 {
    let capacity = 512
    return try withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
        buffer.initialize(repeating: 0)
        let status = body(buffer.baseAddress!, capacity)
        switch status {
        case Int32(FL_CV_OK), Int32(FL_CV_END):
            return status
        case Int32(FL_CV_UNSUPPORTED):
            throw FramelabError(.unsupported, "\(context()): \(String(cString: buffer.baseAddress!))")
        default:
            throw FramelabError(kind, "\(context()): \(String(cString: buffer.baseAddress!))")
        }
    }
}

/// The message an `fl_*_open` call left in its error buffer, when it returned nil.
func cvOpen<T>(_ context: @autoclosure () -> String,
               _ body: (UnsafeMutablePointer<CChar>, Int) -> T?) throws -> T {
    let capacity = 512
    return try withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
        buffer.initialize(repeating: 0)
        guard let value = body(buffer.baseAddress!, capacity) else {
            throw FramelabError(.io, "\(context()): \(String(cString: buffer.baseAddress!))")
        }
        return value
    }
}
