extension Mat {
    /// Calls `body` with read-only access to the pixels: from pixel (0, 0) to the end of
    /// the last row, rows `stride` bytes apart. Do not let the pointer escape.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage.base + offset, count: spanBytes))
    }

    /// Calls `body` with writable access to the pixels. Writes are seen by every `Mat`
    /// that shares this memory. Do not let the pointer escape.
    public func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try body(UnsafeMutableRawBufferPointer(start: storage.base + offset, count: spanBytes))
    }

    /// Calls `body` with a typed pointer to the first sample of each row in turn.
    public func forEachRow<T>(as type: T.Type, _ body: (Int, UnsafeMutablePointer<T>) -> Void) {
        precondition(MemoryLayout<T>.size == format.bytesPerChannel, "sample type does not match \(format)")
        let base = storage.base + offset
        for y in 0..<height {
            body(y, (base + y * stride).assumingMemoryBound(to: T.self))
        }
    }

    /// One pixel's channel values as Doubles (slow; for tests and diagnostics).
    public func pixel(x: Int, y: Int) -> [Double] {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
        let p = storage.base + offset + y * stride + x * format.bytesPerPixel
        if format == .grayF32 { return [Double(p.load(as: Float.self))] }
        return (0..<format.channels).map { Double(p.load(fromByteOffset: $0, as: UInt8.self)) }
    }

    /// Sets one pixel's channel values (slow; for tests and diagnostics).
    public func setPixel(x: Int, y: Int, _ values: [Double]) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
        precondition(values.count == format.channels, "expected \(format.channels) channel values")
        let p = storage.base + offset + y * stride + x * format.bytesPerPixel
        if format == .grayF32 { p.storeBytes(of: Float(values[0]), as: Float.self); return }
        for (c, v) in values.enumerated() {
            p.storeBytes(of: UInt8(clamping: Int(v.rounded())), toByteOffset: c, as: UInt8.self)
        }
    }
}
