import CHDF5
import FramelabCore

/// A table of numbers stored as one two-dimensional float64 dataset of a run
/// (rows x columns) whose `columns` attribute names the columns: what `framelab eval`
/// and `framelab run --detector` add beside the record datasets (docs/hdf5-schema.md,
/// "Detection tables"). pandas reads one as
/// `pd.DataFrame(ds[()], columns=[c.decode() for c in ds.attrs["columns"]])`.
public struct RunTable: Sendable {
    public let name: String
    public let columns: [String]
    public var rows: [[Double]]

    public init(name: String, columns: [String], rows: [[Double]] = []) {
        self.name = name
        self.columns = columns
        self.rows = rows
    }
}

extension RunWriter {
    /// Adds `table` as the dataset `/runs/<id>/<table.name>`, replacing none: a name the
    /// run already has is refused. Like `setAttribute`, it briefly reopens the file.
    public func addTable(_ table: RunTable) throws {
        precondition(table.rows.allSatisfy { $0.count == table.columns.count }, "table '\(table.name)': ragged rows")
        try file.addTable(slot, table)
    }
}

extension RecordingFile {
    func addTable(_ slot: RunSlot, _ table: RunTable) throws(FramelabError) {
        try HDF5.locked { () throws(FramelabError) in
            try ensureUsable(for: slot)
            try restructure { (file) throws(FramelabError) in
                try hdf5("cannot add table '\(table.name)' to run '\(slot.id)'") { () throws(HDF5Error) in
                    try RunLayout.withRunGroup(in: file, runID: slot.id) { (group) throws(HDF5Error) in
                        try RunTableIO.write(table, in: group)
                    }
                }
            }
        }
    }
}

enum RunTableIO {
    /// Creates the dataset and writes every row (HDF5 lock held by the caller).
    static func write(_ table: RunTable, in group: hid_t) throws(HDF5Error) {
        let what = "cannot create table '\(table.name)'"
        var dims: [hsize_t] = [hsize_t(table.rows.count), hsize_t(table.columns.count)]
        let space = try H5Handle.make(.dataspace, what) { H5Screate_simple(2, &dims, nil) }
        let dataset = try H5Handle.make(.dataset, what) {
            H5Dcreate2(group, table.name, fl_h5t_native_double(), space.id, fl_h5p_default(), fl_h5p_default(),
                       fl_h5p_default())
        }
        let flat = table.rows.flatMap { $0 }
        if !flat.isEmpty {
            let status = flat.withUnsafeBytes { raw in
                H5Dwrite(dataset.id, fl_h5t_native_double(), fl_h5s_all(), fl_h5s_all(), fl_h5p_default(), raw.baseAddress)
            }
            try HDF5.check(status, "cannot write table '\(table.name)'")
        }
        try H5Attributes.write(.strings(table.columns), named: "columns", on: dataset.id)
    }
}
