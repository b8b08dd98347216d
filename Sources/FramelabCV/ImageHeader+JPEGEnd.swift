/// Whether a JPEG's data reaches its end-of-image marker.
///
/// libjpeg decodes a JPEG cut short (a copy interrupted, a download stopped) as a whole
/// image whose missing rows are grey, printing only a warning ("Premature end of JPEG
/// file") that OpenCV's `imread` does not report; the frame would pass for a normal one.
/// This follows the file's structure instead: segment lengths up to each scan, then the
/// entropy-coded data, where 0xFF is always followed by 0x00 (a stuffed byte) or a restart
/// marker, so the next other marker is found without decoding; the file is complete when
/// an end-of-image marker (0xFFD9) is reached. A thumbnail inside an APP segment is skipped
/// with its segment, so its own end marker does not count.
extension ImageHeader {
    enum JPEGEnd: Equatable {
        /// The end-of-image marker is there.
        case complete
        /// The data stops at byte `at` before the end-of-image marker.
        case truncated(at: Int)
        /// Not a JPEG, or a structure this walk does not follow (the decoder decides).
        case unknown
    }

    /// Bytes read at a time while scanning entropy-coded data.
    private static let scanChunk = 1 << 16

    static func jpegEnd(_ read: Reader) -> JPEGEnd {
        let head = read(0, 2)
        guard head == [0xFF, 0xD8] else { return .unknown }
        var offset = 2
        // Markers and segments, each step moves forward: bounded by the file's size.
        while true {
            var b = read(offset, 4)
            while b.count >= 2, b[0] == 0xFF, b[1] == 0xFF { offset += 1; b = read(offset, 4) }  // fill bytes
            guard b.count >= 2 else { return .truncated(at: dataLength(read)) }
            guard b[0] == 0xFF else { return .unknown }
            let marker = b[1]
            if marker == 0xD9 { return .complete }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            guard b.count >= 4 else { return .truncated(at: dataLength(read)) }
            let length = Int(b[2]) << 8 | Int(b[3])
            guard length >= 2 else { return .unknown }
            offset += 2 + length
            if marker == 0xDA {
                // A scan: skip its entropy-coded data up to the next real marker.
                switch skipEntropyCodedData(read, from: offset) {
                case .some(let next): offset = next
                case .none: return .truncated(at: dataLength(read))
                }
            }
        }
    }

    /// The offset of the first marker other than a stuffed byte or a restart marker at or
    /// after `start`, or nil when the data ends first.
    private static func skipEntropyCodedData(_ read: Reader, from start: Int) -> Int? {
        var offset = start
        while true {
            let chunk = read(offset, scanChunk + 1)  // one byte more: a 0xFF at the chunk's end
            guard chunk.count >= 2 else { return nil }
            var i = 0
            while i < chunk.count - 1 {
                if chunk[i] == 0xFF {
                    let next = chunk[i + 1]
                    if next != 0x00 && next != 0xFF && !(0xD0...0xD7).contains(next) { return offset + i }
                }
                i += 1
            }
            offset += chunk.count - 1
        }
    }

    /// The data's length (only for the message about a truncated file).
    private static func dataLength(_ read: Reader) -> Int {
        var offset = 0
        while true {
            let n = read(offset, scanChunk).count
            if n == 0 { return offset }
            offset += n
        }
    }
}
