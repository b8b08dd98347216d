import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// What libjpeg (or libpng, or OpenCV) prints by itself reaches the user as one Framelab
/// warning naming the image, once per distinct text, and `--quiet` silences it.
@Suite struct LibraryWarningTests {
    /// A JPEG with 64 stray bytes before its end marker: complete (so not refused as
    /// truncated), decodable, and libjpeg prints "Corrupt JPEG data: N extraneous bytes
    /// before marker 0xd9" while decoding it.
    func jpegWithStrayBytes(in dir: URL, name: String) throws -> String {
        let clean = dir.appendingPathComponent("clean-\(name)").path
        let m = Mat(format: .bgra8, width: 64, height: 48)
        for y in 0..<48 { for x in 0..<64 { m.setPixel(x: x, y: y, [Double(x * 4), Double(y * 5), 128, 255]) } }
        try ImageCodec.write(m, to: clean)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clean)))
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        bytes.insert(contentsOf: [UInt8](repeating: 0x55, count: 64), at: bytes.count - 2)
        let path = dir.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func libjpegWarningIsOneFramelabLineAndQuietSilencesIt() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let a = try jpegWithStrayBytes(in: dir, name: "a.jpg")
        _ = try jpegWithStrayBytes(in: dir, name: "b.jpg")
        try FileManager.default.removeItem(atPath: dir.appendingPathComponent("clean-a.jpg").path)
        try FileManager.default.removeItem(atPath: dir.appendingPathComponent("clean-b.jpg").path)

        let loud = try TestSupport.framelab(["run", "--source", "images:\(dir.path)", "--filter", "gray"])
        #expect(loud.status == 0, "\(loud.stderr)")
        let warnings = loud.stderr.split(separator: "\n").filter { $0.contains("extraneous bytes") }
        #expect(warnings.count == 1, "one line for the two images' identical text: \(loud.stderr)")
        #expect(warnings.first?.hasPrefix("framelab: warning: image '\(a)': Corrupt JPEG data: ") == true, "\(loud.stderr)")
        #expect(warnings.first?.hasSuffix("extraneous bytes before marker 0xd9") == true, "\(loud.stderr)")

        let quiet = try TestSupport.framelab(["run", "--source", "images:\(dir.path)", "--filter", "gray", "--quiet"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("JPEG"), "\(quiet.stderr)")
    }
}
