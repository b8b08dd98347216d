import FramelabCore
import FramelabCV
import FramelabTestSupport
import Foundation
import Testing

/// Detections are seen: drawn on `run --snapshot` frames (unless --no-draw-detections) and
/// by `framelab dataset show` against the ground truth, checked by pixel.
@Suite struct DetectionDrawingTests {
    static let astronaut = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/astronaut.png").path
    static let red: [Double] = [0, 0, 255]
    static let green: [Double] = [0, 220, 0]

    /// The first detection of the first run of `path`: x, y, width, height (rounded) and its count.
    func detections(_ path: String) throws -> (box: [Int], count: Int) {
        let py = try TestSupport.python("""
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            r = f["runs"][list(f["runs"].keys())[0]]
            d = r["detections"][()]
            print(len(d), *[int(round(float(d[k][0]))) for k in ("x", "y", "width", "height")])
            """, arguments: [path])
        let v = py.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard py.status == 0, v.count == 5 else { throw FramelabError(.io, "reading \(path): \(py.stderr)") }
        return (Array(v[1...]), v[0])
    }

    @Test func snapshotsShowTheBoxesUnlessTurnedOff() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        var outputs: [String] = []
        for (name, extra) in [("drawn", [String]()), ("plain", ["--no-draw-detections"])] {
            let folder = dir.appendingPathComponent(name).path
            let r = try TestSupport.framelab(["run", "--source", "image:\(Self.astronaut)", "--detector", "opencv-haar:accuracy=low",
                                              "--frames", "1", "--snapshot", folder, "--snapshot-every", "1",
                                              "--out", dir.appendingPathComponent("\(name).h5").path, "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            outputs.append(folder + "/frame-00000000.png")
        }
        let (box, count) = try detections(dir.appendingPathComponent("drawn.h5").path)
        #expect(count == 1)
        let drawn = try ImageCodec.read(outputs[0]), plain = try ImageCodec.read(outputs[1])
        let leftEdge = (x: box[0], y: box[1] + box[3] / 2), bottomEdge = (x: box[0] + box[2] / 2, y: box[1] + box[3] - 1)
        #expect(Array(drawn.pixel(x: leftEdge.x, y: leftEdge.y).prefix(3)) == Self.red)
        #expect(Array(drawn.pixel(x: bottomEdge.x, y: bottomEdge.y).prefix(3)) == Self.red)
        #expect(Array(plain.pixel(x: leftEdge.x, y: leftEdge.y).prefix(3)) != Self.red)
        // Away from the box and its caption the two snapshots are the same picture.
        #expect(drawn.pixel(x: 500, y: 500) == plain.pixel(x: 500, y: 500))
    }

    @Test func datasetShowDrawsTruthAndARunsDetections() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.astronaut, toPath: dir.appendingPathComponent("astronaut.png").path)
        // One real face (for the detector) and one box where no face is, to see the truth colour.
        let csv = dir.appendingPathComponent("faces.csv").path
        try "image,x,y,width,height\nastronaut.png,20,400,60,60\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let run = dir.appendingPathComponent("eval.h5").path
        let e = try TestSupport.framelab(["eval", "--dataset", "csv:\(csv)", "--detector", "opencv-haar:accuracy=low",
                                          "--out", run, "--quiet"])
        #expect(e.status == 0, "\(e.stderr)")
        let (box, count) = try detections(run)

        let sheet = dir.appendingPathComponent("sheet").path
        let r = try TestSupport.framelab(["dataset", "show", "csv:\(csv)", "--run", run, "--out", sheet, "--json", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let images = object?["images"] as? [[String: Any]] ?? []
        #expect(images.count == 1 && (object?["failed"] as? Int) == 0)
        let found = images.first?["found"] as? [String: Int] ?? [:]
        #expect(Array(found.values) == [count], "\(r.stdout)")
        #expect(images.first?["file"] as? String == "0000.png")

        let picture = try ImageCodec.read(sheet + "/0000.png")
        #expect(Array(picture.pixel(x: 20, y: 430).prefix(3)) == Self.green)
        #expect(Array(picture.pixel(x: box[0], y: box[1] + box[3] / 2).prefix(3)) == Self.red)
        let html = try String(contentsOfFile: sheet + "/index.html", encoding: .utf8)
        #expect(html.contains("<img src=\"0000.png\"") && html.contains("opencv-haar") && html.contains("ground truth"))
    }

    @Test func aRunOverAnotherDatasetIsAOneLineError() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        for name in ["astronaut.png", "other.png"] {
            try FileManager.default.copyItem(atPath: Self.astronaut, toPath: dir.appendingPathComponent(name).path)
        }
        let a = dir.appendingPathComponent("a.csv").path, b = dir.appendingPathComponent("b.csv").path
        try "image,x,y,width,height\nastronaut.png,20,400,60,60\n".write(toFile: a, atomically: true, encoding: .utf8)
        try "image,x,y,width,height\nother.png,20,400,60,60\n".write(toFile: b, atomically: true, encoding: .utf8)
        let run = dir.appendingPathComponent("eval.h5").path
        #expect(try TestSupport.framelab(["eval", "--dataset", "csv:\(a)", "--detector", "opencv-haar:accuracy=low",
                                          "--out", run, "--quiet"]).status == 0)
        let r = try TestSupport.framelab(["dataset", "show", "csv:\(b)", "--run", run, "--out", dir.appendingPathComponent("s").path,
                                          "--quiet"])
        #expect(r.status != 0)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("b.csv"), "\(r.stderr)")
    }
}
