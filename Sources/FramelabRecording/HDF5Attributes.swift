#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHDF5

/// Reads and writes `AttributeValue`s on an HDF5 object (file root or group).
enum H5Attributes {
    /// Writes (or replaces) attribute `name` on the object `location`.
    /// Writes every attribute of `attributes`, in name order.
    static func write(_ attributes: [String: AttributeValue], on location: hid_t) throws(HDF5Error) {
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) { try write(value, named: name, on: location) }
    }

    static func write(_ value: AttributeValue, named name: String, on location: hid_t) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            let what = "cannot write attribute '\(name)'"
            if try HDF5.check(h5.H5Aexists(location, name), what) > 0 {
                try HDF5.check(h5.H5Adelete(location, name), what)
            }
            switch value {
            case .int(var v):
                try create(name, on: location, fileType: fl_h5t_std_i64le(), count: nil, what) { (attr) throws(HDF5Error) in
                    try HDF5.check(h5.H5Awrite(attr, fl_h5t_native_int64(), &v), what)
                }
            case .double(var v):
                try create(name, on: location, fileType: fl_h5t_ieee_f64le(), count: nil, what) { (attr) throws(HDF5Error) in
                    try HDF5.check(h5.H5Awrite(attr, fl_h5t_native_double(), &v), what)
                }
            case .string(let s):
                try writeStrings([s], scalar: true, name, on: location, what)
            case .strings(let a):
                try writeStrings(a, scalar: false, name, on: location, what)
            }
        }
    }

    /// Writes (or replaces) a scalar string attribute stored inside the object's header
    /// (a fixed-length string), not in the file's global heap: on a full disk this
    /// rewrites space the header already has, where a variable-length string would need
    /// a new heap block (h5py reads it as bytes; Framelab's readers decode both).
    static func writeInHeader(_ string: String, named name: String, on location: hid_t) throws(HDF5Error) {
        try HDF5.locked { () throws(HDF5Error) in
            let what = "cannot write attribute '\(name)'"
            if try HDF5.check(h5.H5Aexists(location, name), what) > 0 {
                try HDF5.check(h5.H5Adelete(location, name), what)
            }
            var bytes = Array(string.utf8) + [0]
            let type = try H5Handle.make(.datatype, what) { h5.H5Tcopy(fl_h5t_c_s1()) }
            try HDF5.check(h5.H5Tset_size(type.id, bytes.count), what)
            try HDF5.check(h5.H5Tset_cset(type.id, H5T_CSET_UTF8), what)
            try HDF5.check(h5.H5Tset_strpad(type.id, H5T_STR_NULLTERM), what)
            try create(name, on: location, fileType: type.id, count: nil, what) { (attr) throws(HDF5Error) in
                try HDF5.check(h5.H5Awrite(attr, type.id, &bytes), what)
            }
        }
    }

    private static func writeStrings(_ strings: [String], scalar: Bool, _ name: String, on location: hid_t,
                                     _ what: String) throws(HDF5Error) {
        let type = try H5Types.variableString()
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        if pointers.isEmpty { pointers.append(nil) }  // a valid buffer for a zero-length write
        try create(name, on: location, fileType: type.id, count: scalar ? nil : strings.count, what) { (attr) throws(HDF5Error) in
            try HDF5.check(pointers.withUnsafeMutableBufferPointer { h5.H5Awrite(attr, type.id, $0.baseAddress) }, what)
        }
    }

    /// Creates the attribute (scalar when `count` is nil, else 1-D), runs `write` on it.
    private static func create(_ name: String, on location: hid_t, fileType: hid_t, count: Int?, _ what: String,
                               _ write: (hid_t) throws(HDF5Error) -> Void) throws(HDF5Error) {
        let space = try H5Handle.make(.dataspace, what) { () -> hid_t in
            if let count {
                var dims = [hsize_t(count)]
                return h5.H5Screate_simple(1, &dims, nil)
            }
            return h5.H5Screate(H5S_SCALAR)
        }
        let attr = try H5Handle.make(.attribute, what) {
            h5.H5Acreate2(location, name, fileType, space.id, fl_h5p_default(), fl_h5p_default())
        }
        try write(attr.id)
        try HDF5.check(attr.close(), what)
    }

    /// Every attribute of `location` that maps onto `AttributeValue`; others are skipped.
    static func readAll(on location: hid_t) throws(HDF5Error) -> [String: AttributeValue] {
        try HDF5.locked { () throws(HDF5Error) -> [String: AttributeValue] in
            var info = H5O_info_t()
            try HDF5.check(h5.H5Oget_info2(location, &info, UInt32(H5O_INFO_NUM_ATTRS)), "cannot list attributes")
            var result: [String: AttributeValue] = [:]
            for i in 0..<info.num_attrs {
                // One attribute a crash damaged must not hide the others: skip it.
                guard let attr = try? H5Handle.make(.attribute, "cannot open attribute \(i)", {
                    h5.H5Aopen_by_idx(location, ".", H5_INDEX_NAME, H5_ITER_INC, i, fl_h5p_default(), fl_h5p_default())
                }), let name = try? attributeName(attr.id) else { continue }
                if let value = try? read(attr.id, name: name) { result[name] = value }
            }
            return result
        }
    }

    /// One attribute, or nil when it does not exist or has a type `AttributeValue` lacks.
    static func read(named name: String, on location: hid_t) throws(HDF5Error) -> AttributeValue? {
        try HDF5.locked { () throws(HDF5Error) -> AttributeValue? in
            guard try HDF5.check(h5.H5Aexists(location, name), "cannot look for attribute '\(name)'") > 0 else { return nil }
            let attr = try H5Handle.make(.attribute, "cannot open attribute '\(name)'") {
                h5.H5Aopen(location, name, fl_h5p_default())
            }
            return try read(attr.id, name: name)
        }
    }

    private static func attributeName(_ attr: hid_t) throws(HDF5Error) -> String {
        let length = h5.H5Aget_name(attr, 0, nil)
        guard length >= 0 else { throw HDF5Error(what: "cannot get an attribute's name", reason: HDF5.takeErrorMessage()) }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        _ = h5.H5Aget_name(attr, buffer.count, &buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func read(_ attr: hid_t, name: String) throws(HDF5Error) -> AttributeValue? {
        let what = "cannot read attribute '\(name)'"
        let type = try H5Handle.make(.datatype, what) { h5.H5Aget_type(attr) }
        let space = try H5Handle.make(.dataspace, what) { h5.H5Aget_space(attr) }
        let rank = h5.H5Sget_simple_extent_ndims(space.id)
        let count = Int(h5.H5Sget_simple_extent_npoints(space.id))
        guard rank >= 0, count >= 0 else { throw HDF5Error(what: what, reason: HDF5.takeErrorMessage()) }
        switch h5.H5Tget_class(type.id) {
        case H5T_INTEGER where rank == 0:
            var v: Int64 = 0
            try HDF5.check(h5.H5Aread(attr, fl_h5t_native_int64(), &v), what)
            return .int(v)
        case H5T_FLOAT where rank == 0:
            var v: Double = 0
            try HDF5.check(h5.H5Aread(attr, fl_h5t_native_double(), &v), what)
            return .double(v)
        case H5T_STRING where rank <= 1:
            let strings = try readStrings(attr, fileType: type.id, count: count, what)
            return rank == 0 ? .string(strings.first ?? "") : .strings(strings)
        default:
            return nil
        }
    }

    private static func readStrings(_ attr: hid_t, fileType: hid_t, count: Int, _ what: String) throws(HDF5Error) -> [String] {
        guard count > 0 else { return [] }
        let cset = h5.H5Tget_cset(fileType)
        if h5.H5Tis_variable_str(fileType) > 0 {
            let memType = try H5Types.variableString()
            try HDF5.check(h5.H5Tset_cset(memType.id, cset), what)
            var pointers = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
            try HDF5.check(pointers.withUnsafeMutableBufferPointer { h5.H5Aread(attr, memType.id, $0.baseAddress) }, what)
            defer {
                // Strings HDF5 allocated for us; H5free_memory pairs with its allocator.
                pointers.forEach { if let p = $0 { _ = h5.H5free_memory(p) } }
            }
            return pointers.map { $0.map { String(cString: $0) } ?? "" }
        }
        // Fixed-length strings (as other tools may write): read the raw bytes, trim padding.
        let size = h5.H5Tget_size(fileType)
        let memType = try H5Handle.make(.datatype, what) { h5.H5Tcopy(fileType) }
        var bytes = [UInt8](repeating: 0, count: size * count)
        try HDF5.check(h5.H5Aread(attr, memType.id, &bytes), what)
        return (0..<count).map { i in
            let field = bytes[(i * size)..<((i + 1) * size)]
            let text = field.prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self).trimmingTrailingSpaces()
        }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
