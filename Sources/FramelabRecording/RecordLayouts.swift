/// A record type stored as the rows of one compound dataset, in the packed layout of
/// `fields` (documented in docs/hdf5-schema.md).
protocol StoredRecord: Sendable {
    static var table: Schema.Dataset { get }
    /// Members in file order.
    static var fields: [H5Types.Field] { get }
    /// Writes the members in `fields` order.
    func encode(to encoder: inout RecordEncoder)
    /// Reads the members in `fields` order.
    init(from decoder: inout RecordDecoder)
}

extension StoredRecord {
    static var recordSize: Int { H5Types.recordSize(fields) }

    static func fileType() throws(HDF5Error) -> H5Handle {
        try H5Types.packedCompound(fields)
    }

    /// Appends `records` to `dataset`.
    static func append(_ records: [Self], to dataset: AppendableDataset) throws(HDF5Error) {
        guard !records.isEmpty else { return }
        let type = try H5Types.packedCompound(fields)
        let size = recordSize
        var bytes = [UInt8](repeating: 0, count: size * records.count)
        bytes.withUnsafeMutableBytes { raw in
            for (i, record) in records.enumerated() {
                var encoder = RecordEncoder(raw.baseAddress! + i * size)
                record.encode(to: &encoder)
            }
        }
        let result = bytes.withUnsafeBytes { (raw) -> Result<Void, HDF5Error> in
            do throws(HDF5Error) {
                try dataset.append(raw.baseAddress!, records: records.count, memoryType: type.id)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Every record in `dataset`.
    static func readAll(from dataset: AppendableDataset) throws(HDF5Error) -> [Self] {
        guard dataset.count > 0 else { return [] }
        let type = try H5Types.packedCompound(fields)
        let size = recordSize
        var bytes = [UInt8](repeating: 0, count: size * dataset.count)
        let result = bytes.withUnsafeMutableBytes { (raw) -> Result<[Self], HDF5Error> in
            do throws(HDF5Error) {
                try dataset.readAll(into: raw.baseAddress!, memoryType: type.id)
            } catch {
                return .failure(error)
            }
            return .success((0..<dataset.count).map { i in
                var decoder = RecordDecoder(UnsafeRawPointer(raw.baseAddress!) + i * size)
                return Self(from: &decoder)
            })
        }
        return try result.get()
    }
}

/// Writes one packed little-endian record, member after member.
struct RecordEncoder {
    private let base: UnsafeMutableRawPointer
    private var offset = 0

    init(_ base: UnsafeMutableRawPointer) { self.base = base }

    mutating func int64(_ v: Int64) { put(v.littleEndian) }
    mutating func int32(_ v: Int32) { put(v.littleEndian) }
    mutating func bool(_ v: Bool) { put(UInt8(v ? 1 : 0)) }

    /// `text` as UTF-8 in `bytes` bytes, NUL-padded; cut at a character boundary with a
    /// trailing "…" when too long. A NUL in the text ends it (as it would in C).
    mutating func string(_ text: String, bytes: Int) {
        let encoded = RecordText.fit(text, into: bytes)
        (base + offset).copyMemory(from: encoded, byteCount: encoded.count)
        offset += bytes  // the rest is already zero
    }

    private mutating func put<T>(_ v: T) {
        base.storeBytes(of: v, toByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
    }
}

/// Reads one packed little-endian record, member after member.
struct RecordDecoder {
    private let base: UnsafeRawPointer
    private var offset = 0

    init(_ base: UnsafeRawPointer) { self.base = base }

    mutating func int64() -> Int64 { Int64(littleEndian: take()) }
    mutating func int32() -> Int32 { Int32(littleEndian: take()) }
    mutating func bool() -> Bool { (take() as UInt8) != 0 }

    mutating func string(bytes: Int) -> String {
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

extension FrameRecord: StoredRecord {
    static var table: Schema.Dataset { .frames }
    static var fields: [H5Types.Field] {
        [.init(name: "index", kind: .int64), .init(name: "pts_ns", kind: .int64),
         .init(name: "arrival_ns", kind: .int64), .init(name: "dropped", kind: .uint8),
         .init(name: "failed", kind: .uint8)]
    }

    func encode(to e: inout RecordEncoder) {
        e.int64(index)
        e.int64(ptsNs)
        e.int64(arrivalNs)
        e.bool(dropped)
        e.bool(failed)
    }

    init(from d: inout RecordDecoder) {
        self.init(index: d.int64(), ptsNs: d.int64(), arrivalNs: d.int64(), dropped: d.bool(), failed: d.bool())
    }
}

extension StageTimingRecord: StoredRecord {
    static var table: Schema.Dataset { .timings }
    static var fields: [H5Types.Field] {
        [.init(name: "frame", kind: .int64), .init(name: "stage", kind: .int32),
         .init(name: "start_ns", kind: .int64), .init(name: "duration_ns", kind: .int64)]
    }

    func encode(to e: inout RecordEncoder) {
        e.int64(frame)
        e.int32(stage)
        e.int64(startNs)
        e.int64(durationNs)
    }

    init(from d: inout RecordDecoder) {
        self.init(frame: d.int64(), stage: d.int32(), startNs: d.int64(), durationNs: d.int64())
    }
}

extension FailureRecord: StoredRecord {
    static var table: Schema.Dataset { .failures }
    static var fields: [H5Types.Field] {
        [.init(name: "frame", kind: .int64), .init(name: "stage", kind: .int32),
         .init(name: "reason", kind: .string(Schema.reasonBytes))]
    }

    func encode(to e: inout RecordEncoder) {
        e.int64(frame)
        e.int32(stage)
        e.string(reason, bytes: Schema.reasonBytes)
    }

    init(from d: inout RecordDecoder) {
        self.init(frame: d.int64(), stage: d.int32(), reason: d.string(bytes: Schema.reasonBytes))
    }
}

extension EventRecord: StoredRecord {
    static var table: Schema.Dataset { .events }
    static var fields: [H5Types.Field] {
        [.init(name: "frame", kind: .int64), .init(name: "time_ns", kind: .int64),
         .init(name: "kind", kind: .string(Schema.kindBytes)),
         .init(name: "detail", kind: .string(Schema.detailBytes))]
    }

    func encode(to e: inout RecordEncoder) {
        e.int64(frame)
        e.int64(timeNs)
        e.string(kind, bytes: Schema.kindBytes)
        e.string(detail, bytes: Schema.detailBytes)
    }

    init(from d: inout RecordDecoder) {
        self.init(frame: d.int64(), timeNs: d.int64(), kind: d.string(bytes: Schema.kindBytes),
                  detail: d.string(bytes: Schema.detailBytes))
    }
}
