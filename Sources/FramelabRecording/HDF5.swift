import CHDF5

/// An HDF5 call failed: what was being done, and HDF5's own most specific explanation.
struct HDF5Error: Error, CustomStringConvertible {
    let what: String
    let reason: String

    var description: String { reason.isEmpty ? what : "\(what): \(reason)" }
}

/// HDF5's own functions, called as `h5.H5Fcreate(...)`. framelab does not link HDF5: they come
/// from libFramelabHDF5OnDemand.so, loaded by the first call (`HDF5.locked` makes it), so a
/// command that records nothing does not pay for HDF5's 30 libraries at start-up
/// (Sources/CHDF5/include/chdf5_on_demand.h).
let h5: fl_h5_functions = fl_h5_functions_loaded().pointee

/// The one door to the HDF5 library.
///
/// Debian's HDF5 is the serial, non-thread-safe build, so every call into it, from any
/// thread and any object in the process, is made inside `HDF5.locked`. The lock lives in
/// the C shim (recursive, fork-aware) so nested helpers can take it again.
enum HDF5 {
    /// Runs `body` with the process-wide HDF5 lock held.
    @discardableResult
    static func locked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        fl_h5_lock()
        defer { fl_h5_unlock() }
        _ = fl_h5_init()
        return try body()
    }

    /// The current error stack's most specific message, clearing the stack. Lock held.
    static func takeErrorMessage() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        buffer.withUnsafeMutableBufferPointer { fl_h5_error_message($0.baseAddress, $0.count) }
        let message = folded(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        defer { keptMessage = nil }
        return message.isEmpty ? keptMessage ?? "" : message
    }

    /// A message a helper took from the stack before later calls cleared it (a failed
    /// file close): the next `takeErrorMessage` returns it if the stack is empty.
    /// Guarded by the HDF5 lock.
    nonisolated(unsafe) private static var keptMessage: String?

    static func keepForNextMessage(_ message: String) { keptMessage = message }

    /// HDF5's message for a failed system call ("file write failed: time = …, filename = …,
    /// errno = 28, error message = 'No space left on device', buf = 0x…, …") as the
    /// system's own words, e.g. "No space left on device (file write failed)": the
    /// rest repeats what the caller's message already names, over hundreds of characters.
    static func folded(_ message: String) -> String {
        let marker = "error message = '"
        guard let start = message.range(of: marker),
              let end = message[start.upperBound...].firstIndex(of: "'") else { return message }
        let system = message[start.upperBound..<end]
        let action = message.prefix { $0 != ":" }
        return action.count < message.count ? "\(system) (\(action))" : String(system)
    }

    /// Throws if an HDF5 status (herr_t / htri_t) is negative. Lock held.
    @discardableResult
    static func check(_ status: Int32, _ what: @autoclosure () -> String) throws(HDF5Error) -> Int32 {
        if status < 0 { throw HDF5Error(what: what(), reason: takeErrorMessage()) }
        return status
    }

    /// Throws if an HDF5 identifier is negative, else returns it. Lock held.
    static func check(id: hid_t, _ what: @autoclosure () -> String) throws(HDF5Error) -> hid_t {
        if id < 0 { throw HDF5Error(what: what(), reason: takeErrorMessage()) }
        return id
    }

    /// The number of identifiers of any kind the library has open for any file.
    /// Zero once every recording file and reader is closed (used by the tests).
    static func openObjectCount() -> Int {
        locked { fl_h5_open_object_count() }
    }
}
