import CZlibSystem
import FramelabCore

/// zlib's inflate over one compressed element of a MATLAB 5 file (`miCOMPRESSED`): the one
/// place Framelab calls zlib. The output is bounded: a file cannot make Framelab allocate
/// more than `limit` bytes for one element, however it was compressed.
enum MAT5Inflate {
    /// Why inflating failed, in words (the caller names the file and the element).
    struct Failure: Error {
        let reason: String
    }

    /// The inflated bytes of `input` (a zlib stream), at most `limit` of them.
    static func inflate(_ input: ArraySlice<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
        guard input.count <= Int(UInt32.max) else { throw Failure(reason: "compressed element larger than 4 GiB") }
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(reason: "zlib could not start (\(message(stream)))")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        let chunk = 64 << 10
        var buffer = [UInt8](repeating: 0, count: chunk)
        let status: Int32 = input.withUnsafeBufferPointer { source in
            // zlib never writes through next_in; its header just lacks the const.
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            var status = Z_OK
            while status == Z_OK {
                status = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return CZlibSystem.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk - Int(stream.avail_out)
                if output.count + produced > limit { return Z_MEM_ERROR }
                output.append(contentsOf: buffer[0..<produced])
                // No input left and no progress: the stream was cut short.
                if status == Z_OK && stream.avail_in == 0 && produced == 0 { return Z_BUF_ERROR }
            }
            return status
        }
        switch status {
        case Z_STREAM_END: return output
        case Z_MEM_ERROR: throw Failure(reason: "inflates to more than \(limit) bytes")
        case Z_BUF_ERROR: throw Failure(reason: "compressed data ends early (truncated file?)")
        default: throw Failure(reason: "compressed data is corrupt (zlib: \(message(stream)))")
        }
    }

    private static func message(_ stream: z_stream) -> String {
        stream.msg.map { String(cString: $0) } ?? "no message"
    }
}
