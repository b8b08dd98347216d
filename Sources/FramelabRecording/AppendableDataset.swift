import CHDF5

/// A one-dimensional, chunked dataset with an unlimited maximum size that grows by
/// appending records, as the four record tables of a run are.
final class AppendableDataset: @unchecked Sendable {
    let name: String
    let handle: H5Handle
    /// Records in the dataset (its current extent).
    private(set) var count: Int

    private init(name: String, handle: H5Handle, count: Int) {
        self.name = name
        self.handle = handle
        self.count = count
    }

    /// Creates an empty dataset `name` in `group` with records of `fileType`.
    static func create(in group: hid_t, name: String, fileType: hid_t, chunkRecords: Int) throws(HDF5Error) -> AppendableDataset {
        try HDF5.locked { () throws(HDF5Error) -> AppendableDataset in
            let what = "cannot create dataset '\(name)'"
            var dims: [hsize_t] = [0]
            var maxDims: [hsize_t] = [fl_h5s_unlimited()]
            let space = try H5Handle.make(.dataspace, what) { H5Screate_simple(1, &dims, &maxDims) }
            let dcpl = try H5Handle.make(.propertyList, what) { H5Pcreate(fl_h5p_dataset_create()) }
            var chunk: [hsize_t] = [hsize_t(chunkRecords)]
            try HDF5.check(H5Pset_chunk(dcpl.id, 1, &chunk), what)
            let dataset = try H5Handle.make(.dataset, what) {
                H5Dcreate2(group, name, fileType, space.id, fl_h5p_default(), dcpl.id, fl_h5p_default())
            }
            return AppendableDataset(name: name, handle: dataset, count: 0)
        }
    }

    /// Opens the existing dataset `name` in `group`.
    static func open(in group: hid_t, name: String) throws(HDF5Error) -> AppendableDataset {
        try HDF5.locked { () throws(HDF5Error) -> AppendableDataset in
            let dataset = try H5Handle.make(.dataset, "cannot open dataset '\(name)'") {
                H5Dopen2(group, name, fl_h5p_default())
            }
            let count = try extent(dataset.id, name)
            return AppendableDataset(name: name, handle: dataset, count: count)
        }
    }

    private static func extent(_ dataset: hid_t, _ name: String) throws(HDF5Error) -> Int {
        let what = "cannot get the size of dataset '\(name)'"
        let space = try H5Handle.make(.dataspace, what) { H5Dget_space(dataset) }
        guard H5Sget_simple_extent_ndims(space.id) == 1 else {
            throw HDF5Error(what: what, reason: "it is not one-dimensional")
        }
        var dims: [hsize_t] = [0]
        try HDF5.check(H5Sget_simple_extent_dims(space.id, &dims, nil), what)
        return Int(dims[0])
    }

    /// Appends `records` records laid out as `memoryType` at `buffer`.
    func append(_ buffer: UnsafeRawPointer, records: Int, memoryType: hid_t) throws(HDF5Error) {
        guard records > 0 else { return }
        try HDF5.locked { () throws(HDF5Error) in
            let what = "cannot append to dataset '\(name)'"
            var newSize: [hsize_t] = [hsize_t(count + records)]
            try HDF5.check(H5Dset_extent(handle.id, &newSize), what)
            let fileSpace = try H5Handle.make(.dataspace, what) { H5Dget_space(handle.id) }
            var start: [hsize_t] = [hsize_t(count)]
            var size: [hsize_t] = [hsize_t(records)]
            try HDF5.check(H5Sselect_hyperslab(fileSpace.id, H5S_SELECT_SET, &start, nil, &size, nil), what)
            let memorySpace = try H5Handle.make(.dataspace, what) { H5Screate_simple(1, &size, nil) }
            try HDF5.check(H5Dwrite(handle.id, memoryType, memorySpace.id, fileSpace.id, fl_h5p_default(), buffer), what)
            count += records
        }
    }

    /// Reads every record into `buffer` (room for `count` records of `memoryType`).
    func readAll(into buffer: UnsafeMutableRawPointer, memoryType: hid_t) throws(HDF5Error) {
        guard count > 0 else { return }
        try HDF5.locked { () throws(HDF5Error) in
            try HDF5.check(H5Dread(handle.id, memoryType, fl_h5s_all(), fl_h5s_all(), fl_h5p_default(), buffer),
                           "cannot read dataset '\(name)'")
        }
    }
}
