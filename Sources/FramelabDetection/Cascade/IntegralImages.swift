/// The integral image, the integral of squares and, for cascades with 45-degree
/// features, the rotated-sum integral of one pyramid level, as OpenCV's Haar evaluator
/// builds them: 32-bit sums (squares wrap around, as OpenCV's CV_32S ones do; window
/// differences stay exact). Entry (x, y) of `sum` is the sum over all pixels left of x
/// and above y, so the tables are one larger than the image each way.
///
/// Rows are `stride` entries apart, a stride fixed for every level of one image so that
/// feature offsets are computed once. Padding past the right and bottom edges lets
/// vector loads of windows beyond the last valid one stay inside the buffer.
///
/// The rotated table lives in `sum` right after the upright one, `tableSize` entries on
/// (OpenCV keeps it at the same place relative to its sum buffer), so a tilted feature
/// is just a feature whose corner offsets are `tableSize` larger: the scanner needs no
/// second pointer and upright cascades pay nothing.
///
/// Levels scanned every second pixel are computed with split rows (`SplitRows`): each
/// row's even entries first, then its odd ones.
struct IntegralImages {
    private(set) var sum: [Int32] = []
    private(set) var squares: [UInt32] = []
    private(set) var stride = 0
    private(set) var rows = 0
    /// Entries of one table (with its padding); the rotated table starts here in `sum`.
    private(set) var tableSize = 0
    private(set) var hasTilted = false
    // Rows of the rotated-sum recurrences (see `computeTilted`).
    private var rowPrefix: [Int32] = []
    private var diagonalA: [Int32] = []
    private var diagonalB: [Int32] = []

    /// Makes room for levels up to `maxWidth` x `maxHeight` pixels with `padding` spare
    /// entries, and for the rotated table when `tilted`.
    mutating func reserve(maxWidth: Int, maxHeight: Int, padding: Int, tilted: Bool = false) {
        let newStride = maxWidth + 1 + padding
        let newRows = maxHeight + 2 + padding / max(1, newStride) + 1
        if newStride != stride || newRows > rows || tilted != hasTilted {
            stride = newStride
            rows = newRows
            hasTilted = tilted
            tableSize = stride * rows + padding
            sum = .init(repeating: 0, count: tableSize * (tilted ? 2 : 1))
            squares = .init(repeating: 0, count: tableSize)
        }
    }

    /// Fills the tables from a contiguous gray8 image, with rows in column order or, when
    /// `split`, in `SplitRows` order.
    mutating func compute(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, split: Bool = false) {
        precondition(width + 1 <= stride && height + 1 < rows, "integral buffers too small")
        let stride = self.stride
        let place = Placement(split ? SplitRows(stride: stride) : nil)
        sum.withUnsafeMutableBufferPointer { sp in
            squares.withUnsafeMutableBufferPointer { qp in
                let s = sp.baseAddress!, q = qp.baseAddress!
                for x in 0..<stride { s[x] = 0; q[x] = 0 }
                for y in 0..<height {
                    let row = pixels + y * width
                    let above = s + y * stride, aboveQ = q + y * stride
                    let cur = s + (y + 1) * stride, curQ = q + (y + 1) * stride
                    cur[0] = 0; curQ[0] = 0
                    var runSum: Int32 = 0
                    var runSq: UInt32 = 0
                    for x in 0..<width {
                        let v = Int32(row[x])
                        runSum &+= v
                        runSq &+= UInt32(v * v)
                        let at = place(x + 1)
                        cur[at] = above[at] &+ runSum
                        curQ[at] = aboveQ[at] &+ runSq
                    }
                }
            }
        }
        if hasTilted { computeTilted(pixels, width: width, height: height, place: place) }
    }

