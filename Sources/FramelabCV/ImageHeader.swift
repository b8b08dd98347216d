#if canImport(Glibc)
import Glibc
#endif

/// An encoded image's width and height, read from its header without decoding it, so a
/// small file that declares a huge image (a 607 KB PNG of 25000×25000 decodes into 5 GB)
/// is refused before OpenCV allocates. Knows PNG, JPEG, BMP, WebP and PNM; for other
/// formats (TIFF, JPEG 2000, EXR, …) `size` is nil and OpenCV's own limit applies.
enum ImageHeader {
    /// Reads up to `count` bytes at `offset` (fewer at the end of the data).
    typealias Reader = (_ offset: Int, _ count: Int) -> [UInt8]

    static func size(_ read: Reader) -> (width: Int, height: Int)? {
        let head = read(0, 32)
        func be(_ b: [UInt8], _ at: Int, _ n: Int) -> Int { (at..<at + n).reduce(0) { $0 << 8 | Int(b[$1]) } }
        func le(_ b: [UInt8], _ at: Int, _ n: Int) -> Int { (at..<at + n).reversed().reduce(0) { $0 << 8 | Int(b[$1]) } }
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if head.count >= 24, head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), starts("IHDR", at: 12) {
            return (be(head, 16, 4), be(head, 20, 4))
        }
        if head.count >= 4, head[0] == 0xFF, head[1] == 0xD8 { return jpegSize(read) }
        if head.count >= 26, starts("BM") {
            let dibSize = le(head, 14, 4)
            if dibSize == 12 { return (le(head, 18, 2), le(head, 20, 2)) }
            let height = Int32(truncatingIfNeeded: le(head, 22, 4))
            return (le(head, 18, 4), Int(height.magnitude))
        }
        if head.count >= 30, starts("RIFF"), starts("WEBP", at: 8) {
            if starts("VP8X", at: 12) { return (le(head, 24, 3) + 1, le(head, 27, 3) + 1) }
            if starts("VP8L", at: 12) {
                let bits = le(head, 21, 4)
                return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
            }
            if starts("VP8 ", at: 12) { return (le(head, 26, 2) & 0x3FFF, le(head, 28, 2) & 0x3FFF) }
            return nil
        }
        if head.count >= 2, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(head[1]) {
            return pnmSize(read(0, 512))
        }
        return nil
    }

    /// The first start-of-frame segment's size, following segment lengths from the start.
    private static func jpegSize(_ read: Reader) -> (width: Int, height: Int)? {
        var offset = 2
        for _ in 0..<1000 {
            var b = read(offset, 9)
            // Markers may be preceded by any number of 0xFF fill bytes.
            while b.count >= 2, b[0] == 0xFF, b[1] == 0xFF { offset += 1; b = read(offset, 9) }
            guard b.count >= 4, b[0] == 0xFF else { return nil }
            let marker = b[1]
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard b.count >= 9 else { return nil }
                return (Int(b[7]) << 8 | Int(b[8]), Int(b[5]) << 8 | Int(b[6]))
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // scan or end before a frame header
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            offset += 2 + (Int(b[2]) << 8 | Int(b[3]))
        }
        return nil
    }

    /// "P6 <width> <height> …" with # comments between the tokens.
    private static func pnmSize(_ b: [UInt8]) -> (width: Int, height: Int)? {
        var numbers: [Int] = []
        var i = 2
        while numbers.count < 2, i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "#") {
                while i < b.count, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) {
                var n = 0
                while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) {
                    n = n.multipliedReportingOverflow(by: 10).partialValue &+ Int(b[i] - UInt8(ascii: "0"))
                    if n > 1 << 40 { return (Int.max >> 32, Int.max >> 32) }  // absurd: refuse as huge
                    i += 1
                }
                numbers.append(n)
                continue
            } else if ![0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(c) {
                return nil
            }
            i += 1
        }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// A reader over the file at `path` (nil when it cannot be opened: the decoder says why).
    static func withFileReader<T>(_ path: String, _ body: (Reader) -> T) -> T? {
        // Non-blocking: opening a FIFO for reading must not wait for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return body { offset, count in
            var bytes = [UInt8](repeating: 0, count: count)
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return n > 0 ? Array(bytes.prefix(n)) : []
        }
    }

    /// A reader over bytes in memory.
    static func reader(_ bytes: UnsafeRawBufferPointer) -> Reader {
        { offset, count in
            guard offset >= 0, offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
    }
}
