import FramelabCore

/// A cursor over the data elements of a MATLAB 5 file (or of one element's data): reads
/// tags, checks every count against the bytes left, and decodes `miMATRIX` elements into
/// `MAT5Value`s. Errors name the file and the element (`at`).
struct MAT5Reader {
    // Data types of element tags.
    static let miINT8: UInt32 = 1, miUINT8: UInt32 = 2, miINT16: UInt32 = 3, miUINT16: UInt32 = 4
    static let miINT32: UInt32 = 5, miUINT32: UInt32 = 6, miSINGLE: UInt32 = 7, miDOUBLE: UInt32 = 9
    static let miINT64: UInt32 = 12, miUINT64: UInt32 = 13, miMATRIX: UInt32 = 14, miCOMPRESSED: UInt32 = 15
    static let miUTF8: UInt32 = 16, miUTF16: UInt32 = 17, miUTF32: UInt32 = 18

    // Array classes (the low byte of the array flags).
    static let mxCELL: UInt32 = 1, mxCHAR: UInt32 = 4
    static let numericClasses: ClosedRange<UInt32> = 6...15  // double, single, int8 … uint64
    static let classNames: [UInt32: String] = [2: "struct", 3: "object", 5: "sparse", 16: "function handle", 17: "opaque"]

    private let bytes: ArraySlice<UInt8>
    private let start: Int
    private let end: Int
    private let bigEndian: Bool
    private let file: String
    private(set) var position: Int

    init(bytes: [UInt8], start: Int, end: Int, bigEndian: Bool, file: String) {
        self.init(slice: bytes[start..<end], bigEndian: bigEndian, file: file)
    }

    init(slice: ArraySlice<UInt8>, bigEndian: Bool, file: String) {
        bytes = slice
        start = slice.startIndex
        end = slice.endIndex
        position = start
        self.bigEndian = bigEndian
        self.file = file
    }

    var remaining: Int { end - position }

    func failure(_ at: String, _ why: String) -> FramelabError {
        FramelabError(.corrupt, "MAT file '\(file)': \(at): \(why)")
    }

    /// One data element: its type and its data bytes; the cursor moves past its padding.
    mutating func element(_ at: String) throws -> (type: UInt32, data: ArraySlice<UInt8>) {
        guard remaining >= 8 || (remaining >= 4 && isSmall(at: position)) else {
            throw failure(at, "the file ends inside an element tag (truncated?)")
        }
        let first = uint32(at: position)
        if first >> 16 != 0 {
            // Small element: count in the high half, type in the low half, data in the next 4 bytes.
            let size = Int(first >> 16)
            guard size <= 4 else { throw failure(at, "small element of \(size) bytes (at most 4)") }
            guard remaining >= 4 + size else { throw failure(at, "the file ends inside a small element") }
            let data = bytes[position + 4..<position + 4 + size]
            position = min(end, position + 8)
            return (first & 0xFFFF, data)
        }
        let size = Int(uint32(at: position + 4))
        guard size <= remaining - 8 else {
            throw failure(at, "element of \(size) bytes but only \(remaining - 8) left (truncated file?)")
        }
        let data = bytes[position + 8..<position + 8 + size]
        // Padding to 8 bytes, counted from the start of this run of elements (compressed
        // elements have none; the last element of a compressed stream may stop short of it).
        let next = position + 8 + size
        position = first == Self.miCOMPRESSED ? next : min(end, start + (next - start + 7) / 8 * 8)
        return (first, data)
    }

    private func isSmall(at i: Int) -> Bool { uint32(at: i) >> 16 != 0 }

