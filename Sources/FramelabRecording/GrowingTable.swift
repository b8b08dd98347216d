import CHDF5
import FramelabCore

/// A run table that grows while the run is written: the same two-dimensional float64
/// dataset with a `columns` attribute as `RunTable`, but chunked with an unlimited
/// number of rows, so rows appended during the run reach the file with every background
/// flush — a run that is killed keeps the rows made before its last flush, as it keeps
/// its timings. (`framelab run --detector` writes its detections this way.)
final class GrowingTable: @unchecked Sendable {
    let name: String
    let columns: Int
    let handle: H5Handle
    /// Rows in the dataset (its current extent).
    private(set) var rows: Int

    /// Rows per chunk: a chunk of detections is a few kilobytes.
    static let chunkRows = 256

    private init(name: String, columns: Int, handle: H5Handle, rows: Int) {
        self.name = name
        self.columns = columns
        self.handle = handle
        self.rows = rows
    }

    /// Creates the empty table in `group` (file open in plain read-write mode).
    static func create(in group: hid_t, name: String, columns: [String]) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            let what = "cannot create table '\(name)'"
            var dims: [hsize_t] = [0, hsize_t(columns.count)]
            var maxDims: [hsize_t] = [fl_h5s_unlimited(), hsize_t(columns.count)]
            let space = try H5Handle.make(.dataspace, what) { H5Screate_simple(2, &dims, &maxDims) }
            let dcpl = try H5Handle.make(.propertyList, what) { H5Pcreate(fl_h5p_dataset_create()) }
            var chunk: [hsize_t] = [hsize_t(chunkRows), hsize_t(max(1, columns.count))]
            try HDF5.check(H5Pset_chunk(dcpl.id, 2, &chunk), what)
            let dataset = try H5Handle.make(.dataset, what) {
                H5Dcreate2(group, name, fl_h5t_native_double(), space.id, fl_h5p_default(), dcpl.id, fl_h5p_default())
            }
            try H5Attributes.write(.strings(columns), named: "columns", on: dataset.id)
        }
    }

    /// Opens the table `name` in `group` for appending.
    static func open(in group: hid_t, name: String, columns: Int) throws(HDF5Error) -> GrowingTable {
        try HDF5.locked { () throws(HDF5Error) -> GrowingTable in
            let what = "cannot open table '\(name)'"
            let dataset = try H5Handle.make(.dataset, what) { H5Dopen2(group, name, fl_h5p_default()) }
            let space = try H5Handle.make(.dataspace, what) { H5Dget_space(dataset.id) }
            var dims: [hsize_t] = [0, 0]
            guard H5Sget_simple_extent_ndims(space.id) == 2 else {
                throw HDF5Error(what: what, reason: "it is not two-dimensional")
            }
            try HDF5.check(H5Sget_simple_extent_dims(space.id, &dims, nil), what)
            guard Int(dims[1]) == columns else {
                throw HDF5Error(what: what, reason: "it has \(dims[1]) columns, expected \(columns)")
            }
            return GrowingTable(name: name, columns: columns, handle: dataset, rows: Int(dims[0]))
        }
    }

    /// Appends `values.count / columns` rows stored row after row.
    func append(_ values: [Double]) throws(HDF5Error) {
        let count = values.count / max(1, columns)
        guard count > 0 else { return }
        try HDF5.locked { () throws(HDF5Error) in
            let what = "cannot append to table '\(name)'"
            var newSize: [hsize_t] = [hsize_t(rows + count), hsize_t(columns)]
            try HDF5.check(H5Dset_extent(handle.id, &newSize), what)
            let fileSpace = try H5Handle.make(.dataspace, what) { H5Dget_space(handle.id) }
            var start: [hsize_t] = [hsize_t(rows), 0]
            var size: [hsize_t] = [hsize_t(count), hsize_t(columns)]
            try HDF5.check(H5Sselect_hyperslab(fileSpace.id, H5S_SELECT_SET, &start, nil, &size, nil), what)
            let memorySpace = try H5Handle.make(.dataspace, what) { H5Screate_simple(2, &size, nil) }
            let status = values.withUnsafeBytes { raw in
                H5Dwrite(handle.id, fl_h5t_native_double(), memorySpace.id, fileSpace.id, fl_h5p_default(), raw.baseAddress)
            }
            try HDF5.check(status, what)
            rows += count
        }
    }
}

extension RunWriter {
    /// Adds an empty growing table `/runs/<id>/<name>` (a name the run already has is
    /// refused). Rows given to `append(rows:to:)` afterwards are written with the run's
    /// records, by the background flush. Like `setAttribute`, it briefly reopens the file.
    public func addGrowingTable(name: String, columns: [String]) throws {
        try file.addGrowingTable(slot, name: name, columns: columns)
    }

    /// Queues rows for the growing table `name` (cheap, any thread). Each row has one value
    /// per column; rows for a table the run does not have are a programming error.
    public func append(rows: [[Double]], to name: String) {
        slot.append(rows: rows, to: name)
    }
}

extension RecordingFile {
    func addGrowingTable(_ slot: RunSlot, name: String, columns: [String]) throws(FramelabError) {
        try HDF5.locked { () throws(FramelabError) in
            try ensureUsable(for: slot)
            try restructure { (file) throws(FramelabError) in
                try hdf5("cannot add table '\(name)' to run '\(slot.id)'") { () throws(HDF5Error) in
                    try RunLayout.withRunGroup(in: file, runID: slot.id) { (group) throws(HDF5Error) in
                        try GrowingTable.create(in: group, name: name, columns: columns)
                    }
                }
                // Reattached (and so opened for appending) when restructure returns to SWMR.
                slot.registerGrowingTable(name, columns: columns.count)
            }
        }
    }
}
