import CHDF5

/// Datatypes the recording schema is made of.
enum H5Types {
    /// A variable-length UTF-8 string type (for attributes).
    static func variableString() throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let type = try H5Handle.make(.datatype, "cannot copy the string type") { H5Tcopy(fl_h5t_c_s1()) }
            try HDF5.check(H5Tset_size(type.id, fl_h5t_variable()), "cannot make a variable-length string type")
            try HDF5.check(H5Tset_cset(type.id, H5T_CSET_UTF8), "cannot set UTF-8 on the string type")
            return type
        }
    }

    /// A fixed-size, NUL-padded UTF-8 string type of `bytes` bytes (for record members:
    /// unlike variable-length strings, it lives in the row itself, see Schema).
    static func fixedString(_ bytes: Int) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let what = "cannot make a \(bytes)-byte string type"
            let type = try H5Handle.make(.datatype, what) { H5Tcopy(fl_h5t_c_s1()) }
            try HDF5.check(H5Tset_size(type.id, bytes), what)
            try HDF5.check(H5Tset_strpad(type.id, H5T_STR_NULLPAD), what)
            try HDF5.check(H5Tset_cset(type.id, H5T_CSET_UTF8), what)
            return type
        }
    }

    /// One member of a packed compound record.
    struct Field {
        enum Kind {
            case uint8, int32, int64
            /// UTF-8 text in a fixed number of bytes, NUL-padded.
            case string(Int)

            var size: Int {
                switch self {
                case .uint8: return 1
                case .int32: return 4
                case .int64: return 8
                case .string(let n): return n
                }
            }
        }

        let name: String
        let kind: Kind
    }

    /// Bytes in one packed record of `fields`.
    static func recordSize(_ fields: [Field]) -> Int {
        fields.reduce(0) { $0 + $1.kind.size }
    }

    /// The compound type of `fields`, little-endian and packed with no padding. The same
    /// type describes the rows in memory (built by `RecordEncoder`) and in the file, so
    /// numpy sees exactly the documented dtype.
    static func packedCompound(_ fields: [Field]) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            let type = try H5Handle.make(.datatype, "cannot create a compound type") {
                H5Tcreate(H5T_COMPOUND, recordSize(fields))
            }
            var offset = 0
            for field in fields {
                var owned: H5Handle?
                let member: hid_t
                switch field.kind {
                case .uint8: member = fl_h5t_std_u8le()
                case .int32: member = fl_h5t_std_i32le()
                case .int64: member = fl_h5t_std_i64le()
                case .string(let n):
                    owned = try fixedString(n)
                    member = owned!.id
                }
                try HDF5.check(H5Tinsert(type.id, field.name, offset, member),
                               "cannot add member '\(field.name)' to a compound type")
                offset += field.kind.size
            }
            return type
        }
    }
}
