import CFramelabPlugin
import Foundation
import FramelabCore
@testable import FramelabPluginHost

/// The plugin description reader (PluginDescriptionLayout, then PluginDescriptionReader)
/// on a description built from the input the way a plugin's static data would be:
/// fl_plugin_element structures with names, versions and descriptions of any bytes
/// (NUL-terminated, as the ABI requires; a NUL inside cuts them short), any kind, function
/// pointers present or not, format and parameter arrays present or missing with counts that
/// match, fall short or are negative, and parameters of every type with ranges and defaults
/// from special values (NaN, ±∞, 2^63, −0) or raw bits. The description is then laid out in
/// memory as a plugin would have: as ABI 2.0 (exact sizes), as a newer 2.x minor (larger
/// structs and strides, junk in the appended bytes), with a struct_size below 2.0's or a
/// stride below the struct_size, or in the frozen ABI 1.0 layout. Nothing is loaded with
/// dlopen; the checker never calls an element's functions except output_format, answered
/// from the input too.
///
/// Besides the harness's rule for errors: a layout with sizes below 2.0's is refused; any
/// other layout reads back every field the plugin wrote; a description the checker accepts
/// has a one-line description and one-line parameter descriptions (what `plugins list`
/// prints), and its record (what the discovery worker sends the host as JSON) reads back to
/// the same record.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = DescriptionBytes(FuzzInput.bytes(data, size))
    let path = "/plugins/fuzz.so"
    let count = 1 + input.byte() % 3
    let elements = (0..<count).map { _ in input.element() }
    // Read last, so older corpus files (which end before it) mean the exact 2.0 layout.
    let layout = DescriptionLayout(&input)
    defer { input.free() }
    let plugin = layout.lay(elements, owner: &input)
    let description: PluginDescription
    do {
        description = try PluginDescriptionLayout.read(plugin, path: path)
    } catch let error as FramelabError {
        guard layout.isBroken else { fatalError("refused a well-formed layout \(layout): \(error.message)") }
        if !error.message.hasPrefix(path) || error.message.contains(where: \.isNewline) {
            fatalError("a layout error that is not one line naming the file: \(error.message.debugDescription)")
        }
        return 0
    } catch {
        fatalError("threw \(error)")
    }
    if layout.isBroken { fatalError("accepted a layout with sizes below ABI 2.0's: \(layout)") }
    for (index, (element, read)) in zip(elements, description.elements).enumerated() {
        layout.expectSameFields(element, read.element)
        FuzzInput.check(naming: path) {
            let info = try PluginDescriptionReader.read(read, index: index, path: path, abiVersion: description.abiVersion)
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

/// How the description is laid out in memory, chosen by one input byte (0: exact 2.0).
struct DescriptionLayout: CustomStringConvertible {
    enum Mode: Int { case exact = 0, newerMinor, smallStructSize, smallStride, version1 }
    let mode: Mode
    /// Bytes appended to each struct by a "newer minor" (and taken off by a broken one).
    let extra: Int
    let junk: UInt8

    init(_ input: inout DescriptionBytes) {
        let b = input.byte()
        mode = Mode(rawValue: b % 5)!
        extra = 8 * (1 + (b / 5) % 8)
        junk = UInt8(truncatingIfNeeded: input.byte() | 0x80)
    }

    var isBroken: Bool { mode == .smallStructSize || mode == .smallStride }
    var description: String { "\(mode), extra \(extra)" }

    /// The description as a plugin's memory (owned by `owner`): the fl_plugin to read.
    func lay(_ elements: [fl_plugin_element], owner: inout DescriptionBytes) -> UnsafeRawPointer {
        if mode == .version1 { return layVersion1(elements, owner: &owner) }
        let hostElement = MemoryLayout<fl_plugin_element>.stride, hostParam = MemoryLayout<fl_plugin_param>.stride
        let grow = mode == .newerMinor ? extra : 0
        let elementSize = mode == .smallStructSize ? hostElement - extra : hostElement + grow
        let elementStride = mode == .smallStride ? hostElement + grow - 8 : hostElement + grow
        let paramSize = hostParam + grow, paramStride = hostParam + grow
        let array = owner.allocate(bytes: max(1, elements.count * elementStride), junk: junk)
        for (i, element) in elements.enumerated() {
            var e = element
            e.struct_size = UInt32(max(0, elementSize))
            e.param_stride = UInt32(paramStride)
            if let params = e.params {
                let n = max(0, Int(e.param_count))
                let packed = owner.allocate(bytes: max(1, n * paramStride), junk: junk)
                for j in 0..<n {
                    var p = params[j]
                    p.struct_size = UInt32(paramSize)
                    withUnsafeBytes(of: &p) { (packed + j * paramStride).copyMemory(from: $0.baseAddress!, byteCount: min(hostParam, paramSize)) }
                }
                e.params = UnsafeRawPointer(packed).assumingMemoryBound(to: fl_plugin_param.self)
            }
            withUnsafeBytes(of: &e) { (array + i * elementStride).copyMemory(from: $0.baseAddress!, byteCount: min(hostElement, elementStride)) }
        }
        let plugin = owner.allocate(bytes: MemoryLayout<fl_plugin>.stride + grow, junk: junk)
        var p = fl_plugin(abi_major: UInt32(FL_PLUGIN_ABI_MAJOR), abi_minor: UInt32(FL_PLUGIN_ABI_MINOR),
                          struct_size: UInt32(MemoryLayout<fl_plugin>.stride + grow), element_stride: UInt32(elementStride),
                          name: nil, elements: UnsafeRawPointer(array).assumingMemoryBound(to: fl_plugin_element.self),
                          element_count: Int32(elements.count))
        withUnsafeBytes(of: &p) { plugin.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return UnsafeRawPointer(plugin)
    }

    /// The same description in the frozen 1.0 structs.
    private func layVersion1(_ elements: [fl_plugin_element], owner: inout DescriptionBytes) -> UnsafeRawPointer {
        let array = owner.allocate(bytes: max(1, elements.count) * MemoryLayout<fl_plugin_v1_element>.stride, junk: 0)
            .bindMemory(to: fl_plugin_v1_element.self, capacity: max(1, elements.count))
        for (i, e) in elements.enumerated() {
            var params: UnsafePointer<fl_plugin_v1_param>?
            if let source = e.params {
                let n = max(0, Int(e.param_count))
                let packed = owner.allocate(bytes: max(1, n) * MemoryLayout<fl_plugin_v1_param>.stride, junk: 0)
                    .bindMemory(to: fl_plugin_v1_param.self, capacity: max(1, n))
                for j in 0..<n {
                    let q = source[j]
                    packed[j] = fl_plugin_v1_param(name: q.name, type: q.type, minimum: q.minimum, maximum: q.maximum,
                                                   default_number: q.default_number, default_string: q.default_string,
                                                   choices: q.choices, description: q.description)
                }
                params = UnsafePointer(packed)
            }
            array[i] = fl_plugin_v1_element(kind: e.kind, name: e.name, version: e.version, description: e.description,
                                            formats: e.formats, format_count: e.format_count, params: params,
                                            param_count: e.param_count, user_data: e.user_data, create: e.create,
                                            output_format: e.output_format, process: e.process, detect: e.detect,
                                            destroy: e.destroy)
        }
        let plugin = owner.allocate(bytes: MemoryLayout<fl_plugin_v1>.stride, junk: 0)
        plugin.bindMemory(to: fl_plugin_v1.self, capacity: 1).pointee = fl_plugin_v1(
            abi_major: 1, abi_minor: 0, name: nil, elements: UnsafePointer(array), element_count: Int32(elements.count))
        return UnsafeRawPointer(plugin)
    }

    /// The fields the host copied are the ones the plugin wrote (the parameters are checked
    /// by the reader, which sees only the copies).
    func expectSameFields(_ wrote: fl_plugin_element, _ read: fl_plugin_element) {
        guard wrote.kind == read.kind, wrote.name == read.name, wrote.version == read.version,
              wrote.description == read.description, wrote.formats == read.formats, wrote.format_count == read.format_count,
              wrote.param_count == read.param_count, wrote.user_data == read.user_data,
              (wrote.create == nil) == (read.create == nil), (wrote.destroy == nil) == (read.destroy == nil),
              (wrote.process == nil) == (read.process == nil), (wrote.detect == nil) == (read.detect == nil),
              (wrote.output_format == nil) == (read.output_format == nil),
              read.process_frame == nil, read.detect_frame == nil, read.set_parameter == nil else {
            fatalError("the \(self) layout read back different fields")
        }
    }
}

/// The input read front to back as the fields of a description; past its end every byte is 0.
/// Owns the C memory it hands out (strings, arrays, the output_format answers).
struct DescriptionBytes {
    private var bytes: [UInt8]
    private var at = 0
    private var owned: [UnsafeMutableRawPointer] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// `bytes` of memory filled with `junk`, freed with the rest.
    mutating func allocate(bytes: Int, junk: UInt8) -> UnsafeMutableRawPointer {
        let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        p.initializeMemory(as: UInt8.self, repeating: junk, count: bytes)
        owned.append(p)
        return p
    }

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
