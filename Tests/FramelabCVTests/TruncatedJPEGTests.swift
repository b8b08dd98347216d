import FramelabCore
@testable import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// A JPEG cut short is an error naming the file, not an image with grey rows (libjpeg only
/// warns "Premature end of JPEG file" and OpenCV returns the partial image).
@Suite struct TruncatedJPEGTests {
    static let photo = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/messi5.jpg").path

    @Test func wholeJPEGsAreComplete() throws {
        for name in ["messi5.jpg", "t1.jpg"] {
            let path = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/\(name)").path
            #expect(ImageHeader.withFileReader(path) { ImageHeader.jpegEnd($0) } == .complete, "\(name)")
            _ = try ImageCodec.read(path)
        }
        // Other formats are not judged here.
        let png = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/camera.png").path
        #expect(ImageHeader.withFileReader(png) { ImageHeader.jpegEnd($0) } == .unknown)
    }

    @Test(arguments: [0.98, 0.6, 0.2, 0.01])
    func aJPEGCutShortIsRefusedNamingTheFile(keep: Double) throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.photo))
        let dir = try TestSupport.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("cut.jpg").path
        let kept = Int(Double(whole.count) * keep)
        try whole.prefix(kept).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: FramelabError.self) { try ImageCodec.read(path) }
        #expect(error?.message.hasPrefix("image '\(path)': ") == true, "\(String(describing: error))")
        #expect(error?.message.contains("\n") == false)
        if keep > 0.1 {
            #expect(error?.message == "image '\(path)': truncated JPEG: the data ends after \(kept) bytes, before its end-of-image marker")
        }
        // The same from memory.
        let fromBytes = #expect(throws: FramelabError.self) {
            try whole.prefix(kept).withUnsafeBytes { _ = try ImageCodec.decode($0, name: "cut bytes") }
        }
        #expect(fromBytes?.message.hasPrefix("cut bytes: ") == true)
    }

    /// Only the end-of-image marker after the last scan counts: a JPEG written by OpenCV
    /// with its marker stripped, and one with trailing bytes after it (valid, kept).
    @Test func theMarkerAfterTheScanDecides() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("made.jpg").path
        let m = Mat(format: .bgr8, width: 64, height: 48)
        m.fill([10, 200, 30])
        try ImageCodec.write(m, to: path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.suffix(2) == Data([0xFF, 0xD9]))
        try (bytes + Data(repeating: 0, count: 100)).write(to: URL(fileURLWithPath: path))
        #expect(try ImageCodec.read(path).width == 64)
        bytes.removeLast(2)
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: FramelabError.self) { try ImageCodec.read(path) }
    }
}
