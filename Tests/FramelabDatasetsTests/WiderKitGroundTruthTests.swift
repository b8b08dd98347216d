import Foundation
import FramelabCore
import FramelabDatasets
import FramelabTestSupport
import Testing

/// `wider:` on the WIDER kit's ground-truth folder: .mat files scipy writes here in the
/// kit's layout (Notebooks/tests/wider_kit.py), subsets, image lookup, and broken kits.
@Suite struct WiderKitGroundTruthTests {
    /// Writes a kit with `python` code run after `from wider_kit import *` (folder in `gt`).
    func kit(_ code: String, gt: URL) throws {
        let scripts = TestSupport.packageRoot.appendingPathComponent("Notebooks/tests").path
        let program = "import sys; sys.path.insert(0, \(quoted(scripts)))\nfrom wider_kit import *\ngt = \(quoted(gt.path))\n" + code
        let r = try TestSupport.run(TestSupport.python, ["-c", program])
        #expect(r.status == 0, "writing the kit: \(r.stderr)")
    }

    func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "\\'") + "'" }

    func message(_ body: () throws -> Void) -> String {
        do { try body() } catch let e as FramelabError { return e.message } catch { return "\(error)" }
        Issue.record("expected an error")
        return ""
    }

    /// Two events: three faces (the third with no width), an image without faces, two faces.
    static let twoEvents = """
        events = ["0--Parade", "1--Handshaking"]
        files = [["0_Parade_1", "0_Parade_2"], ["1_Hand_1"]]
        boxes = [[[[10, 20, 30, 40], [100, 20, 30, 40], [200, 20, 0, 40]], np.zeros((0, 4))], [[[5, 5, 50, 60], [70, 5, 20, 20]]]]
        keep = {"easy": [[[1], []], [[1]]], "medium": [[[1, 2], []], [[1]]], "hard": [[[1, 2, 3], []], [[1, 2]]]}
        """

    @Test func readsFacesSubsetsAndFindsTheImages() throws {
        let root = try TestSupport.makeTemporaryDirectory("wider-kit")
        defer { try? FileManager.default.removeItem(at: root) }
        let gt = root.appendingPathComponent("eval_tools/ground_truth")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("WIDER_val/images"), withIntermediateDirectories: true)
        try kit(Self.twoEvents + "\nwrite_kit(gt, events, files, boxes, keep)", gt: gt)

        let d = try FaceDataset.load("wider:" + gt.path)
        #expect(d.images.map(\.name) == ["0--Parade/0_Parade_1.jpg", "0--Parade/0_Parade_2.jpg", "1--Handshaking/1_Hand_1.jpg"])
        // Images two levels up from eval_tools/ground_truth.
        #expect(d.images[0].path == root.appendingPathComponent("WIDER_val/images/0--Parade/0_Parade_1.jpg").path)
        let faces = d.images[0].faces
        #expect(faces.map(\.box) == [FaceBox(x: 10, y: 20, width: 30, height: 40), FaceBox(x: 100, y: 20, width: 30, height: 40),
                                     FaceBox(x: 200, y: 20, width: 0, height: 40)])
        #expect(faces.map(\.widerSubsets) == [[.easy, .medium, .hard], [.medium, .hard], [.hard]])
        #expect(faces.map(\.ignore) == [false, false, true])  // no width: ignored by Framelab's own matching
        #expect(d.images[1].faces.isEmpty)
        #expect(d.images[2].faces.map(\.widerSubsets) == [[.easy, .medium, .hard], [.hard]])
        #expect(d.hasWiderSubsets)
        // The main file itself names the kit too.
        let byFile = try FaceDataset.load("wider:" + gt.appendingPathComponent("wider_face_val.mat").path)
        #expect(byFile.images == d.images)
    }

    @Test func withoutSubsetFilesFacesCarryNone() throws {
        let gt = try TestSupport.makeTemporaryDirectory("wider-kit")
        defer { try? FileManager.default.removeItem(at: gt) }
        try kit(Self.twoEvents + "\nwrite_kit(gt, events, files, boxes, None, compressed=False)", gt: gt)
        let d = try FaceDataset.load("wider:" + gt.path)
        #expect(d.images.count == 3 && !d.hasWiderSubsets)
        #expect(d.images[0].path.hasSuffix("WIDER_val/images/0--Parade/0_Parade_1.jpg"))
    }

    @Test func brokenKitsAreNamed() throws {
        let gt = try TestSupport.makeTemporaryDirectory("wider-kit")
        defer { try? FileManager.default.removeItem(at: gt) }
        // A subset naming face 4 of an image with 3.
        try kit(Self.twoEvents + "\nkeep['hard'][0][0] = [1, 4]\nwrite_kit(gt, events, files, boxes, keep)", gt: gt)
        let range = message { _ = try FaceDataset.load("wider:" + gt.path) }
        #expect(range.contains("wider_hard_val.mat") && range.contains("gt_list{1}{1}") && range.contains("face 4.0"))
        // Only one of the three subset files.
        for name in ["wider_medium_val.mat", "wider_hard_val.mat"] {
            try FileManager.default.removeItem(at: gt.appendingPathComponent(name))
        }
        let partial = message { _ = try FaceDataset.load("wider:" + gt.path) }
        #expect(partial.contains("wider_medium_val.mat") && partial.contains("wider_hard_val.mat") && partial.contains("missing"))
        // A truncated main file: one line naming it.
        let main = gt.appendingPathComponent("wider_face_val.mat")
        let bytes = try Data(contentsOf: main)
        try bytes.prefix(bytes.count - 20).write(to: main)
        let cut = message { _ = try FaceDataset.load("wider:" + gt.path) }
        #expect(cut.contains(main.path) && !cut.contains("\n"))
        // Garbled compressed bytes.
        var garbled = [UInt8](bytes)
        for i in stride(from: 150, to: garbled.count, by: 7) { garbled[i] ^= 0x5A }
        try Data(garbled).write(to: main)
        let bad = message { _ = try FaceDataset.load("wider:" + gt.path) }
        #expect(bad.contains(main.path) && !bad.contains("\n"))
    }
}
