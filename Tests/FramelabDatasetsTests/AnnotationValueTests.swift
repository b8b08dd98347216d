import Foundation
import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabTestSupport
import Testing

/// Values a loader used to accept silently, and file-system errors it used to misname
/// (issue 17, "weak spots"): each is a one-line error naming the input.
@Suite struct AnnotationValueTests {
    func message(_ body: () throws -> Void) -> String {
        do { try body() } catch let e as FramelabError { return e.message } catch { return "\(error)" }
        Issue.record("expected an error")
        return ""
    }

    func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [("0 0 0 1 0 5", "pose flag 5 is out of range 0...1"), ("0 0 0 -7 0 0", "invalid flag -7 is out of range 0...1"),
                      ("3 0 0 0 0 0", "blur flag 3 is out of range 0...2"), ("0 0 0 0.5 0 0", "flag '0.5' is not an integer")])
    func widerFlagsOutOfRangeAreErrorsNamingTheFlag(flags: String, expected: String) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let gt = try write("a/1.jpg\n1\n10 10 20 20 \(flags)\n", "wider_face_val_bbx_gt.txt", in: dir)
        let m = message { _ = try FaceDataset.load("wider:" + gt) }
        #expect(m.contains(gt) && m.contains("line 3") && m.contains(expected), "\(m)")
    }

    @Test func csvIgnoreTakesOnlyYesOrNoValues() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let good = try write("image,x,y,width,height,ignore\na.png,1,1,5,5,yes\na.png,9,9,5,5,0\nb.png,1,1,5,5,\nc.png,2,2,5,5,FALSE\n",
                             "good.csv", in: dir)
        let faces = try FaceDataset.load("csv:" + good).images.flatMap(\.faces)
        #expect(faces.map(\.ignore) == [true, false, false, false])
        let bad = try write("image,x,y,width,height,ignore\na.png,1,1,5,5,maybe\n", "bad.csv", in: dir)
        let m = message { _ = try FaceDataset.load("csv:" + bad) }
        #expect(m.contains(bad) && m.contains("line 2") && m.contains("'maybe'"), "\(m)")
    }

    @Test func imageErrorsSayWhatIsWrongWithThePath() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let folder = message { _ = try ImageCodec.read(dir.path) }
        #expect(folder.contains("is a folder") && folder.contains("images:DIR"), "\(folder)")
        let loop = dir.appendingPathComponent("loop.png").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let looped = message { _ = try ImageCodec.read(loop) }
        #expect(looped.contains(loop) && looped.lowercased().contains("symbolic links"), "\(looped)")
        let missing = message { _ = try ImageCodec.read(dir.appendingPathComponent("none.png").path) }
        #expect(missing.contains("no such file"))
    }
}
