import Foundation
import FramelabCore
@testable import FramelabDatasets
import FramelabTestSupport
import Testing

/// `.npy` headers are input: shapes that are negative, overflow or exceed the data, and
/// files cut inside the header, are errors naming the file (they trapped before).
@Suite struct NumpyArrayTests {
    func npy(_ header: String, major: UInt8 = 1, body: [UInt8] = []) throws -> String {
        let path = try TestSupport.makeTemporaryDirectory().appendingPathComponent("a.npy").path
        let h = Array(header.utf8)
        let length: [UInt8] = major == 1 ? [UInt8(h.count & 0xFF), UInt8(h.count >> 8)] : [UInt8(h.count & 0xFF), UInt8(h.count >> 8), 0, 0]
        try Data([0x93] + Array("NUMPY".utf8) + [major, 0] + length + h + body).write(to: URL(fileURLWithPath: path))
        return path
    }

    func header(_ shape: String, _ dtype: String = "|u1") -> String {
        "{'descr': '\(dtype)', 'fortran_order': False, 'shape': (\(shape)), }"
    }

    @Test func aValidArrayLoads() throws {
        let a = try NumpyArray(contentsOf: npy(header("2, 3"), body: [0, 51, 102, 153, 204, 255]))
        #expect(a.shape == [2, 3] && a.values.count == 6 && a.values[5] == 1)
    }

    @Test(arguments: ["-1, 5", "4611686018427387904, 4", "3037000500, 3037000500", "2, 4"])
    func shapesThatDoNotMatchTheDataAreErrors(shape: String) throws {
        let path = try npy(header(shape), body: [1, 2, 3, 4, 5, 6])
        let error = #expect(throws: FramelabError.self) { try NumpyArray(contentsOf: path) }
        #expect(error?.message.hasPrefix("'\(path)': not a supported .npy file") == true, "\(error?.message ?? "")")
        let f8 = try npy(header(shape, "<f8"), body: Array(repeating: 0, count: 48))
        #expect(throws: FramelabError.self) { try NumpyArray(contentsOf: f8) }
    }

    @Test func aFileCutInsideTheHeaderIsAnError() throws {
        let path = try TestSupport.makeTemporaryDirectory().appendingPathComponent("cut.npy").path
        try Data([0x93] + Array("NUMPY".utf8) + [2, 0, 9, 0, 0]).write(to: URL(fileURLWithPath: path))
        #expect(throws: FramelabError.self) { try NumpyArray(contentsOf: path) }
    }
}
