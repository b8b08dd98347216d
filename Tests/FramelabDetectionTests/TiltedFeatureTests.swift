import Foundation
import FramelabCore
import FramelabCV
@testable import FramelabDetection
import FramelabElements
import FramelabTestSupport
import Testing

/// Cascades with 45-degree (tilted) Haar features: the rotated-sum table against its
/// definition, and Framelab's `cascade` against OpenCV's CascadeClassifier on the
/// Debian cascades that have such features.
@Suite struct TiltedFeatureTests {
    static func photo(_ name: String) throws -> Mat { try HaarCascadeEvaluatorTests.photo(name) }

    /// Every window that passes all stages (neighbours 0: no grouping), clipped to the
    /// image as OpenCV returns them.
    static func windows(_ e: HaarCascadeEvaluator, _ image: Mat, _ s: SlidingWindowSettings) throws -> [IntRect] {
        precondition(s.minNeighbours == 0)
        return try e.detect(image, settings: s).map {
            IntRect(x: Int($0.box.x), y: Int($0.box.y), width: Int($0.box.width), height: Int($0.box.height))
        }
    }

    @Test func theCascadesUnderTestReallyHaveTiltedFeatures() throws {
        for xml in ["haarcascade_smile.xml", "haarcascade_eye_tree_eyeglasses.xml"] {
            let cascade = try HaarCascade(contentsOf: CascadeFiles.path("haarcascades/" + xml))
            #expect(cascade.hasTiltedFeatures, "\(xml)")
        }
        #expect(!(try HaarCascade(contentsOf: CascadeFiles.haarFrontalFace)).hasTiltedFeatures)
    }

    @Test func rotatedSumTableMatchesItsDefinition() {
        // OpenCV's definition: T(X, Y) = Σ image(x, y) over y < Y, |x − X + 1| <= Y − 1 − y.
        for (width, height) in [(13, 9), (5, 17), (1, 1), (31, 4)] {
            var pixels = [UInt8](repeating: 0, count: width * height)
            for i in pixels.indices { pixels[i] = UInt8((i * 73 + i / width * 29 + 11) % 256) }
            var tables = IntegralImages()
            tables.reserve(maxWidth: width, maxHeight: height, padding: 20, tilted: true)
            pixels.withUnsafeBufferPointer { tables.compute($0.baseAddress!, width: width, height: height) }
            for Y in 0...height {
                for X in 0...width {
                    var expected: Int32 = 0
                    for y in 0..<Y {
                        for x in 0..<width where abs(x - X + 1) <= Y - 1 - y { expected += Int32(pixels[y * width + x]) }
                    }
                    let got = tables.sum[tables.tableSize + Y * tables.stride + X]
                    #expect(got == expected, "\(width)x\(height) T(\(X), \(Y))")
                }
            }
        }
    }

