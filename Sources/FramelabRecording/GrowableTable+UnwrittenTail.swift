import CHDF5

/// Rows a killed or failed writer counted but never wrote.
///
/// A table grows by setting its extent, then writing the new rows. When the process dies
/// (or its file size limit is hit) between the two, or the write reached HDF5's cache but
/// not the disk, the extent survives while the rows do not: HDF5 reads them back as the
/// fill value, all bytes zero. In the tables named here a written row is never all zero,
/// so a run of all-zero rows at a table's end is exactly what was never written.
extension GrowableTable {
    /// Tables whose written rows always hold a non-zero byte, and why:
    /// - `frames`, `timings`: `arrival_ns` and `start_ns` are readings of the monotonic
    ///   clock (nanoseconds since boot, never 0);
    /// - `failures`, `events`: a reason and a kind are never empty text;
    /// - `detections`: `iou` is NaN for an unmatched detection, above the match threshold
    ///   for a matched one;
    /// - `images`: a path is never empty.
    /// Other tables (ground truth may hold an all-zero box; summaries are written whole
    /// when a run finishes) are left as they are.
    static let neverAllZero: Set<String> = ["frames", "timings", "failures", "events", "detections", "images"]

    /// Rows read per step when looking for the last written row from the end.
    private static let tailBlockRows = 1024

    /// Cuts the all-zero rows at the end of table `name` in `group` (one of
    /// `neverAllZero`); returns how many were cut.
    static func cutUnwrittenTail(in group: hid_t, name: String) throws(HDF5Error) -> Int {
        try HDF5.locked { () throws(HDF5Error) -> Int in
            let table = try open(in: group, name: name)
            defer { table.close() }
            let written = try table.rowsBeforeZeroTail()
            let cut = table.count - written
            if cut > 0 { try shrink(in: group, name: name, to: written) }
            return cut
        }
    }

    /// The number of rows up to and including the last one holding a non-zero byte,
    /// reading blocks from the end so a long table with a short tail costs one read.
    private func rowsBeforeZeroTail() throws(HDF5Error) -> Int {
        let what = "cannot read table '\(name)'"
        let rowSize = h5.H5Tget_size(fileType.id)
        guard rowSize > 0 else { throw HDF5Error(what: what, reason: "its row type has no size") }
        var end = count
        while end > 0 {
            let rows = min(Self.tailBlockRows, end)
            let start = end - rows
            var bytes = [UInt8](repeating: 0, count: rows * rowSize)
            let (fileSpace, memorySpace) = try selection(start: start, rows: rows, what)
            let status = bytes.withUnsafeMutableBytes { raw in
                h5.H5Dread(handle.id, fileType.id, memorySpace.id, fileSpace.id, fl_h5p_default(), raw.baseAddress)
            }
            try HDF5.check(status, what)
            for row in stride(from: rows - 1, through: 0, by: -1) {
                let slice = bytes[(row * rowSize)..<((row + 1) * rowSize)]
                if slice.contains(where: { $0 != 0 }) { return start + row + 1 }
            }
            end = start
        }
        return 0
    }
}
