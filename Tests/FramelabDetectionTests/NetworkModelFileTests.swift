import Foundation
import FramelabCore
import FramelabCV
@testable import FramelabDetection
import FramelabElements
import FramelabTestSupport
import Testing

/// Model files that are missing, truncated or of another kind are one-line errors naming
/// the file; what a net outputs is checked before it is used; the licence catalog.
@Suite struct NetworkModelFileTests {
    static let models = TestSupport.packageRoot.appendingPathComponent("Datasets/models").path

    func error(_ text: String) throws -> String {
        do {
            _ = try DetectorRegistry.builtIns.instantiate(try ElementSpec(parsing: text))
        } catch let e as FramelabError {
            return e.message
        }
        Issue.record("\(text) loaded")
        return ""
    }

    /// A copy of the first `fraction` of `relative` in `dir` (same relative path).
    func truncated(_ relative: String, in dir: URL, fraction: Double = 0.5) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.models + "/" + relative))
        let out = dir.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: out)
        return out.path
    }

    @Test func missingModelsNameTheFileTheDetectorAndTheFetchCommand() throws {
        let dir = try TestSupport.makeTemporaryDirectory("models")
        let nope = dir.appendingPathComponent("nope.onnx").path
        for (spec, file) in [("centerface:model=\(nope)", nope),
                             ("opencv-ssd:model=\(nope)", nope),
                             ("opencv-ssd:config=\(nope)", nope),
                             ("mtcnn:model-dir=\(dir.path)", dir.appendingPathComponent("pnet.onnx").path)] {
            let message = try error(spec)
            #expect(message.contains("'\(file)'") && message.contains("bash scripts/fetch-models.sh"), "\(message)")
            #expect(message.hasPrefix("detector '\(spec.prefix { $0 != ":" })'") && !message.contains("\n"), "\(message)")
        }
        // A folder where a file belongs says so.
        #expect(try error("centerface:model=\(dir.path)").contains("is a folder"))
    }

    @Test func truncatedModelsAreOneLineErrorsNamingTheFile() throws {
        let dir = try TestSupport.makeTemporaryDirectory("models")
        let onnx = try truncated("centerface.onnx", in: dir)
        let caffemodel = try truncated("res10_300x300_ssd_iter_140000.caffemodel", in: dir, fraction: 0.1)
        let prototxt = try truncated("res10_deploy.prototxt", in: dir)
        let onet = try truncated("mtcnn/onet.onnx", in: dir, fraction: 0.3)
        for name in ["pnet.onnx", "rnet.onnx"] {
            try FileManager.default.copyItem(atPath: Self.models + "/mtcnn/" + name,
                                             toPath: dir.appendingPathComponent("mtcnn/" + name).path)
        }
        let cases = [("centerface:model=\(onnx)", onnx),
                     ("opencv-ssd:model=\(caffemodel)", caffemodel),
                     ("opencv-ssd:config=\(prototxt)", prototxt),
                     ("mtcnn:model-dir=\(dir.appendingPathComponent("mtcnn").path)", onet),
                     // Another kind of file: weights of one format given as the other.
                     ("centerface:model=\(Self.models)/res10_300x300_ssd_iter_140000.caffemodel",
                      "\(Self.models)/res10_300x300_ssd_iter_140000.caffemodel"),
                     ("opencv-ssd:model=\(Self.models)/centerface.onnx", "\(Self.models)/centerface.onnx")]
        for (spec, file) in cases {
            let message = try error(spec)
            #expect(message.contains("'\(file)'") && !message.contains("\n"), "\(spec): \(message)")
            #expect(message.hasPrefix("detector '"), "\(message)")
        }
    }

    @Test func anEmptyWeightsFileIsRefusedAtLoadNotAtTheFirstFrame() throws {
        let dir = try TestSupport.makeTemporaryDirectory("models")
        // A caffemodel cut at a record boundary parses as a network without weights.
        let empty = dir.appendingPathComponent("empty.caffemodel").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try error("opencv-ssd:model=\(empty)").contains("'\(empty)'"))
        #expect(throws: FramelabError.self) {
            _ = try DNNNetwork(caffePrototxt: Self.models + "/res10_deploy.prototxt", caffemodel: Self.models + "/centerface.onnx")
        }
    }

    @Test func dnnNetworkReportsNamedOutputsWithShapes() throws {
        let centerface = try DNNNetwork(onnx: Self.models + "/centerface.onnx")
        #expect(centerface.outputNames == ["537", "538", "539", "540"])
        let image = Mat(format: .bgr8, width: 64, height: 32)
        image.fill([10, 20, 30])
        let out = try centerface.forward(image: image, width: 64, height: 32, swapRB: true)
        #expect(out.map(\.shape) == [[1, 1, 8, 16], [1, 2, 8, 16], [1, 2, 8, 16], [1, 10, 8, 16]])
        #expect(out.allSatisfy { $0.values.count == $0.shape.reduce(1, *) })

        let pnet = try DNNNetwork(onnx: Self.models + "/mtcnn/pnet.onnx")
        let p = try pnet.forward(tensor: [Float](repeating: 0.1, count: 12 * 12 * 3), shape: [1, 12, 12, 3])
        #expect(Set(p.map(\.name)) == ["conv2d_4", "softmax"] && Set(p.map(\.shape)) == [[1, 1, 1, 4], [1, 1, 1, 2]])
        #expect(throws: FramelabError.self) { _ = try pnet.forward(tensor: [1, 2, 3], shape: [1, 12, 12, 3]) }
        #expect(throws: FramelabError.self) { _ = try pnet.forward(tensor: [], shape: [0]) }
        // A tensor the network cannot take is an error, not a crash.
        #expect(throws: FramelabError.self) { _ = try pnet.forward(tensor: [Float](repeating: 0, count: 12 * 12 * 5), shape: [1, 12, 12, 5]) }
    }

    @Test func ssdDecodingSkipsNonFiniteRowsAndClipsToTheImage() throws {
        let ssd = try OpenCVSSDDetector(prototxt: Self.models + "/res10_deploy.prototxt",
                                        caffemodel: Self.models + "/res10_300x300_ssd_iter_140000.caffemodel")
        let nan = Float.nan, inf = Float.infinity
        let rows: [[Float]] = [[0, 1, 0.9, -0.5, 0.1, 0.5, 1.5],   // clipped to the image
                               [0, 1, nan, 0.1, 0.1, 0.2, 0.2],     // NaN score
                               [0, 1, 0.95, nan, 0.1, 0.2, 0.2],    // NaN corner
                               [0, 1, 0.95, 0.1, 0.1, inf, 0.2],    // infinite corner
                               [0, 1, 0.3, 0.1, 0.1, 0.2, 0.2],     // below the threshold
                               [0, 1, 0.8, 0.6, 0.6, 0.6, 0.7]]     // no width
        let faces = ssd.decode(DNNTensor(name: "detection_out", shape: [1, 1, rows.count, 7], values: rows.flatMap { $0 }),
                               width: 200, height: 100)
        #expect(faces.count == 1, "\(faces)")
        let box = try #require(faces.first?.box)
        for (got, want) in [(box.x, 0.0), (box.y, 10), (box.width, 100), (box.height, 90)] {
            #expect(abs(got - want) < 1e-4, "\(box)")
        }
    }

    @Test func centerFaceDecodingSkipsNonFiniteCells() throws {
        // Three cells in a 1x3 map: a good one, one whose size overflows exp, one with a NaN offset.
        func map(_ channels: Int, _ values: [Float]) -> DNNTensor {
            DNNTensor(name: "", shape: [1, channels, 1, 3], values: values)
        }
        let maps = try #require(CenterFaceDecoder.Maps([
            map(1, [0.9, 0.9, 0.9]),
            map(2, [1, 1000, 1, 1, 1, 1]),
            map(2, [0, 0, .nan, 0, 0, 0]),
            map(10, [Float](repeating: 0.5, count: 30)),
        ]))
        let decoder = CenterFaceDecoder(scoreThreshold: 0.5, nmsThreshold: 0.3, inputWidth: 12, inputHeight: 4,
                                        scaleX: 1, scaleY: 1)
        let faces = decoder.faces(maps)
        #expect(faces.count == 1 && faces[0].box.x >= 0 && faces[0].box.maxX <= 12, "\(faces)")
        #expect(CenterFaceDecoder.Maps([map(1, [0, 0, 0])]) == nil)
    }

    @Test func mtcnnCropsRefuseUnusableBoxesWithoutAllocatingThem() throws {
        let image = Mat(format: .bgr8, width: 40, height: 30)
        image.fill([200, 100, 50])
        func crop(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws -> Mat? {
            try MTCNNInput.crop(image, MTCNNCandidate(x1: x1, y1: y1, x2: x2, y2: y2, score: 1), side: 24)
        }
        #expect(try crop(.nan, 0, 10, 10) == nil)
        #expect(try crop(0, 0, .infinity, 10) == nil)
        #expect(try crop(100, 100, 120, 120) == nil)       // off the image
        #expect(try crop(0, 0, 1e15, 1e15) == nil)          // absurd size
        // A box twice the image, centred: the image fills the middle half, black around it.
        let big = try #require(try crop(-20, -15, 59, 44))
        #expect(big.width == 24 && big.height == 24)
        #expect(big.pixel(x: 12, y: 12) == [200, 100, 50] && big.pixel(x: 1, y: 1) == [0, 0, 0])
        // The tensor layout: x before y, RGB, (v - 127.5) / 128.
        let tiny = Mat(format: .bgr8, width: 2, height: 1)
        tiny.setPixel(x: 0, y: 0, [0, 0, 255]); tiny.setPixel(x: 1, y: 0, [255, 0, 0])
        var tensor: [Float] = []
        MTCNNInput.append(tiny, to: &tensor)
        let (hi, lo): (Float, Float) = (127.5 / 128, -127.5 / 128)
        #expect(tensor == [hi, lo, lo, lo, lo, hi])
    }

    @Test func everyBundledModelHasALicenceAndUnknownFilesHaveNone() throws {
        for file in ["res10_deploy.prototxt", "res10_300x300_ssd_iter_140000.caffemodel", "centerface.onnx",
                     "mtcnn/pnet.onnx", "mtcnn/rnet.onnx", "mtcnn/onet.onnx"] {
            let sum = try #require(SHA256.file(Self.models + "/" + file))
            #expect(ModelLicences.licence(sha256: sum) != "", "\(file)")
        }
        #expect(ModelLicences.licence(sha256: try #require(SHA256.file(CascadeFiles.haarFrontalFace))).hasPrefix("Intel"))
        #expect(ModelLicences.licence(sha256: try #require(SHA256.file(CascadeFiles.lbpFrontalFace))) == "BSD-3-Clause")
        #expect(ModelLicences.licence(sha256: String(repeating: "0", count: 64)) == "")
    }

    @Test func detectorsDeclareTheFilesTheyLoad() throws {
        func files(_ text: String) throws -> [String] {
            let spec = try ElementSpec(parsing: text)
            let d = try DetectorRegistry.builtIns.descriptor(for: spec)
            return d.modelFiles(for: try d.parameters(for: spec))
        }
        #expect(try files("opencv-ssd:config=a,model=b") == ["a", "b"])
        #expect(try files("mtcnn:model-dir=/m") == ["/m/pnet.onnx", "/m/rnet.onnx", "/m/onet.onnx"])
        #expect(try files("centerface:model=c.onnx") == ["c.onnx"])
        #expect(try files("opencv-haar:cascade=x.xml") == ["x.xml"])
        #expect(try files("opencv-yunet") == [])
    }
}
