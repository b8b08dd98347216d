/// The layout of one table of a run: a one-dimensional dataset of packed, little-endian
/// compound rows (docs/hdf5-schema.md). Every table of a run — the record tables, the
/// detection tables, the bench results — is described by one of these and written by
/// `GrowableTable`.
public struct TableLayout: Sendable {
    public let name: String
    public let columns: [TableColumn]
    /// Rows per chunk: large enough that the chunk index stays small, small enough that a
    /// flush rewrites little (chunks are never compressed, so a partly filled chunk is
    /// rewritten in place, never moved).
    public let chunkRows: Int

    public init(name: String, columns: [TableColumn], chunkRows: Int = 256) {
        self.name = name
        self.columns = columns
        self.chunkRows = chunkRows
    }

    /// Bytes in one packed row.
    public var rowSize: Int { columns.reduce(0) { $0 + $1.type.size } }
}

/// One member of a table's rows.
public struct TableColumn: Sendable {
    public let name: String
    public let type: ColumnType

    public init(_ name: String, _ type: ColumnType) {
        self.name = name
        self.type = type
    }
}

/// The type of a column as stored.
public enum ColumnType: Sendable {
    case uint8, int8, int32, int64, float64
    /// UTF-8 text in a fixed number of bytes, NUL-padded (see `RowEncoder.text`).
    case text(bytes: Int)
    /// An int8 code whose values have names in the column's type (an HDF5 enumeration).
    case named8([(name: String, value: Int8)])
    /// The run's stage names as an HDF5 enumeration over int32: the value is the stage's
    /// position, the name its `stage_names` entry (repeats made unique), plus `(source)` = -1.
    case stage

    public var size: Int {
        switch self {
        case .uint8, .int8, .named8: return 1
        case .int32, .stage: return 4
        case .int64, .float64: return 8
        case .text(let n): return n
        }
    }
}

/// The member names of the stage enumeration: each stage's name, the second and later
/// occurrences of a repeated name suffixed " #2", " #3", … (enumeration names are unique).
public enum StageNames {
    /// The member for "the source, not a stage" (value -1).
    public static let source = "(source)"

    public static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = [source]
        return names.map { name in
            var candidate = name, n = 1
            while seen.contains(candidate) {
                n += 1
                candidate = "\(name) #\(n)"
            }
            seen.insert(candidate)
            return candidate
        }
    }
}
