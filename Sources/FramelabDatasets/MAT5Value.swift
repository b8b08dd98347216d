import FramelabCore

/// A MATLAB array read from a MATLAB 5 (Level 5 MAT) file: a numeric matrix, a character
/// array or a cell array. Elements are in MATLAB's column-major order; `dimensions` has at
/// least two entries (a row vector is 1×n).
public indirect enum MAT5Value: Sendable, Equatable {
    /// Any numeric or logical class (double, single, int8…uint64), as Double. 64-bit
    /// integers above 2^53 lose precision.
    case numeric(dimensions: [Int], values: [Double])
    /// A character array: its rows (an m×n array is m strings of n characters).
    case text(dimensions: [Int], rows: [String])
    case cell(dimensions: [Int], elements: [MAT5Value])

    public var dimensions: [Int] {
        switch self {
        case .numeric(let d, _), .text(let d, _), .cell(let d, _): return d
        }
    }

    /// The number of elements (the product of the dimensions).
    public var count: Int {
        switch self {
        case .numeric(_, let v): return v.count
        case .text(let d, _): return d.reduce(1, *)
        case .cell(_, let e): return e.count
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// What the value is, for error messages ("a 3x4 double matrix").
    public var summary: String {
        let size = dimensions.map(String.init).joined(separator: "x")
        switch self {
        case .numeric: return "a \(size) numeric array"
        case .text: return "a \(size) char array"
        case .cell: return "a \(size) cell array"
        }
    }
}

/// Typed access that turns a value of the wrong shape into an error naming the file and
/// the element (`what`).
extension MAT5Value {
    public func cellElements(_ file: String, _ what: String) throws -> [MAT5Value] {
        guard case .cell(_, let elements) = self else { throw Self.wrong(file, what, "a cell array", self) }
        return elements
    }

    /// A one-row character array (or an empty one) as a String.
    public func string(_ file: String, _ what: String) throws -> String {
        guard case .text(_, let rows) = self, rows.count <= 1 else { throw Self.wrong(file, what, "a 1xn char array", self) }
        return rows.first ?? ""
    }

    /// A numeric matrix as rows of `columns` values (an empty array, of any shape, is no rows).
    public func matrixRows(_ file: String, _ what: String, columns: Int) throws -> [[Double]] {
        guard case .numeric(let dims, let values) = self else { throw Self.wrong(file, what, "a numeric array", self) }
        if values.isEmpty { return [] }
        guard dims.count == 2, dims[1] == columns else { throw Self.wrong(file, what, "an nx\(columns) numeric array", self) }
        let rows = dims[0]
        return (0..<rows).map { r in (0..<columns).map { c in values[c * rows + r] } }
    }

    /// A numeric vector (any orientation, or empty).
    public func vector(_ file: String, _ what: String) throws -> [Double] {
        guard case .numeric(let dims, let values) = self, values.isEmpty || dims.filter({ $0 != 1 }).count <= 1 else {
            throw Self.wrong(file, what, "a numeric vector", self)
        }
        return values
    }

    static func wrong(_ file: String, _ what: String, _ expected: String, _ got: MAT5Value) -> FramelabError {
        FramelabError(.badInput, "MAT file '\(file)': \(what) should be \(expected), but it is \(got.summary)")
    }
}
