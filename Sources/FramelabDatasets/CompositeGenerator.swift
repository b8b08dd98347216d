import Foundation
import FramelabCore
import FramelabCV

/// Makes composite images with exactly known faces: real face crops (scikit-image's LFW
/// subset: 100 grayscale 25x25 faces) scaled and placed at seeded random positions on
/// real photographs used as backgrounds. The same seed gives the same images and boxes.
public struct CompositeGenerator {
    public var width = 640
    public var height = 480
    public var facesPerImage = 1...4
    /// Side of a placed face, in pixels.
    public var faceSizes = 48...160
    public let seed: UInt64
    let faces: [Mat]
    let backgrounds: [Mat]

    /// `lfwSubset`: the .npy file; `backgrounds`: image files (any size; resized to fill).
    public init(lfwSubset: String, backgrounds: [String], seed: UInt64) throws {
        self.seed = seed
        let array = try NumpyArray(contentsOf: lfwSubset)
        guard array.shape.count == 3, array.shape[0] >= 100 else {
            throw FramelabError(.corrupt, "'\(lfwSubset)': expected an N x H x W array of at least 100 crops")
        }
        let h = array.shape[1], w = array.shape[2]
        // The first 100 crops are faces (the rest are not).
        faces = (0..<100).map { n in
            let m = Mat(format: .gray8, width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    m.setPixel(x: x, y: y, [min(255, max(0, array.values[(n * h + y) * w + x] * 255))])
                }
            }
            return m
        }
        guard !backgrounds.isEmpty else { throw FramelabError(.badInput, "composite generator: no background images") }
        self.backgrounds = try backgrounds.map { try ImageCodec.read($0, as: .bgr8) }
    }

    /// Writes `count` PNGs and `faces.csv` (Framelab's CSV format) into `folder`.
    @discardableResult
    public func generate(count: Int, into folder: String) throws -> FaceDataset {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw FramelabError(.io, "cannot create '\(folder)': \(error.localizedDescription)")
        }
        var rng = SplitMix64(seed: seed)
        var images: [AnnotatedImage] = []
        for index in 0..<count {
            let bg = backgrounds[Int(rng.next() % UInt64(backgrounds.count))]
            let canvas = try bg.resized(width: width, height: height)
            var boxes: [FaceBox] = []
            let wanted = facesPerImage.lowerBound + Int(rng.next() % UInt64(facesPerImage.count))
            var attempts = 0
            while boxes.count < wanted && attempts < 200 {
                attempts += 1
                let side = faceSizes.lowerBound + Int(rng.next() % UInt64(faceSizes.count))
                let x = Int(rng.next() % UInt64(width - side)), y = Int(rng.next() % UInt64(height - side))
                let box = FaceBox(x: Double(x), y: Double(y), width: Double(side), height: Double(side))
                // Keep faces apart (a margin of a quarter face) so each is one detection.
                let margin = Double(side) / 4
                if boxes.contains(where: { b in
                    b.x < box.x + box.width + margin && box.x < b.x + b.width + margin
                        && b.y < box.y + box.height + margin && box.y < b.y + b.height + margin
                }) { continue }
                let face = faces[Int(rng.next() % UInt64(faces.count))]
                let scaled = try face.resized(width: side, height: side).converted(to: .bgr8)
                canvas.view(x: x, y: y, width: side, height: side).copyPixels(from: scaled)
                boxes.append(box)
            }
            let name = String(format: "composite-%04d.png", index)
            let path = (folder as NSString).appendingPathComponent(name)
            try ImageCodec.write(canvas, to: path)
            images.append(AnnotatedImage(path: path, name: name, faces: boxes.map { GroundTruthFace(box: $0) }))
        }
        try CSVAnnotationLoader.write(images, to: (folder as NSString).appendingPathComponent("faces.csv")) { $0.name }
        return FaceDataset(format: .csv, path: (folder as NSString).appendingPathComponent("faces.csv"), images: images)
    }
}
