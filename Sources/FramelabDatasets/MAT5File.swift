import Foundation
import FramelabCore

/// A MATLAB 5 (Level 5 MAT, `save -v7`) file: its variables, as `scipy.io.savemat` and
/// MATLAB write them (The MathWorks, "MAT-File Format", 2019):
///
///     128-byte header   text, subsystem offset, version 0x0100, endian mark "IM"/"MI"
///     data elements     8-byte tag (type, byte count) + data padded to 8 bytes, or a
///                       "small" element: count and type in 4 bytes + up to 4 bytes of data
///
/// Each variable is an `miMATRIX` element, top-level ones possibly inside an
/// `miCOMPRESSED` (zlib) element. Read here: numeric and logical arrays of every class,
/// character arrays, cell arrays (nested). Structs, objects, sparse and complex arrays
/// are refused by name. Every length, count and dimension from the file is checked
/// against the bytes there are, so a truncated or garbled file is a one-line error naming
/// the file and the element, never a crash or an allocation the file's size does not back.
public struct MAT5File: Sendable {
    public let path: String
    /// The variables, in file order.
    public let variables: [(name: String, value: MAT5Value)]

    /// The most bytes one compressed element may inflate to by default (the WIDER kit's
    /// largest inflates to a few megabytes).
    public static let defaultInflateLimit = 256 << 20

    /// Cells nest at most this deep (a recursion bound: the kit's files nest 2 deep).
    static let maxDepth = 32

    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FramelabError(.io, "MAT file '\(path)': no such file or not readable")
        }
        try self.init(bytes: [UInt8](data), path: path)
    }

    /// `inflateLimit`: the most bytes one compressed element may inflate to.
    public init(bytes: [UInt8], path: String, inflateLimit: Int = MAT5File.defaultInflateLimit) throws {
        self.path = path
        guard bytes.count >= 128 else {
            throw FramelabError(.corrupt, "MAT file '\(path)': \(bytes.count) bytes, shorter than the 128-byte MATLAB 5 header")
        }
        let bigEndian: Bool
        switch (bytes[126], bytes[127]) {
        case (UInt8(ascii: "I"), UInt8(ascii: "M")): bigEndian = false
        case (UInt8(ascii: "M"), UInt8(ascii: "I")): bigEndian = true
        default:
            let text = String(decoding: bytes[0..<min(10, bytes.count)], as: UTF8.self)
            let hint = text.hasPrefix("MATLAB 5.0") ? "" : text.hasPrefix("\u{89}HDF") ? " (an HDF5 file: MATLAB 7.3, save -v7)" : ""
            throw FramelabError(.corrupt, "MAT file '\(path)': not a MATLAB 5 file (no endian mark in the header)\(hint)")
        }
        var reader = MAT5Reader(bytes: bytes, start: 128, end: bytes.count, bigEndian: bigEndian, file: path)
        var variables: [(String, MAT5Value)] = []
        while reader.remaining > 0 {
            let at = "element \(variables.count + 1) at byte \(reader.position)"
            var element = try reader.element(at)
            if element.type == MAT5Reader.miCOMPRESSED {
                let inflated: [UInt8]
                do {
                    inflated = try MAT5Inflate.inflate(element.data, limit: inflateLimit)
                } catch {
                    throw FramelabError(.corrupt, "MAT file '\(path)': \(at): \(error.reason)")
                }
                var inner = MAT5Reader(bytes: inflated, start: 0, end: inflated.count, bigEndian: bigEndian, file: path)
                element = try inner.element(at + " (inflated)")
            }
            // Anything but an array at the top level (a subsystem blob) is skipped.
            guard element.type == MAT5Reader.miMATRIX else { continue }
            variables.append(try reader.matrix(element.data, at, depth: 0))
        }
        self.variables = variables
    }

    /// The variable `name`; its absence is an error naming the file and what it has.
    public func variable(_ name: String) throws -> MAT5Value {
        guard let found = variables.first(where: { $0.name == name }) else {
            let has = variables.isEmpty ? "none" : variables.map { quoted($0.name) }.joined(separator: ", ")
            throw FramelabError(.badInput, "MAT file '\(path)': no variable '\(name)' (it has: \(has))")
        }
        return found.value
    }

    public func has(_ name: String) -> Bool { variables.contains { $0.name == name } }
}
