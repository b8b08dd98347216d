import FramelabCore
@testable import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// Image sizes read from headers match what the decoder makes, and a header declaring
/// more than `ImageCodec.maxDecodedPixels` is refused before anything is decoded.
@Suite struct ImageHeaderTests {
    @Test(arguments: [("png", PixelFormat.bgra8), ("jpg", .bgr8), ("bmp", .bgr8), ("webp", .bgra8), ("ppm", .bgr8), ("pgm", .gray8)])
    func headerSizeMatchesTheDecodedImage(ext: String, format: PixelFormat) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent("odd.\(ext)").path
        let m = Mat(format: format, width: 37, height: 11)
        m.fill(Array([10, 200, 30, 255].prefix(format.channels)))
        try ImageCodec.write(m, to: path)
        let size = try #require(ImageHeader.withFileReader(path) { ImageHeader.size($0) } ?? nil)
        #expect(size == (37, 11))
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let fromBytes = data.withUnsafeBytes { ImageHeader.size(ImageHeader.reader($0)) }
        #expect(fromBytes.map { $0 == (37, 11) } == true)
    }

    /// A PNG header of 25000×25000 (a real one is 607 KB and decodes into 5 GB).
    static func hugePNG(width: UInt32 = 25000, height: UInt32 = 25000) -> Data {
        func be(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let ihdr = Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + ihdr + be(0) + Array(repeating: 0, count: 64))
    }

    @Test func aHeaderDeclaringTooManyPixelsIsRefusedNamingTheFile() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = dir.appendingPathComponent("huge.png").path
        try Self.hugePNG().write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: FramelabError.self) { try ImageCodec.read(path) }
        #expect(error?.message == "image '\(path)': its header declares 25000x25000 pixels, more than the 268435456 (2^28) Framelab decodes")
        let overflow = Self.hugePNG(width: .max, height: .max)
        let fromBytes = #expect(throws: FramelabError.self) {
            try overflow.withUnsafeBytes { _ = try ImageCodec.decode($0, name: "png bytes") }
        }
        #expect(fromBytes?.message.hasPrefix("png bytes: its header declares 4294967295x4294967295 pixels") == true)
        // A PNM header with absurd numbers, and one exactly at the limit's side.
        #expect(throws: FramelabError.self) {
            try Data("P6\n# c\n99999999999999999999 2\n255\n".utf8).withUnsafeBytes { _ = try ImageCodec.decode($0) }
        }
    }

    @Test func truncatedAndForeignHeadersGiveNoSize() {
        for bytes: [UInt8] in [[], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF, 0xFF, 0xFF], Array("BM".utf8), Array("RIFF1234WEBP".utf8),
                               Array("P6 12".utf8), Array("GIF89a".utf8)] {
            let size = bytes.withUnsafeBytes { ImageHeader.size(ImageHeader.reader($0)) }
            #expect(size == nil, "\(bytes)")
        }
    }
}
