import CHDF5

/// Owns one HDF5 identifier and closes it exactly once (explicitly or on deinit).
///
/// All uses of `id` must be inside `HDF5.locked`; closing takes the lock itself.
final class H5Handle: @unchecked Sendable {
    enum Kind {
        case file, group, dataset, datatype, dataspace, attribute, propertyList
    }

    let kind: Kind
    private(set) var id: hid_t

    /// Takes ownership of `id`, which must be valid (non-negative).
    init(_ id: hid_t, _ kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// Makes an identifier with `make` (lock held) and wraps it, or throws HDF5's error.
    static func make(_ kind: Kind, _ what: @autoclosure () -> String,
                     _ make: () -> hid_t) throws(HDF5Error) -> H5Handle {
        try HDF5.locked { () throws(HDF5Error) -> H5Handle in
            H5Handle(try HDF5.check(id: make(), what()), kind)
        }
    }

    /// Closes the identifier. Returns HDF5's status (a file close can fail while writing).
    @discardableResult
    func close() -> Int32 {
        HDF5.locked {
            guard id >= 0 else { return 0 }
            defer { id = -1 }
            switch kind {
            case .file: return Self.closeFile(id)
            case .group: return h5.H5Gclose(id)
            case .dataset: return h5.H5Dclose(id)
            case .datatype: return h5.H5Tclose(id)
            case .dataspace: return h5.H5Sclose(id)
            case .attribute: return h5.H5Aclose(id)
            case .propertyList: return h5.H5Pclose(id)
            }
        }
    }

    /// Closes a file; one whose last writes fail (a full disk) is closed detached from the
    /// disk (`fl_h5_close_detached`): HDF5 1.10 would otherwise crash at exit. Its error
    /// stays for `HDF5.takeErrorMessage`. Lock held.
    private static func closeFile(_ id: hid_t) -> Int32 {
        var intent: UInt32 = 0
        guard h5.H5Fget_intent(id, &intent) >= 0, intent & fl_h5f_acc_rdwr() != 0 else { return h5.H5Fclose(id) }
        if h5.H5Fflush(id, H5F_SCOPE_LOCAL) >= 0 { return h5.H5Fclose(id) }
        let reason = HDF5.takeErrorMessage()
        _ = fl_h5_close_detached(id)
        HDF5.keepForNextMessage(reason)
        return -1
    }

    deinit { close() }
}
