/// A value stored as one row of a table (`TableLayout`). `encode` writes the members in
/// `layout.columns` order; `init(from:)` reads them in the same order.
public protocol TableRow: Sendable {
    static var layout: TableLayout { get }
    func encode(to encoder: inout RowEncoder)
    init(from decoder: inout RowDecoder)
    /// The bytes of a row whose members a file lacks (an older schema): each such member
    /// keeps these bytes. Zeros unless the type says otherwise.
    static var absentRow: [UInt8] { get }
}

extension TableRow {
    public static var absentRow: [UInt8] { [UInt8](repeating: 0, count: layout.rowSize) }

    /// `rows` packed one after another, as `GrowableTable` stores them.
    static func pack(_ rows: [Self]) -> [UInt8] {
        let size = layout.rowSize
        var bytes = [UInt8](repeating: 0, count: size * rows.count)
        bytes.withUnsafeMutableBytes { raw in
            for (i, row) in rows.enumerated() {
                var encoder = RowEncoder(raw.baseAddress! + i * size)
                row.encode(to: &encoder)
            }
        }
        return bytes
    }

    /// The rows packed in `bytes`.
    static func unpack(_ bytes: [UInt8]) -> [Self] {
        let size = layout.rowSize
        guard size > 0 else { return [] }
        return bytes.withUnsafeBytes { raw in
            (0..<(bytes.count / size)).map { i in
                var decoder = RowDecoder(raw.baseAddress! + i * size)
                return Self(from: &decoder)
            }
        }
    }
}

/// Writes one packed little-endian row, member after member.
public struct RowEncoder {
    private let base: UnsafeMutableRawPointer
    private var offset = 0

    init(_ base: UnsafeMutableRawPointer) { self.base = base }

    public mutating func int64(_ v: Int64) { put(v.littleEndian) }
    public mutating func int32(_ v: Int32) { put(v.littleEndian) }
    public mutating func int8(_ v: Int8) { put(v) }
    public mutating func uint8(_ v: UInt8) { put(v) }
    public mutating func bool(_ v: Bool) { put(UInt8(v ? 1 : 0)) }
    public mutating func float64(_ v: Double) { put(v.bitPattern.littleEndian) }

    /// `text` as UTF-8 in `bytes` bytes, NUL-padded; cut at a character boundary with a
    /// trailing "…" when too long. A NUL in the text ends it (as it would in C).
    public mutating func text(_ text: String, bytes: Int) {
        let encoded = RecordText.fit(text, into: bytes)
        (base + offset).copyMemory(from: encoded, byteCount: encoded.count)
        offset += bytes  // the rest is already zero
    }

    private mutating func put<T>(_ v: T) {
        base.storeBytes(of: v, toByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
    }
}

/// Reads one packed little-endian row, member after member.
public struct RowDecoder {
    private let base: UnsafeRawPointer
    private var offset = 0

    init(_ base: UnsafeRawPointer) { self.base = base }

    public mutating func int64() -> Int64 { Int64(littleEndian: take()) }
    public mutating func int32() -> Int32 { Int32(littleEndian: take()) }
    public mutating func int8() -> Int8 { take() }
    public mutating func uint8() -> UInt8 { take() }
    public mutating func bool() -> Bool { (take() as UInt8) != 0 }
    public mutating func float64() -> Double { Double(bitPattern: UInt64(littleEndian: take())) }

    public mutating func text(bytes: Int) -> String {
        let field = UnsafeRawBufferPointer(start: base + offset, count: bytes)
        offset += bytes
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    private mutating func take<T>() -> T {
        defer { offset += MemoryLayout<T>.size }
        return base.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
}

/// Fitting text into a fixed-size string member.
enum RecordText {
    /// The UTF-8 bytes of `text` up to its first NUL, at most `capacity` bytes: longer
    /// text is cut at a character boundary and ends with "…".
    static func fit(_ text: String, into capacity: Int) -> [UInt8] {
        var bytes = Array(text.utf8.prefix { $0 != 0 })
        guard bytes.count > capacity else { return bytes }
        let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
        var end = capacity - ellipsis.count
        // Do not split a character: back up over continuation bytes (10xxxxxx).
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        bytes = Array(bytes[..<end]) + ellipsis
        return bytes
    }
}