    /// Where column c of a row goes: c itself, or its `SplitRows` position, without a
    /// branch per entry (c·1 + 0, or (c & 1)·oddStart + c >> 1).
    private struct Placement {
        let oddMask: Int, oddStart: Int, shift: Int
        init(_ split: SplitRows?) {
            (oddMask, oddStart, shift) = split.map { (1, $0.oddStart, 1) } ?? (0, 0, 0)
        }
        @inline(__always) func callAsFunction(_ c: Int) -> Int { (c & oddMask) &* oddStart &+ (c &>> shift) }
    }

    /// Entry (x, y) of the upright table, of the rotated one when `tilted`, or of the
    /// squares when `squared` (as UInt32 bits), in tables computed with `split` as given
    /// (for tests; the scan reaches entries through offsets).
    func entry(x: Int, y: Int, tilted: Bool = false, squared: Bool = false, split: Bool = false) -> UInt32 {
        let at = y * stride + Placement(split ? SplitRows(stride: stride) : nil)(x)
        return squared ? squares[at] : UInt32(bitPattern: sum[(tilted ? tableSize : 0) + at])
    }

    /// The rotated-sum table (Lienhart and Maydt, 2002) with OpenCV's coordinates:
    /// T(X, Y) = Σ image(x, y) over y < Y and |x − X + 1| <= Y − 1 − y, the triangle of
    /// pixels above row Y whose apex is pixel (X − 1, Y − 1). A tilted rectangle (x, y,
    /// w, h) then sums to T(x, y) − T(x − h, y + h) − T(x + w, y + w) + T(x + w − h, y + w + h).
    ///
    /// With S_y(x) the sum of row y's pixels left of x (0 for x <= 0, the row's total for
    /// x >= width), row y adds S_y(X + Y − 1 − y) − S_y(X − Y + y) to T(X, Y). Summing each
    /// of the two terms along its diagonal gives two one-row recurrences,
    ///   A(X, Y) = A(X + 1, Y − 1) + S_{Y−1}(X),   A(width + 1, Y) = Σ_{y<Y} total(y),
    ///   B(X, Y) = B(X − 1, Y − 1) + S_{Y−1}(X − 1), B(−1, Y) = 0,
    /// and T = A − B: exact at the image borders, linear time, two row buffers.
    private mutating func computeTilted(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, place: Placement) {
        if rowPrefix.count < width + 2 {
            rowPrefix = .init(repeating: 0, count: width + 2)
            diagonalA = .init(repeating: 0, count: width + 2)
            diagonalB = .init(repeating: 0, count: width + 2)
        }
        let stride = self.stride, base = tableSize
        sum.withUnsafeMutableBufferPointer { sp in
        rowPrefix.withUnsafeMutableBufferPointer { sPtr in
        diagonalA.withUnsafeMutableBufferPointer { aPtr in
        diagonalB.withUnsafeMutableBufferPointer { bPtr in
            let t = sp.baseAddress! + base
            let s = sPtr.baseAddress!, a = aPtr.baseAddress!, b = bPtr.baseAddress!
            for x in 0..<stride { t[x] = 0 }
            for x in 0...width { a[x] = 0; b[x] = 0 }
            guard height > 0 else { return }
            var rowsAbove: Int32 = 0   // Σ of the totals of the rows above the current one
            for y in 1...height {
                let row = pixels + (y - 1) * width
                s[0] = 0
                for x in 0..<width { s[x + 1] = s[x] &+ Int32(row[x]) }
                // In place, left to right for A (reads A(X + 1) of the row above, not yet
                // overwritten) and right to left for B (reads B(X − 1) of the row above).
                for x in 0..<width { a[x] = a[x + 1] &+ s[x] }
                a[width] = rowsAbove &+ s[width]
                for x in Swift.stride(from: width, through: 1, by: -1) { b[x] = b[x - 1] &+ s[x - 1] }
                b[0] = 0
                rowsAbove &+= s[width]
                let out = t + y * stride
                for x in 0...width { out[place(x)] = a[x] &- b[x] }
            }
        }}}}
    }
}
