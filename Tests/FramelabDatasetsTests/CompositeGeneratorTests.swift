import Foundation
import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabTestSupport
import Testing

@Suite struct CompositeGeneratorTests {
    static let images = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images").path

    func generator(seed: UInt64) throws -> CompositeGenerator {
        try CompositeGenerator(lfwSubset: Self.images + "/lfw_subset.npy",
                               backgrounds: ["brick.png", "grass.png"].map { Self.images + "/" + $0 }, seed: seed)
    }

    @Test func sameSeedSameImagesAndBoxes() throws {
        let a = try TestSupport.makeTemporaryDirectory(), b = try TestSupport.makeTemporaryDirectory()
        let da = try generator(seed: 7).generate(count: 3, into: a.path)
        let db = try generator(seed: 7).generate(count: 3, into: b.path)
        #expect(da.images.map(\.faces) == db.images.map(\.faces))
        #expect(da.faceCount >= 3)
        let pa = try ImageCodec.read(da.images[0].path), pb = try ImageCodec.read(db.images[0].path)
        #expect(pa.hasSamePixels(as: pb))
        // The CSV written beside the images loads back to the same boxes.
        let loaded = try FaceDataset.load("csv:" + a.appendingPathComponent("faces.csv").path)
        #expect(loaded.images.map(\.faces) == da.images.map(\.faces))
        let other = try generator(seed: 8).generate(count: 3, into: try TestSupport.makeTemporaryDirectory().path)
        #expect(other.images.map(\.faces) != da.images.map(\.faces))
    }

    @Test func facesArePastedWhereTheBoxesSay() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let d = try generator(seed: 3).generate(count: 1, into: dir.path)
        let image = try ImageCodec.read(d.images[0].path, as: .bgr8)
        let background = try ImageCodec.read(Self.images + "/brick.png", as: .bgr8).resized(width: 640, height: 480)
        let grass = try ImageCodec.read(Self.images + "/grass.png", as: .bgr8).resized(width: 640, height: 480)
        let bg = image.pixel(x: 0, y: 0) == background.pixel(x: 0, y: 0) ? background : grass
        for face in d.images[0].faces {
            // Inside a box the pixels are a gray face crop, not the background.
            let cx = Int(face.box.x + face.box.width / 2), cy = Int(face.box.y + face.box.height / 2)
            let p = image.pixel(x: cx, y: cy)
            #expect(p[0] == p[1] && p[1] == p[2])
            #expect(image.view(x: Int(face.box.x), y: Int(face.box.y), width: Int(face.box.width), height: Int(face.box.height))
                .maxAbsDifference(to: bg.view(x: Int(face.box.x), y: Int(face.box.y), width: Int(face.box.width),
                                              height: Int(face.box.height))) > 20)
        }
    }
}
