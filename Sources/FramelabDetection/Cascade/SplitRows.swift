/// The order of entries within an integral-table row at levels scanned with step 2: even
/// entries first, odd entries after them (from `oddStart`). Eight windows two pixels apart
/// then read eight consecutive entries at each corner, one vector load
/// (`PortableKernels.cascadeRow`). `IntegralImages` writes rows in this order and
/// `CompiledCascade` computes feature offsets for it.
struct SplitRows {
    /// Entries in a row (the tables' stride).
    let stride: Int
    /// Where the odd entries begin: the even ones take the first half, rounded up.
    var oddStart: Int { (stride + 1) / 2 }

    /// The position of column `c` in a split row, relative to the row's start. Columns left
    /// of the row (a tilted corner's x − h, relative to a window) map consistently too:
    /// `& 1` and `>> 1` floor in two's complement, so for an even window column x0,
    /// position(x0 + c) = x0 / 2 + position(c).
    func position(_ c: Int) -> Int { (c & 1) * oddStart + (c >> 1) }

    /// A dense offset `dy · stride + dx` from a window's top-left entry, for split rows.
    func offset(dy: Int, dx: Int) -> Int { dy * stride + position(dx) }
}
