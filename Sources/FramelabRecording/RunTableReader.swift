import CHDF5
import FramelabCore

extension RecordingReader {
    /// The run's numeric table `name` (docs/hdf5-schema.md, "Detection tables"), or nil when
    /// the run has no such table. Errors name the path; a missing run is `.badInput`.
    public static func readTable(path: String, runID: String, name: String) throws -> RunTable? {
        let ids = try runIDs(path: path)
        guard ids.contains(runID) else {
            throw FramelabError(.badInput, "no run '\(runID)' in HDF5 file '\(path)' (runs: \(ids.joined(separator: ", ")))")
        }
        return try withFile(path) { (file) throws(HDF5Error) -> RunTable? in
            try RunLayout.withRunGroup(in: file, runID: runID) { (group) throws(HDF5Error) -> RunTable? in
                guard try HDF5.check(H5Lexists(group, name, fl_h5p_default()), "cannot look up table '\(name)'") > 0 else {
                    return nil
                }
                return try RunTableIO.read(name, in: group)
            }
        }
    }
}

extension RunTableIO {
    /// Reads a 2-D float64 table and its `columns` attribute (HDF5 lock held by the caller).
    static func read(_ name: String, in group: hid_t) throws(HDF5Error) -> RunTable {
        let what = "cannot read table '\(name)'"
        let dataset = try H5Handle.make(.dataset, what) { H5Dopen2(group, name, fl_h5p_default()) }
        let space = try H5Handle.make(.dataspace, what) { H5Dget_space(dataset.id) }
        guard H5Sget_simple_extent_ndims(space.id) == 2 else {
            throw HDF5Error(what: what, reason: "it is not two-dimensional")
        }
        var dims: [hsize_t] = [0, 0]
        try HDF5.check(H5Sget_simple_extent_dims(space.id, &dims, nil), what)
        guard case .strings(let columns)? = try H5Attributes.read(named: "columns", on: dataset.id),
              columns.count == Int(dims[1]) else {
            throw HDF5Error(what: what, reason: "its 'columns' attribute does not name its \(dims[1]) columns")
        }
        let rows = Int(dims[0]), width = Int(dims[1])
        var flat = [Double](repeating: 0, count: rows * width)
        if !flat.isEmpty {
            let status = flat.withUnsafeMutableBytes { raw in
                H5Dread(dataset.id, fl_h5t_native_double(), fl_h5s_all(), fl_h5s_all(), fl_h5p_default(), raw.baseAddress)
            }
            try HDF5.check(status, what)
        }
        let table = (0..<rows).map { r in Array(flat[(r * width)..<((r + 1) * width)]) }
        return RunTable(name: name, columns: columns, rows: table)
    }
}
