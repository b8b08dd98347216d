/// Bytes just past a plugin filter's output image, filled with a known pattern before each
/// call and checked after it: a plugin that writes past the end of its output (a wrong
/// stride, an off-by-one row, a 4 KB overrun) fails the frame with a message naming the
/// element, instead of silently corrupting whatever memory follows.
///
/// It catches writes that start within `byteCount` bytes of the end — the common bug —
/// not a wild write far away, and not a write before the start.
struct OutputCanary {
    /// One page: an overrun of a row or of a whole page is seen.
    static let byteCount = 4096

    let start: UnsafeMutableRawPointer

    /// The canary of an image whose pixels start at `base`, `stride * height` bytes long,
    /// with at least `byteCount` writable bytes after them that nobody else uses.
    init(after base: UnsafeMutableRawPointer, stride: Int, height: Int) {
        start = base + stride * height
    }

    /// A pattern no plausible pixel writer reproduces: neither zeros, nor a repeated byte.
    private static func word(_ i: Int) -> UInt64 { 0x9E37_79B9_7F4A_7C15 &* UInt64(truncatingIfNeeded: i &+ 1) }

    func arm() {
        for i in 0..<Self.byteCount / 8 { start.storeBytes(of: Self.word(i), toByteOffset: i * 8, as: UInt64.self) }
    }

    var isIntact: Bool {
        for i in 0..<Self.byteCount / 8 where start.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) != Self.word(i) {
            return false
        }
        return true
    }
}
