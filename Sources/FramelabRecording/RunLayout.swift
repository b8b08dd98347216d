import CHDF5

/// The groups, attributes and datasets of a recording file (docs/hdf5-schema.md).
/// Every function expects the HDF5 lock held (they take it again, harmlessly).
enum RunLayout {
    /// Gives a new file its root attribute and the empty `/runs` group.
    static func createRoot(_ file: hid_t) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            try H5Attributes.write(.int(Schema.version), named: Schema.versionAttribute, on: file)
            let what = "cannot create group '/\(Schema.runsGroup)'"
            // Track link creation order so h5py lists the runs in the order they were made.
            let gcpl = try H5Handle.make(.propertyList, what) { h5.H5Pcreate(fl_h5p_group_create()) }
            try HDF5.check(h5.H5Pset_link_creation_order(gcpl.id, fl_h5p_crt_order_tracked_indexed()), what)
            // Keep the links in the group's own object header, sized up front for
            // `runsPlanned` runs: adding a run then rewrites that one block in place, which
            // a crash cannot leave half-done (dense link storage spans several blocks).
            try HDF5.check(h5.H5Pset_link_phase_change(gcpl.id, UInt32(Schema.runsPlanned), UInt32(Schema.runsPlanned)), what)
            try HDF5.check(h5.H5Pset_est_link_info(gcpl.id, UInt32(Schema.runsPlanned), 24), what)
            let runs = try H5Handle.make(.group, what) {
                h5.H5Gcreate2(file, Schema.runsGroup, fl_h5p_default(), gcpl.id, fl_h5p_default())
            }
            try HDF5.check(runs.close(), what)
        }
    }

    /// The names of the groups under `/runs`, in name order.
    static func runNames(in file: hid_t) throws(HDF5Error) -> [String] {
        try HDF5.locked { () throws(HDF5Error) -> [String] in
            let what = "cannot list '/\(Schema.runsGroup)'"
            let runs = try H5Handle.make(.group, what) { h5.H5Gopen2(file, Schema.runsGroup, fl_h5p_default()) }
            var info = H5G_info_t()
            try HDF5.check(h5.H5Gget_info(runs.id, &info), what)
            var names: [String] = []
            for i in 0..<info.nlinks {
                let length = h5.H5Lget_name_by_idx(runs.id, ".", H5_INDEX_NAME, H5_ITER_INC, i, nil, 0, fl_h5p_default())
                guard length >= 0 else { throw HDF5Error(what: what, reason: HDF5.takeErrorMessage()) }
                var buffer = [CChar](repeating: 0, count: Int(length) + 1)
                _ = h5.H5Lget_name_by_idx(runs.id, ".", H5_INDEX_NAME, H5_ITER_INC, i, &buffer, buffer.count, fl_h5p_default())
                names.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return names
        }
    }

    /// One more than the largest `run_index` in the file (0 for the first run).
    static func nextRunIndex(_ runs: hid_t) throws(HDF5Error) -> Int64 {
        try HDF5.locked { () throws(HDF5Error) -> Int64 in
            var next: Int64 = 0
            var info = H5G_info_t()
            try HDF5.check(h5.H5Gget_info(runs, &info), "cannot count runs")
            for i in 0..<info.nlinks {
                // A run damaged by a crash must not stop new runs: skip what cannot be read.
                guard let group = try? H5Handle.make(.group, "cannot open run \(i)", {
                    h5.H5Oopen_by_idx(runs, ".", H5_INDEX_NAME, H5_ITER_INC, i, fl_h5p_default())
                }) else { continue }
                if case .int(let index)? = try? H5Attributes.read(named: Schema.RunAttribute.runIndex, on: group.id) {
                    next = max(next, index + 1)
                }
            }
            return max(next, Int64(info.nlinks))
        }
    }

    /// Creates `/runs/<id>` with its attributes and empty datasets, in two steps so a
    /// crash never leaves a link to a half-written run: the group is built unlinked and
    /// flushed, then linked into `/runs` (one in-place header update). On failure
    /// nothing of the run is left behind.
    static func create(in file: hid_t, runs: hid_t, id: String, runIndex: Int64,
                       attributes: [String: AttributeValue], stageNames: [String],
                       tables: [TableLayout]) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            let what = "cannot create the run's group"
            // Attributes stay in the group's object header (never the multi-block "dense"
            // storage), and the header's first block is made big enough up front (HDF5 sizes
            // it from the expected links) for the attributes set at creation and later, so
            // setting an attribute or finishing the run rewrites that block in place instead
            // of adding blocks, whose writes a crash could separate.
            let gcpl = try H5Handle.make(.propertyList, what) { h5.H5Pcreate(fl_h5p_group_create()) }
            try HDF5.check(h5.H5Pset_attr_phase_change(gcpl.id, UInt32(Schema.compactAttributes),
                                                    UInt32(Schema.compactAttributes)), what)
            try HDF5.check(h5.H5Pset_est_link_info(gcpl.id, UInt32(Schema.runHeaderBytes / 64), 52), what)
            let group = try H5Handle.make(.group, what) {
                h5.H5Gcreate_anon(runs, gcpl.id, fl_h5p_default())
            }
            try H5Attributes.write(attributes, on: group.id)
            try H5Attributes.write(.int(runIndex), named: Schema.RunAttribute.runIndex, on: group.id)
            try H5Attributes.write(.string(HostInfo.utcNowISO8601()), named: Schema.RunAttribute.createdUTC,
                                   on: group.id)
            try H5Attributes.write(.string(Schema.Status.running), named: Schema.RunAttribute.status, on: group.id)
            try H5Attributes.write(.strings(stageNames), named: Schema.RunAttribute.stageNames, on: group.id)
            for table in tables { try GrowableTable.create(in: group.id, table, stageNames: stageNames) }
            try HDF5.check(h5.H5Fflush(file, H5F_SCOPE_LOCAL), "cannot write the run's group")
            try HDF5.check(h5.H5Olink(group.id, runs, id, fl_h5p_default(), fl_h5p_default()),
                           "cannot link the run's group into /\(Schema.runsGroup)")
            try HDF5.check(group.close(), "cannot close the run's group")
        }
    }

    /// Runs `body` with `/runs/<runID>` open.
    static func withRunGroup<R>(in file: hid_t, runID: String,
                                _ body: (hid_t) throws(HDF5Error) -> R) throws(HDF5Error) -> R {
        try HDF5.locked { () throws(HDF5Error) -> R in
            let group = try H5Handle.make(.group, "cannot open run '\(runID)'") {
                h5.H5Gopen2(file, "\(Schema.runsGroup)/\(runID)", fl_h5p_default())
            }
            return try body(group.id)
        }
    }

    static func setStatus(in file: hid_t, runID: String, _ status: String) throws(HDF5Error) {
        try withRunGroup(in: file, runID: runID) { (group) throws(HDF5Error) in
            try H5Attributes.write(.string(status), named: Schema.RunAttribute.status, on: group)
        }
    }
}
