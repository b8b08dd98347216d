import CHDF5

/// One table of a run, open for appending or reading: a one-dimensional, chunked dataset
/// of packed compound rows with an unlimited number of rows (docs/hdf5-schema.md). Every
/// table of a run is one of these, created with the run and grown by its background flush.
/// Every function expects the HDF5 lock held (they take it again, harmlessly).
final class GrowableTable: @unchecked Sendable {
    let name: String
    let handle: H5Handle
    /// The dataset's own row type: rows are written in exactly the file's layout.
    let fileType: H5Handle
    /// Rows in the dataset (its current extent).
    private(set) var count: Int

    private init(name: String, handle: H5Handle, fileType: H5Handle, count: Int) {
        self.name = name
        self.handle = handle
        self.fileType = fileType
        self.count = count
    }

    /// Creates the empty table `layout.name` in `group`; `stageNames` name the values of
    /// `.stage` columns.
    static func create(in group: hid_t, _ layout: TableLayout, stageNames: [String]) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            let what = "cannot create table '\(layout.name)'"
            let type = try H5Types.compound(layout, stageNames: stageNames)
            var dims: [hsize_t] = [0]
            var maxDims: [hsize_t] = [fl_h5s_unlimited()]
            let space = try H5Handle.make(.dataspace, what) { h5.H5Screate_simple(1, &dims, &maxDims) }
            let dcpl = try H5Handle.make(.propertyList, what) { h5.H5Pcreate(fl_h5p_dataset_create()) }
            var chunk: [hsize_t] = [hsize_t(max(1, layout.chunkRows))]
            try HDF5.check(h5.H5Pset_chunk(dcpl.id, 1, &chunk), what)
            let dataset = try H5Handle.make(.dataset, what) {
                h5.H5Dcreate2(group, layout.name, type.id, space.id, fl_h5p_default(), dcpl.id, fl_h5p_default())
            }
            try HDF5.check(dataset.close(), what)
        }
    }

    /// Whether `group` has a link `name`.
    static func exists(in group: hid_t, name: String) throws(HDF5Error) -> Bool {
        try HDF5.check(h5.H5Lexists(group, name, fl_h5p_default()), "cannot look up table '\(name)'") > 0
    }

    /// Opens the existing table `name` in `group`.
    static func open(in group: hid_t, name: String) throws(HDF5Error) -> GrowableTable {
        try HDF5.locked { () throws(HDF5Error) -> GrowableTable in
            let what = "cannot open table '\(name)'"
            let dataset = try H5Handle.make(.dataset, what) { h5.H5Dopen2(group, name, fl_h5p_default()) }
            let type = try H5Handle.make(.datatype, what) { h5.H5Dget_type(dataset.id) }
            let space = try H5Handle.make(.dataspace, what) { h5.H5Dget_space(dataset.id) }
            guard h5.H5Sget_simple_extent_ndims(space.id) == 1 else {
                throw HDF5Error(what: what, reason: "it is not one-dimensional")
            }
            var dims: [hsize_t] = [0]
            try HDF5.check(h5.H5Sget_simple_extent_dims(space.id, &dims, nil), what)
            guard let count = Int(exactly: dims[0]) else { throw HDF5Error(what: what, reason: "it claims \(dims[0]) rows") }
            return GrowableTable(name: name, handle: dataset, fileType: type, count: count)
        }
    }

    /// Cuts table `name` in `group` back to `rows` rows if it has more (after a write
    /// error, to the rows known to be on disk).
    static func shrink(in group: hid_t, name: String, to rows: Int) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            let table = try open(in: group, name: name)
            defer { table.close() }
            guard table.count > rows else { return }
            var size: [hsize_t] = [hsize_t(rows)]
            try HDF5.check(h5.H5Dset_extent(table.handle.id, &size), "cannot cut table '\(name)' back to \(rows) rows")
        }
    }

    func close() {
        _ = fileType.close()
        _ = handle.close()
    }

    /// Appends `rows` rows packed in `bytes` in the layout the table was created with.
    func append(_ bytes: [UInt8], rows: Int) throws(HDF5Error) {
        guard rows > 0 else { return }
        try HDF5.locked { () throws(HDF5Error) in
            let what = "cannot append to table '\(name)'"
            var newSize: [hsize_t] = [hsize_t(count + rows)]
            try HDF5.check(h5.H5Dset_extent(handle.id, &newSize), what)
            let (fileSpace, memorySpace) = try selection(start: count, rows: rows, what)
            let status = bytes.withUnsafeBytes { raw in
                h5.H5Dwrite(handle.id, fileType.id, memorySpace.id, fileSpace.id, fl_h5p_default(), raw.baseAddress)
            }
            try HDF5.check(status, what)
            count += rows
        }
    }

    /// The dataspaces of one read or write of `rows` rows from row `start`: the table's,
    /// with those rows selected, and a memory one of just those rows.
    func selection(start: Int, rows: Int, _ what: String) throws(HDF5Error) -> (file: H5Handle, memory: H5Handle) {
        let fileSpace = try H5Handle.make(.dataspace, what) { h5.H5Dget_space(handle.id) }
        var offset: [hsize_t] = [hsize_t(start)]
        var size: [hsize_t] = [hsize_t(rows)]
        try HDF5.check(h5.H5Sselect_hyperslab(fileSpace.id, H5S_SELECT_SET, &offset, nil, &size, nil), what)
        let memorySpace = try H5Handle.make(.dataspace, what) { h5.H5Screate_simple(1, &size, nil) }
        return (fileSpace, memorySpace)
    }

    /// Every row, packed in `R`'s layout. Members are matched by name, so a table written
    /// with more members (a later schema) or fewer (an earlier one: those keep
    /// `R.absentRow`'s bytes) reads too; a member whose type cannot be converted is an error.
    func readAll<R: TableRow>(_ type: R.Type) throws(HDF5Error) -> [R] {
        try HDF5.locked { () throws(HDF5Error) -> [R] in
            guard count > 0 else { return [] }
            let layout = R.layout
            let memory = try H5Types.readingType(layout, from: fileType.id, table: name)
            let absent = R.absentRow
            var bytes = [UInt8](repeating: 0, count: layout.rowSize * count)
            for i in 0..<count { bytes.replaceSubrange((i * absent.count)..<((i + 1) * absent.count), with: absent) }
            let status = bytes.withUnsafeMutableBytes { raw in
                h5.H5Dread(handle.id, memory.id, fl_h5s_all(), fl_h5s_all(), fl_h5p_default(), raw.baseAddress)
            }
            try HDF5.check(status, "cannot read table '\(name)'")
            return R.unpack(bytes)
        }
    }
}
