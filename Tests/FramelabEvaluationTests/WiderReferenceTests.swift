import Foundation
import FramelabCore
import FramelabDatasets
import FramelabDetection
import FramelabEvaluation
import FramelabTestSupport
import Testing

/// `WiderProtocol` against an independent numpy implementation of the kit's rules
/// (Notebooks/tests/wider_reference.py) on synthetic kit-format sets that scipy writes here:
/// hundreds of images, random faces, nested subsets, jittered and duplicate predictions,
/// tied scores and scores outside [0, 1]. AP and every curve point agree to 1e-9.
@Suite struct WiderReferenceTests {
    static let scripts = TestSupport.packageRoot.appendingPathComponent("Notebooks/tests").path

    func python(_ script: String, _ arguments: [String]) throws -> String {
        let r = try TestSupport.run(TestSupport.python, [(Self.scripts as NSString).appendingPathComponent(script)] + arguments)
        #expect(r.status == 0, "\(script) failed: \(r.stderr)")
        return r.stdout
    }

    /// Predictions of wider_kit.py's "name x y w h score" lines, per image of `images`.
    func predictions(_ path: String, images: [AnnotatedImage]) throws -> [[FaceDetection]] {
        var byName: [String: [FaceDetection]] = [:]
        // wider_kit.py writes "\n" line ends (no CRLF to split around).
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.isEmpty {
            let parts = line.split(separator: " ")
            let v = parts.dropFirst().compactMap { Double(String($0)) }
            try #require(v.count == 5, "bad prediction line \(line)")
            byName[String(parts[0]), default: []].append(
                FaceDetection(box: BoundingBox(x: v[0], y: v[1], width: v[2], height: v[3]), score: v[4]))
        }
        return images.map { byName[$0.name] ?? [] }
    }

    @Test(arguments: [(seed: 11, images: 400, compressed: true), (seed: 12, images: 300, compressed: false)])
    func matchesTheNumpyReference(seed: Int, images: Int, compressed: Bool) throws {
        let dir = try TestSupport.makeTemporaryDirectory("wider-reference")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try python("wider_kit.py", ["synth", dir.path, "--images", "\(images)", "--seed", "\(seed)"]
                       + (compressed ? [] : ["--uncompressed"]))
        let gt = dir.appendingPathComponent("ground_truth").path
        let dataset = try FaceDataset.load("wider:" + gt)
        #expect(dataset.images.count == images)
        #expect(dataset.hasWiderSubsets)
        let preds = try predictions(dir.appendingPathComponent("predictions.txt").path, images: dataset.images)
        #expect(preds.joined().count > images)
        let swift = WiderProtocol.evaluate(faces: dataset.images.map(\.faces), predictions: preds)

        let output = try python("wider_reference.py", [gt, dir.appendingPathComponent("predictions.txt").path])
        let reference = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let curves = try #require(reference["curves"] as? [String: [[Any]]])
        for setting in ["easy", "medium", "hard"] {
            let expected = try #require(reference["ap_\(setting)"] as? Double)
            let ap = try #require(swift.metric("ap_\(setting)"))
            #expect(abs(ap - expected) < 1e-9, "ap_\(setting): Swift \(ap), numpy \(expected)")
            #expect(ap > 0.05, "the synthetic set should give a non-trivial AP (\(setting): \(ap))")
            let name = try #require(ProtocolCurveName(rawValue: "wider_" + setting))
            let points = try #require(swift.curve(name)).points
            let theirs = try #require(curves[setting])
            try #require(points.count == theirs.count)
            for (p, q) in zip(points, theirs) {
                func same(_ a: Double, _ b: Any) -> Bool {
                    guard let b = b as? Double else { return a.isNaN }  // null: NaN in numpy
                    return abs(a - b) < 1e-9
                }
                #expect(same(p.threshold, q[0]) && same(p.x, q[1]) && same(p.y, q[2]), "\(setting) at \(p.threshold): \(p) vs \(q)")
            }
        }
    }
}
