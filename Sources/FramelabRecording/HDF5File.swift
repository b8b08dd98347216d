import CHDF5

/// How recording files are created and opened.
///
/// Every file uses the newest format (superblock 3), which SWMR needs. HDF5's own
/// flock-based locking is off: writers exclude each other with `RecordingFileLock`
/// instead, so readers (h5py, RecordingReader) never block a writer's reopen.
enum H5File {
    enum Mode {
        /// Read-write, not SWMR: for changing the file's layout (groups, attributes).
        case readWrite
        /// Read-write, and clear the "open for writing" marks a killed writer left.
        case repair
        /// Single-writer/multiple-reader appending: crash-consistent, no new objects.
        case swmrWrite
        /// Read-only, tolerant of files being written or left by a killed writer.
        case swmrRead
        /// Read-only, plain (for files that cannot be read in SWMR mode).
        case read
        /// Read-only and strict: fails on a file a killed writer left marked "open for
        /// writing", as plain h5py and h5ls do (to tell whether a file needs `recover`).
        case strictRead
    }

    /// Reads of a metadata block before a SWMR reader gives up: about 17 ms of retrying.
    static let metadataReadAttempts = 24

    static func create(_ path: String) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let fapl = try accessList(clearStatusFlags: false)
            return try H5Handle.make(.file, "cannot create the file") {
                h5.H5Fcreate(path, fl_h5f_acc_trunc(), fl_h5p_default(), fapl.id)
            }
        }
    }

    static func open(_ path: String, _ mode: Mode) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let flags: UInt32
            switch mode {
            case .readWrite, .repair: flags = fl_h5f_acc_rdwr()
            case .swmrWrite: flags = fl_h5f_acc_rdwr() | fl_h5f_acc_swmr_write()
            case .swmrRead: flags = fl_h5f_acc_rdonly() | fl_h5f_acc_swmr_read()
            case .read, .strictRead: flags = fl_h5f_acc_rdonly()
            }
            // Read-only opens may ignore the marks too: nothing is written back.
            let clear = mode == .repair || mode == .swmrRead || mode == .read
            let fapl = try accessList(clearStatusFlags: clear)
            if mode == .swmrRead {
                // A SWMR reader rereads metadata whose checksum fails (the writer may be
                // midway through writing it), sleeping twice as long each time: HDF5's
                // default of 100 attempts would hang for ages on a block a crash damaged.
                try HDF5.check(h5.H5Pset_metadata_read_attempts(fapl.id, UInt32(metadataReadAttempts)),
                               "cannot make a file access property list")
            }
            return try H5Handle.make(.file, "cannot open the file") { h5.H5Fopen(path, flags, fapl.id) }
        }
    }

    private static func accessList(clearStatusFlags: Bool) throws(HDF5Error) -> H5Handle {
        let what = "cannot make a file access property list"
        let fapl = try H5Handle.make(.propertyList, what) { h5.H5Pcreate(fl_h5p_file_access()) }
        try HDF5.check(h5.H5Pset_libver_bounds(fapl.id, fl_h5f_libver_latest(), fl_h5f_libver_latest()), what)
        try HDF5.check(h5.H5Pset_file_locking(fapl.id, false, true), what)
        if clearStatusFlags { try HDF5.check(fl_h5_pset_clear_status_flags(fapl.id), what) }
        return fapl
    }

    /// Moves the file's end-of-allocation mark up to its real size. A writer killed in
    /// SWMR mode can leave objects past the mark it last stored; HDF5 then refuses to
    /// read them ("addr overflow", "len not positive after adjustment for EOA") and a
    /// writer would allocate new space on top of them. In memory only for read-only
    /// files; stored on the next flush or close for writable ones.
    static func extendAllocationToEndOfFile(_ file: hid_t) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            try HDF5.check(h5.H5Fincrement_filesize(file, 0), "cannot adjust the end-of-allocation mark")
        }
    }

    /// Number of open identifiers of this file (1: only the caller's own file id).
    static func openFileIDCount(_ file: hid_t) -> Int {
        HDF5.locked { Int(h5.H5Fget_obj_count(file, UInt32(H5F_OBJ_FILE))) }
    }
}

extension H5File {
    /// How many blocks an object's header has and where it starts (for the tests that
    /// check layout changes rewrite headers in place).
    static func headerLayout(path: String, object: String) throws(HDF5Error) -> (chunks: UInt32, address: UInt64) {
        try HDF5.locked { () throws(HDF5Error) -> (UInt32, UInt64) in
            let file = try open(path, .read)
            var info = H5O_info_t()
            try HDF5.check(h5.H5Oget_info_by_name2(file.id, object, &info, UInt32(H5O_INFO_HDR | H5O_INFO_BASIC),
                                                fl_h5p_default()), "cannot inspect '\(object)'")
            return (info.hdr.nchunks, UInt64(info.addr))
        }
    }
}
