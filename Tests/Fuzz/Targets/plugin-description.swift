import CFramelabPlugin
import Foundation
import FramelabCore
@testable import FramelabPluginHost

/// The plugin description checker (PluginDescriptionReader) on a description built from
/// the input the way a plugin's static data would be: fl_plugin_element structures with
/// names, versions and descriptions of any bytes (NUL-terminated, as the ABI requires; a
/// NUL inside cuts them short), any kind, function pointers present or not, format and
/// parameter arrays present or missing with counts that match, fall short or are negative,
/// and parameters of every type with ranges and defaults from special values (NaN, ±∞,
/// 2^63, −0) or raw bits. Nothing is loaded with dlopen; the checker never calls an
/// element's functions except output_format, answered from the input too.
///
/// Besides the harness's rule for errors: a description the checker accepts has a one-line
/// description and one-line parameter descriptions (what `plugins list` prints), and its
/// record (what the discovery worker sends the host as JSON) reads back to the same record.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = DescriptionBytes(FuzzInput.bytes(data, size))
    let path = "/plugins/fuzz.so"
    let count = 1 + input.byte() % 3
    let elements = (0..<count).map { _ in input.element() }
    defer { input.free() }
    for (index, element) in elements.enumerated() {
        FuzzInput.check(naming: path) {
            let info = try PluginDescriptionReader.read(element, index: index, path: path, abiVersion: "1.0")
            if info.summary.contains(where: \.isNewline) { fatalError("accepted a description of several lines: \(info.summary.debugDescription)") }
            for p in info.parameters where p.summary.contains(where: \.isNewline) {
                fatalError("accepted a parameter description of several lines: \(p.summary.debugDescription)")
            }
            let record = PluginElementRecord(info)
            guard let json = try? JSONEncoder().encode(record) else { fatalError("an accepted description does not encode: \(record)") }
            guard let back = try? JSONDecoder().decode(PluginElementRecord.self, from: json),
                  let again = back.info(path: path), PluginElementRecord(again) == record else {
                fatalError("an accepted description does not read back from its record: \(record)")
            }
        }
    }
    return 0
}

/// The input read front to back as the fields of a description; past its end every byte is 0.
/// Owns the C memory it hands out (strings, arrays, the output_format answers).
struct DescriptionBytes {
    private var bytes: [UInt8]
    private var at = 0
    private var owned: [UnsafeMutableRawPointer] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> Int {
        defer { at += 1 }
        return at < bytes.count ? Int(bytes[at]) : 0
    }

    mutating func raw<T: FixedWidthInteger>(_ type: T.Type) -> T {
        (0..<MemoryLayout<T>.size).reduce(T.zero) { v, _ in (v << 8) | T(truncatingIfNeeded: byte()) }
    }

    /// Mostly the values a checker must tell apart, sometimes any int32.
    mutating func int32(_ usual: [Int32]) -> Int32 {
        let b = byte()
        return b < usual.count * 32 ? usual[b % usual.count] : raw(Int32.self)
    }

    mutating func double() -> Double {
        let special: [Double] = [0, 1, -1, 0.5, 3, 255, -0.0, .infinity, -.infinity, .nan, 1e300, -1e300,
                                 9.223372036854775807e18, -9.223372036854775808e18, 9.3e18, .leastNonzeroMagnitude]
        let b = byte()
        return b < 224 ? special[b % special.count] : Double(bitPattern: raw(UInt64.self))
    }

    /// A NUL-terminated copy of up to 63 input bytes, or NULL.
    mutating func string() -> UnsafePointer<CChar>? {
        let length = byte()
        guard length < 192 else { return nil }
        let n = length % 64
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: n + 1)
        for i in 0..<n { p[i] = CChar(bitPattern: UInt8(truncatingIfNeeded: byte())) }
        p[n] = 0
        owned.append(UnsafeMutableRawPointer(p))
        return UnsafePointer(p)
    }

    /// An array of `make()` values and the count the description gives for it: the array's
    /// length, fewer (maybe negative), or a NULL array with any count. Never more than the
    /// array holds: reading past it would be the plugin's bug, which no checker can see.
    mutating func array<T>(_ make: (inout DescriptionBytes) -> T) -> (UnsafePointer<T>?, Int32) {
        let mode = byte()
        if mode % 8 == 0 { return (nil, int32([0, 1, -1, 4])) }
        let n = byte() % 6
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(n, 1))
        for i in 0..<n { (p + i).initialize(to: make(&self)) }
        owned.append(UnsafeMutableRawPointer(p))
        let count = mode % 8 == 1 ? Int32(n) - Int32(byte() % 8) : Int32(n)
        return (UnsafePointer(p), count)
    }

    mutating func element() -> fl_plugin_element {
        var e = fl_plugin_element()
        e.kind = int32([Int32(FL_PLUGIN_FILTER), Int32(FL_PLUGIN_DETECTOR), 0, 3])
        e.name = string()
        e.version = string()
        e.description = string()
        (e.formats, e.format_count) = array { $0.int32([1, 2, 3, 4, 0, 5]) }
        (e.params, e.param_count) = array { $0.parameter() }
        let functions = byte()
        if functions & 1 != 0 { e.create = { _, _, _, _, _ in fatalError("the checker called create") } }
        if functions & 2 != 0 { e.destroy = { _ in fatalError("the checker called destroy") } }
        if functions & 4 != 0 { e.process = { _, _, _, _, _ in fatalError("the checker called process") } }
        if functions & 8 != 0 { e.detect = { _, _, _, _, _, _, _ in fatalError("the checker called detect") } }
        if functions & 16 != 0 {
            // output_format answers from four int32s the element's user_data points to.
            let answers = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
            for i in 0..<4 { answers[i] = int32([1, 2, 3, 4, 0, -1]) }
            owned.append(UnsafeMutableRawPointer(answers))
            e.user_data = UnsafeMutableRawPointer(answers)
            e.output_format = { userData, format in
                userData!.assumingMemoryBound(to: Int32.self)[Int(UInt32(bitPattern: format) % 4)]
            }
        }
        return e
    }

    mutating func parameter() -> fl_plugin_param {
        var p = fl_plugin_param()
        p.name = string()
        p.type = int32([Int32(FL_PARAM_FLOAT), Int32(FL_PARAM_INT), Int32(FL_PARAM_BOOL), Int32(FL_PARAM_ENUM),
                        Int32(FL_PARAM_STRING), 0, 6])
        p.minimum = double()
        p.maximum = double()
        p.default_number = double()
        p.default_string = string()
        p.choices = string()
        p.description = string()
        return p
    }

    func free() {
        for p in owned { p.deallocate() }
    }
}
