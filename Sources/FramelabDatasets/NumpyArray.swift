import Foundation
import FramelabCore

/// A NumPy `.npy` file of little-endian float64 or uint8 values, C order (enough for
/// scikit-image's `lfw_subset.npy`).
struct NumpyArray {
    let shape: [Int]
    let values: [Double]

    init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FramelabError(.io, "'\(path)': no such file or not readable")
        }
        func bad(_ why: String) -> FramelabError { FramelabError(.corrupt, "'\(path)': not a supported .npy file (\(why))") }
        let bytes = [UInt8](data)
        guard bytes.count > 12, bytes[0] == 0x93, String(decoding: bytes[1..<6], as: UTF8.self) == "NUMPY" else {
            throw bad("no NUMPY magic")
        }
        let major = bytes[6]
        let headerLength: Int, start: Int
        if major == 1 {
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            start = 10
        } else {
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            start = 12
        }
        guard start + headerLength <= bytes.count else { throw bad("truncated header") }
        let header = String(decoding: bytes[start..<start + headerLength], as: UTF8.self)
        guard header.contains("'fortran_order': False") else { throw bad("Fortran order") }
        guard let open = header.range(of: "'shape': ("), let close = header[open.upperBound...].firstIndex(of: ")") else {
            throw bad("no shape")
        }
        shape = header[open.upperBound..<close].split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        // The shape is input: a negative or overflowing product must not reach a range or an index.
        let body = start + headerLength
        var count = 1
        for n in shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: n)
            guard n >= 0, !overflow, product <= bytes.count - body else { throw bad("shape \(shape) does not match the data") }
            count = product
        }
        if header.contains("'<f8'") {
            guard count <= (bytes.count - body) / 8 else { throw bad("truncated data") }
            values = (0..<count).map { i in
                var bits: UInt64 = 0
                for b in 0..<8 { bits |= UInt64(bytes[body + i * 8 + b]) << (8 * b) }
                return Double(bitPattern: bits)
            }
        } else if header.contains("'|u1'") {
            guard body + count <= bytes.count else { throw bad("truncated data") }
            values = (0..<count).map { Double(bytes[body + $0]) / 255 }
        } else {
            throw bad("dtype is neither <f8 nor |u1")
        }
    }
}