    @Test(arguments: ["haarcascade_smile.xml", "haarcascade_eye_tree_eyeglasses.xml"])
    func rawWindowsEqualOpenCVsOnATiltedCascade(xml: String) throws {
        let path = CascadeFiles.path("haarcascades/" + xml)
        let image = try Self.photo("astronaut.png")
        let s = SlidingWindowSettings(scaleFactor: 1.2, minNeighbours: 0, minSize: 18)
        let ours = try Self.windows(HaarCascadeEvaluator(path: path), image, s)
        let theirs = try CascadeClassifier(path: path).detect(image, scaleFactor: 1.2, minNeighbours: 0, minSize: 18)
            .map { IntRect(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)) }
        #expect(theirs.count > 20, "too few windows to compare: \(theirs.count)")
        let common = Set(ours).intersection(theirs).count
        print("\(xml) raw windows: ours \(ours.count), opencv \(theirs.count), common \(common)")
        #expect(Double(common) >= 0.98 * Double(theirs.count))
        #expect(Double(ours.count) <= 1.02 * Double(theirs.count))
    }

    @Test func rawWindowsEqualOpenCVsInAFaceRegionAtScale1_1() throws {
        // The mouth band of the astronaut's face as a zero-copy view, with a maximum size:
        // scale 1.1 puts window corners exactly on .5 in float (rounded as OpenCV does),
        // and the band's height, not the maximum size, ends the pyramid.
        let path = CascadeFiles.smile
        let face = try Self.photo("astronaut.png")
        let band = face.view(x: 177, y: 123, width: 95, height: 38)
        let s = SlidingWindowSettings(scaleFactor: 1.1, minNeighbours: 0, minSize: 15, maxSize: 95)
        let ours = try Self.windows(HaarCascadeEvaluator(path: path), band, s)
        let theirs = try CascadeClassifier(path: path).detect(band, scaleFactor: 1.1, minNeighbours: 0, minSize: 15, maxSize: 95)
            .map { IntRect(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)) }
        #expect(!theirs.isEmpty)
        #expect(Set(ours) == Set(theirs) && ours.count == theirs.count,
                "ours \(ours.count), opencv \(theirs.count); only ours: \(Set(ours).subtracting(theirs).sorted { ($0.width, $0.y, $0.x) < ($1.width, $1.y, $1.x) }); only opencv: \(Set(theirs).subtracting(ours).sorted { ($0.width, $0.y, $0.x) < ($1.width, $1.y, $1.x) })")
        let full = try Self.windows(HaarCascadeEvaluator(path: CascadeFiles.eye), face, s)
        let fullCV = try CascadeClassifier(path: CascadeFiles.eye).detect(face, scaleFactor: 1.1, minNeighbours: 0, minSize: 15, maxSize: 95)
            .map { IntRect(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)) }
        #expect(Set(full) == Set(fullCV), "eyes full image: only ours: \(Set(full).subtracting(fullCV)); only opencv: \(Set(fullCV).subtracting(full))")
    }

    @Test(arguments: ["haarcascade_smile.xml", "haarcascade_eye_tree_eyeglasses.xml"])
    func findsTheSameBoxesAsOpenCVOnATiltedCascade(xml: String) throws {
        let path = CascadeFiles.path("haarcascades/" + xml)
        let ours = try HaarCascadeEvaluator(path: path)
        let theirs = try CascadeClassifier(path: path)
        var matched = 0, total = 0, identical = 0
        for name in ["astronaut.png", "t1.jpg", "messi5.jpg", "tom_hanks.png"] {
            let image = try Self.photo(name)
            let a = try ours.detect(image, settings: SlidingWindowSettings(scaleFactor: 1.1, minNeighbours: 3, minSize: 18))
            let b = try theirs.detect(image, scaleFactor: 1.1, minNeighbours: 3, minSize: 18)
            total += b.count
            for box in b {
                let ob = BoundingBox(x: box.x, y: box.y, width: box.width, height: box.height)
                if a.contains(where: { $0.box.iou(ob) >= 0.8 }) { matched += 1 }
                if a.contains(where: { $0.box == ob && $0.score == box.score }) { identical += 1 }
            }
            print("\(xml) \(name): opencv \(b.count) boxes, cascade \(a.count)")
        }
        print("\(xml): \(matched) of \(total) OpenCV boxes matched at IoU >= 0.8, \(identical) identical (box and neighbours)")
        #expect(total > 0)
        #expect(Double(matched) >= 0.98 * Double(total), "matched \(matched) of \(total)")
    }

    @Test func landmarksWithCascadeEqualOpenCVs() throws {
        // landmarks=true: eyes with haarcascade_eye.xml, the mouth with haarcascade_smile.xml
        // (tilted features), both on Framelab's evaluator for `cascade`.
        let registry = DetectorRegistry.builtIns
        let ours = try registry.instantiate(ElementSpec(parsing: "cascade:landmarks=true"))
        let theirs = try registry.instantiate(ElementSpec(parsing: "opencv-haar:landmarks=true"))
        var compared = 0, equal = 0, mouths = 0
        for name in ["astronaut.png", "t1.jpg", "tom_hanks.png"] {
            let image = try ImageCodec.read(
                (HaarCascadeEvaluatorTests.sample as NSString).appendingPathComponent(name), as: .bgr8)
            let a = try ours.detect(image), b = try theirs.detect(image)
            for face in b {
                guard let mine = a.first(where: { $0.box.iou(face.box) >= 0.8 }) else { continue }
                compared += 1
                if face.mouth != nil { mouths += 1 }
                if mine.leftEye == face.leftEye && mine.rightEye == face.rightEye && mine.mouth == face.mouth {
                    equal += 1
                } else {
                    print("\(name): face \(face.box): opencv \(face), cascade \(mine)")
                }
            }
        }
        print("landmarks: \(equal) of \(compared) faces with equal eyes and mouth (\(mouths) mouths found)")
        #expect(compared > 0 && mouths > 0)
        #expect(Double(equal) >= 0.98 * Double(compared), "\(equal) of \(compared)")
    }
}
