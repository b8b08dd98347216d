import CHDF5

/// Datatypes the recording schema is made of.
enum H5Types {
    /// A variable-length UTF-8 string type (for attributes).
    static func variableString() throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let type = try H5Handle.make(.datatype, "cannot copy the string type") { h5.H5Tcopy(fl_h5t_c_s1()) }
            try HDF5.check(h5.H5Tset_size(type.id, fl_h5t_variable()), "cannot make a variable-length string type")
            try HDF5.check(h5.H5Tset_cset(type.id, H5T_CSET_UTF8), "cannot set UTF-8 on the string type")
            return type
        }
    }

    /// A fixed-size, NUL-padded UTF-8 string type of `bytes` bytes (for row members:
    /// unlike variable-length strings, it lives in the row itself, see the schema).
    static func fixedString(_ bytes: Int) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let what = "cannot make a \(bytes)-byte string type"
            let type = try H5Handle.make(.datatype, what) { h5.H5Tcopy(fl_h5t_c_s1()) }
            try HDF5.check(h5.H5Tset_size(type.id, bytes), what)
            try HDF5.check(h5.H5Tset_strpad(type.id, H5T_STR_NULLPAD), what)
            try HDF5.check(h5.H5Tset_cset(type.id, H5T_CSET_UTF8), what)
            return type
        }
    }

    /// An enumeration over `base` with the given members.
    private static func enumeration<V: BitwiseCopyable>(base: hid_t, _ members: [(String, V)]) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let what = "cannot make an enumeration type"
            let type = try H5Handle.make(.datatype, what) { h5.H5Tenum_create(base) }
            for (name, value) in members {
                let status = withUnsafeBytes(of: value) { h5.H5Tenum_insert(type.id, name, $0.baseAddress) }
                try HDF5.check(status, "cannot add '\(name)' to an enumeration type")
            }
            return type
        }
    }

    /// The HDF5 type of one column (an owned handle, or a predefined type's id).
    private static func memberType(_ type: ColumnType, stageNames: [String]) throws(HDF5Error) -> (id: hid_t, owned: H5Handle?) {
        switch type {
        case .uint8: return (fl_h5t_std_u8le(), nil)
        case .int8: return (fl_h5t_std_i8le(), nil)
        case .int32: return (fl_h5t_std_i32le(), nil)
        case .int64: return (fl_h5t_std_i64le(), nil)
        case .float64: return (fl_h5t_ieee_f64le(), nil)
        case .text(let n):
            let t = try fixedString(n)
            return (t.id, t)
        case .named8(let members):
            let t = try enumeration(base: fl_h5t_std_i8le(), members.map { ($0.name, $0.value.littleEndian) })
            return (t.id, t)
        case .stage:
            let names = [StageNames.source] + StageNames.unique(stageNames)
            let values = [Int32(-1)] + (0..<Int32(stageNames.count)).map { $0 }
            let t = try enumeration(base: fl_h5t_std_i32le(), Array(zip(names, values.map(\.littleEndian))))
            return (t.id, t)
        }
    }

    /// The compound type of `layout`'s rows, little-endian and packed with no padding. The
    /// same type describes the rows in memory (built by `RowEncoder`) and in the file, so
    /// numpy sees exactly the documented dtype.
    static func compound(_ layout: TableLayout, stageNames: [String]) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let type = try H5Handle.make(.datatype, "cannot create a compound type") {
                h5.H5Tcreate(H5T_COMPOUND, layout.rowSize)
            }
            var offset = 0
            for column in layout.columns {
                let member = try memberType(column.type, stageNames: stageNames)
                defer { member.owned.map { _ = $0.close() } }
                try HDF5.check(h5.H5Tinsert(type.id, column.name, offset, member.id),
                               "cannot add member '\(column.name)' to a compound type")
                offset += column.type.size
            }
            return type
        }
    }

    /// A memory type for reading a table of type `file` into rows of `layout`: the members
    /// the file has, at `layout`'s offsets. An enumeration member keeps the file's own type
    /// (its values are what the row holds); others are converted by HDF5.
    static func readingType(_ layout: TableLayout, from file: hid_t, table: String) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let what = "cannot read table '\(table)'"
            guard h5.H5Tget_class(file) == H5T_COMPOUND else {
                throw HDF5Error(what: what, reason: "its rows are not compound (a version-1 detection table?)")
            }
            let type = try H5Handle.make(.datatype, what) { h5.H5Tcreate(H5T_COMPOUND, layout.rowSize) }
            var offset = 0
            for column in layout.columns {
                defer { offset += column.type.size }
                let index = h5.H5Tget_member_index(file, column.name)
                guard index >= 0 else { continue }
                let fileMember = try H5Handle.make(.datatype, what) { h5.H5Tget_member_type(file, UInt32(index)) }
                defer { _ = fileMember.close() }
                if h5.H5Tget_class(fileMember.id) == H5T_ENUM {
                    guard h5.H5Tget_size(fileMember.id) == column.type.size else {
                        throw HDF5Error(what: what, reason: "member '\(column.name)' has \(h5.H5Tget_size(fileMember.id)) bytes, expected \(column.type.size)")
                    }
                    try HDF5.check(h5.H5Tinsert(type.id, column.name, offset, fileMember.id), what)
                } else {
                    // A named code read from a plain integer (an older file) is that integer.
                    let plain: ColumnType
                    switch column.type {
                    case .stage: plain = .int32
                    case .named8: plain = .int8
                    default: plain = column.type
                    }
                    let member = try memberType(plain, stageNames: [])
                    defer { member.owned.map { _ = $0.close() } }
                    try HDF5.check(h5.H5Tinsert(type.id, column.name, offset, member.id), what)
                }
            }
            return type
        }
    }
}