    private func uint32(at i: Int) -> UInt32 {
        let b = (UInt32(bytes[i]), UInt32(bytes[i + 1]), UInt32(bytes[i + 2]), UInt32(bytes[i + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }

    /// Decodes an `miMATRIX` element's data: flags, dimensions, name, then by class.
    func matrix(_ data: ArraySlice<UInt8>, _ at: String, depth: Int) throws -> (name: String, value: MAT5Value) {
        guard depth <= MAT5File.maxDepth else { throw failure(at, "cells nested more than \(MAT5File.maxDepth) deep") }
        // MATLAB writes an empty cell entry as an miMATRIX of no bytes: an empty double array.
        if data.isEmpty { return ("", .numeric(dimensions: [0, 0], values: [])) }
        var r = MAT5Reader(slice: data, bigEndian: bigEndian, file: file)
        let flags = try r.element(at + " (array flags)")
        guard flags.type == Self.miUINT32, flags.data.count == 8 else {
            throw failure(at, "array flags are not 8 bytes of uint32 (type \(flags.type), \(flags.data.count) bytes)")
        }
        let word = MAT5Reader(slice: flags.data, bigEndian: bigEndian, file: file).uint32(at: flags.data.startIndex)
        let arrayClass = word & 0xFF
        let complex = (word >> 8) & 0x08 != 0

        let dimsElement = try r.element(at + " (dimensions)")
        guard dimsElement.type == Self.miINT32, dimsElement.data.count % 4 == 0, dimsElement.data.count >= 8 else {
            throw failure(at, "dimensions are not two or more int32 values")
        }
        let dimsReader = MAT5Reader(slice: dimsElement.data, bigEndian: bigEndian, file: file)
        let dims = stride(from: dimsElement.data.startIndex, to: dimsElement.data.endIndex, by: 4).map {
            Int(Int32(bitPattern: dimsReader.uint32(at: $0)))
        }
        var count = 1
        for d in dims {
            let (product, overflow) = count.multipliedReportingOverflow(by: d)
            // No array can have more elements than its data has bytes (cells: 8 bytes per element).
            guard d >= 0, !overflow, product <= data.count else {
                throw failure(at, "dimensions \(dims) do not fit the element's \(data.count) bytes")
            }
            count = product
        }
        let nameElement = try r.element(at + " (name)")
        guard nameElement.type == Self.miINT8 || nameElement.type == Self.miUINT8 else {
            throw failure(at, "array name is not int8 text (type \(nameElement.type))")
        }
        let name = String(decoding: nameElement.data, as: UTF8.self)
        // The name is the file's bytes: quoted (escaped, shortened) so a message stays one line.
        let named = name.isEmpty ? at : "\(at) \(quoted(name))"

        switch arrayClass {
        case Self.mxCELL:
            var elements: [MAT5Value] = []
            elements.reserveCapacity(count)
            for k in 0..<count {
                let cellAt = "\(named) cell \(k + 1) of \(count)"
                let e = try r.element(cellAt)
                guard e.type == Self.miMATRIX else { throw failure(cellAt, "a cell holds element type \(e.type), not an array") }
                elements.append(try r.matrix(e.data, cellAt, depth: depth + 1).value)
            }
            return (name, .cell(dimensions: dims, elements: elements))
        case Self.mxCHAR:
            let e = try r.element(named + " (characters)")
            let scalars = try characters(e, named)
            guard scalars.count == count else {
                throw failure(named, "char array \(dims) holds \(scalars.count) characters")
            }
            // Column-major: row i is elements i, i + rows, i + 2 rows, …
            let rows = dims[0], columns = rows == 0 ? 0 : count / rows
            let text = (0..<rows).map { i in String(String.UnicodeScalarView((0..<columns).map { scalars[$0 * rows + i] })) }
            return (name, .text(dimensions: dims, rows: text))
        case Self.numericClasses:
            guard !complex else { throw failure(named, "complex arrays are not supported") }
            let e = try r.element(named + " (real part)")
            let values = try numbers(e, named)
            guard values.count == count else {
                throw failure(named, "array \(dims) holds \(values.count) values")
            }
            return (name, .numeric(dimensions: dims, values: values))
        default:
            let kind = Self.classNames[arrayClass].map { "\($0) arrays" } ?? "array class \(arrayClass)"
            throw failure(named, "\(kind) are not supported (numeric, char and cell arrays are)")
        }
    }

    /// The values of a numeric data element, whatever type stores them (MATLAB stores a
    /// double array of small integers as uint8, for example).
    private func numbers(_ e: (type: UInt32, data: ArraySlice<UInt8>), _ at: String) throws -> [Double] {
        let d = e.data
        let width: Int
        switch e.type {
        case Self.miINT8, Self.miUINT8: width = 1
        case Self.miINT16, Self.miUINT16: width = 2
        case Self.miINT32, Self.miUINT32, Self.miSINGLE: width = 4
        case Self.miDOUBLE, Self.miINT64, Self.miUINT64: width = 8
        default: throw failure(at, "numeric data of element type \(e.type)")
        }
        guard d.count % width == 0 else { throw failure(at, "\(d.count) bytes of \(width)-byte values") }
        return stride(from: d.startIndex, to: d.endIndex, by: width).map { i -> Double in
            var bits: UInt64 = 0
            for b in 0..<width {
                bits |= UInt64(d[i + (bigEndian ? width - 1 - b : b)]) << (8 * b)
            }
            switch e.type {
            case Self.miINT8: return Double(Int8(truncatingIfNeeded: bits))
            case Self.miINT16: return Double(Int16(truncatingIfNeeded: bits))
            case Self.miINT32: return Double(Int32(truncatingIfNeeded: bits))
            case Self.miINT64: return Double(Int64(bitPattern: bits))
            case Self.miSINGLE: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
            case Self.miDOUBLE: return Double(bitPattern: bits)
            default: return Double(bits)  // the unsigned types
            }
        }
    }

    /// The characters of a char array's data element: UTF-8 (scipy), UTF-16 code units
    /// (MATLAB's uint16), UTF-32, or single bytes.
    private func characters(_ e: (type: UInt32, data: ArraySlice<UInt8>), _ at: String) throws -> [Unicode.Scalar] {
        let replacement = Unicode.Scalar(0xFFFD)!
        switch e.type {
        case Self.miUTF8:
            return Array(String(decoding: e.data, as: UTF8.self).unicodeScalars)
        case Self.miINT8, Self.miUINT8:
            return e.data.map { Unicode.Scalar($0) }
        case Self.miUINT16, Self.miUTF16:
            let units = try numbers((Self.miUINT16, e.data), at).map { UInt16($0) }
            // Decoded one unit per character when there are no surrogate pairs (MATLAB's char is one unit).
            return units.map { Unicode.Scalar($0) ?? replacement }
        case Self.miUINT32, Self.miUTF32:
            return try numbers((Self.miUINT32, e.data), at).map { Unicode.Scalar(UInt32($0)) ?? replacement }
        default:
            throw failure(at, "character data of element type \(e.type)")
        }
    }
}
