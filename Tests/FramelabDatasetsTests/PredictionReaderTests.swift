import Foundation
import FramelabCore
import FramelabDatasets
import FramelabTestSupport
import Testing

/// The saved-prediction readers (WIDER folders, FDDB lists, COCO results), the coco:
/// dataset, name matching and the writers, on small files written here.
@Suite struct PredictionReaderTests {
    /// Writes `text` (with "\n" turned into `ending`) to `name` under `dir`, creating folders.
    @discardableResult
    func write(_ text: String, _ name: String, in dir: URL, ending: String = "\n") throws -> String {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.replacingOccurrences(of: "\n", with: ending).utf8).write(to: url)
        return url.path
    }

    /// The message `body` throws (fails the test when it does not throw).
    func message(_ body: () throws -> Void) -> String {
        do { try body() } catch let e as FramelabError { return e.message } catch { return "\(error)" }
        Issue.record("expected an error")
        return ""
    }

    @Test(arguments: ["\n", "\r\n", "\r"]) func widerFolderReadsEveryImageFile(ending: String) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        try write("0_Parade_1\n2\n10 20 30 40 0.9 \n 1.5\t2.5 3 4 -0.25\n", "0--Parade/0_Parade_1.txt", in: dir, ending: ending)
        try write("1_Hand_2.jpg\n0\n", "1--Handshaking/1_Hand_2.txt", in: dir, ending: ending)
        try write("not a prediction", "README.md", in: dir)
        let file = try PredictionFile.read(dir.path, format: .wider)
        #expect(file.images.map(\.key) == [.name("0--Parade/0_Parade_1"), .name("1--Handshaking/1_Hand_2")])
        #expect(file.images[0].faces == [PredictedFace(box: FaceBox(x: 10, y: 20, width: 30, height: 40), score: 0.9),
                                          PredictedFace(box: FaceBox(x: 1.5, y: 2.5, width: 3, height: 4), score: -0.25)])
        #expect(file.images[1].faces.isEmpty)
    }

    @Test func widerBadLinesAreNamed() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let bad = try write("a\n2\n1 2 3 4 0.5\n1 2 three 4 0.5\n", "e/a.txt", in: dir, ending: "\r\n")
        let m = message { _ = try PredictionFile.read(dir.path, format: .wider) }
        #expect(m.contains("'\(bad)' line 4") && m.contains("'three'") && !m.contains("\r"), "\(m)")

        let extra = try TestSupport.makeTemporaryDirectory()
        let file = try write("a\n1\n1 2 3 4 0.5\n5 6 7 8 0.1\n", "e/a.txt", in: extra)
        let e = message { _ = try PredictionFile.read(extra.path, format: .wider) }
        #expect(e.contains("'\(file)' line 4") && e.contains("more lines than the 1 faces"), "\(e)")

        let ellipse = try TestSupport.makeTemporaryDirectory()
        try write("a\n1\n50 40 0.1 100 100 0.9\n", "e/a.txt", in: ellipse)
        #expect(message { _ = try PredictionFile.read(ellipse.path, format: .wider) }.contains("'x y w h score'"))
        #expect(message { _ = try PredictionFile.read("/no/such/folder", format: .wider) }.contains("/no/such/folder"))
    }

    @Test(arguments: ["\n", "\r\n"]) func fddbListReadsRectanglesAndEllipses(ending: String) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try write("2002/08/11/big/img_591\n2\n10 20 30 40 3.5\n123.5 85.5 1.2 269.5 161.5 0.75\n\n"
                             + "2002/08/26/big/img_265\n0\n", "dets.txt", in: dir, ending: ending)
        let file = try PredictionFile.read(path, format: .fddb)
        #expect(file.images.map(\.key) == [.name("2002/08/11/big/img_591"), .name("2002/08/26/big/img_265")])
        let ellipse = FaceEllipse(majorRadius: 123.5, minorRadius: 85.5, angle: 1.2, centerX: 269.5, centerY: 161.5)
        #expect(file.images[0].faces == [PredictedFace(box: FaceBox(x: 10, y: 20, width: 30, height: 40), score: 3.5),
                                          PredictedFace(box: ellipse.boundingBox, score: 0.75)])
        #expect(file.images[1].faces.isEmpty)
    }

    @Test func fddbBadInputIsAnErrorNamingFileAndLine() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let cases: [(text: String, line: Int, says: String)] = [
            ("a\n1\n1 2 3 4 nan\n", 3, "not a finite number"),
            ("a\n1\n1 2 3 4 inf\n", 3, "not a finite number"),
            ("a\n1\n1 2 -3 4 0.5\n", 3, "negative width"),
            ("a\n1\n-5 4 0.1 10 10 0.5\n", 3, "radii must be positive"),
            ("a\nmany\n", 2, "expected the number of faces"),
            ("a\n-1\n", 2, "expected the number of faces"),
            // A huge count is checked against the lines that follow, never allocated.
            ("a\n9223372036854775807\n1 2 3 4 5\n", 2, "has 9223372036854775807 faces but only 1 lines follow"),
            ("a\n99999999999999999999999\n", 2, "expected the number of faces"),
            ("a\n", 2, "file ends where the number of faces"),
        ]
        for (k, c) in cases.enumerated() {
            let path = try write(c.text, "bad\(k).txt", in: dir, ending: "\r\n")
            let m = message { _ = try PredictionFile.read(path, format: .fddb) }
            #expect(m.contains("'\(path)' line \(c.line)") && m.contains(c.says), "\(c.text.debugDescription): \(m)")
            #expect(!m.contains("\n") && !m.contains("\r"))
        }
    }

    @Test func cocoResultsGroupByImageAndKeepTheFaceCategory() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try write("""
            [{"image_id": 7, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5},
             {"image_id": 3, "category_id": 2, "bbox": [1, 2, 3, 4], "score": 0.5},
             {"image_id": 7, "bbox": [5.5, 6, 7, 8e1], "score": -1},
             {"image_id": 3, "category_id": 1, "bbox": [0, 0, 0, 0], "score": 2}]
            """, "results.json", in: dir, ending: "\r\n")
        let file = try PredictionFile.read(path, format: .coco, cocoCategory: 1)
        #expect(file.images.map(\.key) == [.cocoID(7), .cocoID(3)])
        #expect(file.images[0].faces == [PredictedFace(box: FaceBox(x: 1, y: 2, width: 3, height: 4), score: 0.5),
                                          PredictedFace(box: FaceBox(x: 5.5, y: 6, width: 7, height: 80), score: -1)])
        #expect(file.notes.count == 1 && file.notes[0].contains("1 results of categories other than 1"))
        #expect(try PredictionFile.read(path, format: .coco).images.map { $0.faces.count } == [2, 2])
    }

    @Test func badCOCOResultsNameTheElementOrLine() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let cases: [(text: String, says: String)] = [
            ("[{\"image_id\": 1, \"bbox\": [1,2,3,4], \"score\": 1},\n {\"image_id\": 2 \"bbox\": [1,2,3,4]}]", "line 2 column 17"),
            ("[{\"image_id\": 1.5, \"bbox\": [1,2,3,4], \"score\": 1}]", "[0].image_id: 1.5 is not an integer"),
            ("[{\"image_id\": 1e30, \"bbox\": [1,2,3,4], \"score\": 1}]", "[0].image_id"),
            ("[{\"image_id\": true, \"bbox\": [1,2,3,4], \"score\": 1}]", "[0].image_id: expected an integer, got a boolean"),
            ("[{\"image_id\": 1, \"bbox\": [1,2,3,4], \"score\": 1}, {\"image_id\": 1, \"bbox\": [1,2,3], \"score\": 1}]",
             "[1].bbox: expected [x, y, width, height], got 3 numbers"),
            ("[{\"image_id\": 1, \"bbox\": [1,2,\"3\",4], \"score\": 1}]", "[0].bbox[2]: expected a number, got a string"),
            ("[{\"image_id\": 1, \"bbox\": [1,2,3,4]}]", "[0]: missing \"score\""),
            ("[{\"image_id\": 1, \"bbox\": [1,2,3,4], \"score\": 1e999}]", "[0].score: 1e999 is not a finite number"),
            ("[{\"image_id\": 1, \"bbox\": [1,2,3,4], \"score\": NaN}]", "line 1 column 46: not valid JSON"),
            (String(repeating: "[", count: 100_000), "nested deeper than"),
            ("{\"image_id\": 1}", "expected an array, got an object"),
            ("", "line 1 column 1: not valid JSON"),
        ]
        for (k, c) in cases.enumerated() {
            let path = try write(c.text, "bad\(k).json", in: dir)
            let m = message { _ = try PredictionFile.read(path, format: .coco) }
            #expect(m.contains("'\(path)'") && m.contains(c.says), "\(c.text): \(m)")
            #expect(!m.contains("\n"))
        }
    }

    @Test func cocoDatasetTakesTheFaceCategoryAndMarksCrowdsIgnored() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        try write("png", "images/b.png", in: dir)
        let path = try write("""
            {"images": [{"id": 10, "file_name": "a.png", "width": 64, "height": 48}, {"id": 3, "file_name": "b.png"}],
             "annotations": [
               {"id": 1, "image_id": 10, "category_id": 2, "bbox": [1, 2, 30, 40], "iscrowd": 0},
               {"id": 2, "image_id": 10, "category_id": 2, "bbox": [5, 5, 10, 10], "iscrowd": 1},
               {"id": 3, "image_id": 10, "category_id": 1, "bbox": [0, 0, 9, 9]},
               {"id": 4, "image_id": 3, "category_id": 2, "bbox": [0, 0, 0, 5]}],
             "categories": [{"id": 1, "name": "person"}, {"id": 2, "name": "Face"}]}
            """, "gt.json", in: dir, ending: "\r\n")
        let d = try FaceDataset.load("coco:" + path)
        #expect(d.format == .coco && d.cocoCategory == 2)
        #expect(d.images.map(\.name) == ["a.png", "b.png"] && d.images.map(\.cocoID) == [10, 3])
        #expect(d.images[0].faces == [GroundTruthFace(box: FaceBox(x: 1, y: 2, width: 30, height: 40)),
                                      GroundTruthFace(box: FaceBox(x: 5, y: 5, width: 10, height: 10), ignore: true)])
        #expect(d.images[1].faces.map(\.ignore) == [true])
        // a.png is nowhere: beside the JSON; b.png only in images/.
        #expect(d.images[0].path == dir.appendingPathComponent("a.png").path)
        #expect(d.images[1].path == dir.appendingPathComponent("images/b.png").path)
        #expect(d.faceCount == 1)
    }

    @Test func badCOCODatasetsAreOneLineErrors() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let cases: [(text: String, says: String)] = [
            ("{\"images\": [{\"id\": 1, \"file_name\": \"a.png\"}], \"annotations\": [{\"image_id\": 2, \"bbox\": [1,2,3,4]}]}",
             "annotations[0].image_id: no image has id 2"),
            ("{\"images\": [{\"id\": 1, \"file_name\": \"a.png\"}, {\"id\": 1, \"file_name\": \"b.png\"}]}",
             "images[1].id: image id 1 appears twice"),
            ("{\"images\": [{\"id\": 1}]}", "images[0]: missing \"file_name\""),
            ("{\"annotations\": []}", "missing \"images\""),
            ("{\"images\": [], \"categories\": [{\"id\": 1, \"name\": \"cat\"}, {\"id\": 2, \"name\": \"dog\"}]}",
             "categories: 2 categories and none is named 'face' (cat, dog)"),
            ("{\"images\": [{\"id\": 1, \"file_name\": \"a.png\"}], \"annotations\": [{\"image_id\": 1, \"bbox\": [1,2,3,4], \"iscrowd\": 2}]}",
             "annotations[0].iscrowd: expected 0 or 1, got 2"),
            ("{\"images\": [{\"id\": 1, \"file_name\": \"a.png\"}],\n\"annotations\": [,]}", "line 2 column"),
        ]
        for (k, c) in cases.enumerated() {
            let path = try write(c.text, "bad\(k).json", in: dir)
            let m = message { _ = try FaceDataset.load("coco:" + path) }
            #expect(m.contains("coco '\(path)'") && m.contains(c.says), "\(c.text): \(m)")
            #expect(!m.contains("\n"))
        }
    }

    @Test func namesFindImagesByKeyThenByTrailingComponents() {
        let images = [AnnotatedImage(path: "/data/WIDER_val/images/0--Parade/0_Parade_1.jpg", name: "0--Parade/0_Parade_1.jpg", faces: []),
                      AnnotatedImage(path: "/data/sample/images/a.png", name: "images/a.png", faces: []),
                      AnnotatedImage(path: "/data/FDDB/originalPics/2002/08/11/big/img_591.jpg", name: "2002/08/11/big/img_591", faces: []),
                      AnnotatedImage(path: "/data/x/one/same.png", name: "one/same.png", faces: []),
                      AnnotatedImage(path: "/data/x/two/same.png", name: "two/same.png", faces: [])]
        let index = ImageKeyIndex(images)
        #expect(index.lookup("0--Parade/0_Parade_1") == .found(0))
        #expect(index.lookup("./0--Parade/0_Parade_1.jpg") == .found(0))
        #expect(index.lookup("0_Parade_1") == .found(0))
        #expect(index.lookup("images/a") == .found(1) && index.lookup("a.png") == .found(1) && index.lookup("sample/images/a") == .found(1))
        #expect(index.lookup("2002/08/11/big/img_591") == .found(2))
        #expect(index.lookup("originalPics/2002/08/11/big/img_591") == .found(2))
        #expect(index.lookup("same") == .ambiguous && index.lookup("two/same") == .found(4))
        // A longer name whose end is an image's name finds it; an end that is no image's does not.
        #expect(index.lookup("b/images/a.png") == .found(1))
        #expect(index.lookup("elsewhere") == .unknown && index.lookup("images/zzz") == .unknown)
        #expect(ImageKeyIndex.key("/a/b.c/d.jpg") == "a/b.c/d" && ImageKeyIndex.key("img_591") == "img_591")
    }

    @Test func specsTakeFormatPathAndName() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let folder = dir.appendingPathComponent("run-7").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let wider = try PredictionSpec(parsing: folder + "/")
        #expect(wider.format == .wider && wider.name == "run-7")
        let named = try PredictionSpec(parsing: folder + ":mine")
        #expect(named.format == .wider && named.path == folder && named.name == "mine")
        let coco = try PredictionSpec(parsing: "results.json")
        #expect(coco.format == .coco && coco.name == "results")
        let forced = try PredictionSpec(parsing: "fddb:out/dets.json:x")
        #expect(forced.format == .fddb && forced.path == "out/dets.json" && forced.name == "x")
        #expect(try PredictionSpec(parsing: "dets.txt").format == .fddb)
        #expect(message { _ = try PredictionSpec(parsing: "coco:") }.contains("no path"))
        #expect(message { _ = try PredictionSpec(parsing: "a.txt:") }.contains("NAME"))
    }

    /// What the writers write reads back as the same Doubles.
    @Test func writersRoundTripExactly() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let faces = [PredictedFace(box: FaceBox(x: 0.1, y: 1e-7, width: 123456.789, height: 2.0 / 3.0), score: -0.30000000000000004),
                     PredictedFace(box: FaceBox(x: 5e20, y: 0, width: 1, height: 1), score: 1.7976931348623157e308)]
        let fddb = try write(FDDBPredictions.text([("2002/a/img_1", faces), ("2002/a/img_2", [])]), "list.txt", in: dir)
        let list = try PredictionFile.read(fddb, format: .fddb)
        #expect(list.images.map(\.faces) == [faces, []])

        let folder = dir.appendingPathComponent("wider")
        let file = try write(WiderPredictions.text(key: "0--Parade/p_1", faces: faces),
                             WiderPredictions.relativeFile(forKey: "0--Parade/p_1"), in: folder)
        #expect(file.hasSuffix("wider/0--Parade/p_1.txt"))
        #expect(WiderPredictions.relativeFile(forKey: "../../etc/x") == "etc/x.txt")
        #expect(try PredictionFile.read(folder.path, format: .wider).images.map(\.faces) == [faces])

        let coco = try write(COCOResults.json([(id: 4, faces: faces), (id: 9, faces: [])], category: 1), "r.json", in: dir)
        let results = try PredictionFile.read(coco, format: .coco, cocoCategory: 1)
        #expect(results.images.map(\.key) == [.cocoID(4)] && results.images[0].faces == faces)

        let truth = [AnnotatedImage(path: "/x/a \"b\".png", name: "a.png", faces: [GroundTruthFace(box: FaceBox(x: 0.1, y: 2, width: 3, height: 4)),
                                                                                   GroundTruthFace(box: FaceBox(x: 1, y: 1, width: 5, height: 5), ignore: true)],
                                    cocoID: 1),
                     AnnotatedImage(path: "/x/b.png", name: "b.png", faces: [], cocoID: 2)]
        let gt = try write(FaceDataset.cocoGroundTruth(truth, fileNames: ["sub/a \"b\".png", "/x/b.png"]), "gt.json", in: dir)
        let back = try FaceDataset.load("coco:" + gt)
        #expect(back.images.map(\.name) == ["sub/a \"b\".png", "/x/b.png"] && back.images.map(\.cocoID) == [1, 2])
        #expect(back.images.map(\.faces) == truth.map(\.faces))
    }
}
