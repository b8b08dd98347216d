import CHDF5
import FramelabCore

/// A detection table as version-1 files store it (docs/hdf5-schema.md, "Version 1
/// files"): one two-dimensional float64 dataset whose `columns` attribute names its
/// columns. Read only: Framelab writes version 2.
public struct Schema1Table: Sendable {
    public let name: String
    public let columns: [String]
    public let rows: [[Double]]
}

extension RecordingReader {
    /// The version-1 table `name` of the run, or nil when the run has no such table.
    public static func readSchema1Table(path: String, runID: String, name: String) throws -> Schema1Table? {
        try withRunGroup(path: path, runID: runID) { (_, group) throws(HDF5Error) -> Schema1Table? in
            guard try GrowableTable.exists(in: group, name: name) else { return nil }
            let what = "cannot read table '\(name)'"
            let dataset = try H5Handle.make(.dataset, what) { h5.H5Dopen2(group, name, fl_h5p_default()) }
            let space = try H5Handle.make(.dataspace, what) { h5.H5Dget_space(dataset.id) }
            guard h5.H5Sget_simple_extent_ndims(space.id) == 2 else {
                throw HDF5Error(what: what, reason: "it is not two-dimensional")
            }
            var dims: [hsize_t] = [0, 0]
            try HDF5.check(h5.H5Sget_simple_extent_dims(space.id, &dims, nil), what)
            guard case .strings(let columns)? = try H5Attributes.read(named: "columns", on: dataset.id),
                  UInt64(columns.count) == dims[1] else {
                throw HDF5Error(what: what, reason: "its 'columns' attribute does not name its \(dims[1]) columns")
            }
            let width = Int(dims[1])  // equals columns.count
            guard let count = Int(exactly: dims[0]), case (let cells, false) = count.multipliedReportingOverflow(by: width) else {
                throw HDF5Error(what: what, reason: "it claims \(dims[0]) rows")
            }
            var flat = [Double](repeating: 0, count: cells)
            if !flat.isEmpty {
                let status = flat.withUnsafeMutableBytes { raw in
                    h5.H5Dread(dataset.id, fl_h5t_native_double(), fl_h5s_all(), fl_h5s_all(), fl_h5p_default(), raw.baseAddress)
                }
                try HDF5.check(status, what)
            }
            return Schema1Table(name: name, columns: columns,
                                rows: (0..<count).map { r in Array(flat[(r * width)..<((r + 1) * width)]) })
        }
    }
}
