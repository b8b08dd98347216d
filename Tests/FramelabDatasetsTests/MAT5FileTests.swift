import Foundation
import FramelabCore
import FramelabDatasets
import FramelabTestSupport
import Testing

/// `MAT5File` on files scipy.io.savemat writes (compressed and not) and on files built byte
/// by byte the way MATLAB writes them (Fixtures/mat5_samples.py), and on broken files.
@Suite struct MAT5FileTests {
    /// The sample files, written once per test into a fresh folder.
    func samples() throws -> URL {
        let dir = try TestSupport.makeTemporaryDirectory("mat5")
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/FramelabDatasetsTests/Fixtures/mat5_samples.py").path
        let r = try TestSupport.run(TestSupport.python, [script, dir.path])
        #expect(r.status == 0, "mat5_samples.py: \(r.stderr)")
        return dir
    }

    func message(_ body: () throws -> Void) -> String {
        do { try body() } catch let e as FramelabError { return e.message } catch { return "\(error)" }
        Issue.record("expected an error")
        return ""
    }

    @Test(arguments: ["samples.mat", "samples_plain.mat"])
    func readsWhatScipyWrites(_ name: String) throws {
        let dir = try samples()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(name).path
        let f = try MAT5File(contentsOf: path)
        // Column-major values, dimensions as MATLAB sees them.
        #expect(try f.variable("matrix") == .numeric(dimensions: [2, 3], values: [1.5, 4, 2, 5, 3, -6.25]))
        #expect(try f.variable("matrix").matrixRows(path, "matrix", columns: 3) == [[1.5, 2, 3], [4, 5, -6.25]])
        #expect(try f.variable("ints") == .numeric(dimensions: [1, 3], values: [-3, 0, 70000]))
        #expect(try f.variable("bytes") == .numeric(dimensions: [1, 3], values: [0, 7, 255]))
        #expect(try f.variable("singles") == .numeric(dimensions: [1, 2], values: [0.5, -1.25]))
        #expect(try f.variable("big") == .numeric(dimensions: [1, 1], values: [Double(1 << 40 + 1)]))
        #expect(try f.variable("flags") == .numeric(dimensions: [1, 2], values: [1, 0]))
        #expect(try f.variable("empty") == .numeric(dimensions: [0, 4], values: []))
        #expect(try f.variable("name").string(path, "name") == "0--Parade")
        #expect(try f.variable("words") == .text(dimensions: [2, 2], rows: ["ab", "cd"]))
        #expect(try f.variable("unicode").string(path, "unicode") == "Zoë")
        let mixed = try f.variable("mixed").cellElements(path, "mixed")
        #expect(mixed.count == 3)
        #expect(mixed[0] == .numeric(dimensions: [1, 2], values: [1, 2]))
        #expect(try mixed[1].string(path, "mixed{2}") == "text")
        #expect(mixed[2].isEmpty)
        // Nested cells, like the kit's face_bbx_list{event}{image}.
        let nested = try f.variable("nested").cellElements(path, "nested")
        #expect(nested.count == 2)
        let first = try nested[0].cellElements(path, "nested{1}")
        #expect(try first[0].matrixRows(path, "nested{1}{1}", columns: 4) == [[1, 2, 3, 4], [5, 6, 7, 8]])
        #expect(try first[1].matrixRows(path, "nested{1}{2}", columns: 4) == [])
        #expect(try nested[1].cellElements(path, "nested{2}")[0].matrixRows(path, "x", columns: 4) == [[9, 10, 11, 12]])
        #expect(f.variables.count == 12)
    }

    @Test(arguments: ["matlab_style_le.mat", "matlab_style_be.mat"])
    func readsMatlabsOwnEncodings(_ name: String) throws {
        let dir = try samples()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try MAT5File(contentsOf: dir.appendingPathComponent(name).path)
        #expect(try f.variable("title") == .text(dimensions: [1, 4], rows: ["Wide"]))
        // A 2×2 double stored as four uint8 values in a small element; an empty cell entry of no bytes.
        #expect(try f.variable("boxes") == .cell(dimensions: [1, 2], elements: [
            .numeric(dimensions: [2, 2], values: [1, 2, 3, 4]), .numeric(dimensions: [0, 0], values: []),
        ]))
    }

    @Test func wrongShapesAndMissingVariablesAreNamed() throws {
        let dir = try samples()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("samples.mat").path
        let f = try MAT5File(contentsOf: path)
        let missing = message { _ = try f.variable("gt_list") }
        #expect(missing.contains(path) && missing.contains("gt_list") && missing.contains("nested"))
        let shape = message { _ = try f.variable("matrix").matrixRows(path, "face_bbx_list{1}{1}", columns: 4) }
        #expect(shape.contains(path) && shape.contains("face_bbx_list{1}{1}") && shape.contains("2x3"))
        #expect(message { _ = try f.variable("mixed").string(path, "mixed") }.contains("cell array"))
    }

    /// Every prefix of a file, and many garbled copies, are refused with one line naming the
    /// file (or read, where a garbled byte happens to keep the file valid): never a crash.
    @Test(arguments: ["samples.mat", "samples_plain.mat", "matlab_style_be.mat"])
    func truncatedAndGarbledFilesAreOneLineErrors(_ name: String) throws {
        let dir = try samples()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
        let path = "/data/" + name
        var refused = 0
        func check(_ b: [UInt8]) {
            do {
                _ = try MAT5File(bytes: b, path: path)
            } catch let e as FramelabError {
                refused += 1
                #expect(e.message.contains("'\(path)'") && !e.message.contains("\n"), "\(e.message)")
            } catch {
                Issue.record("not a FramelabError: \(error)")
            }
        }
        for n in 0..<bytes.count { check(Array(bytes[0..<n])) }
        // Some prefixes end between elements and are valid files with fewer variables.
        #expect(refused > bytes.count / 2)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<600 {
            var b = bytes
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                b[Int.random(in: 128..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            check(b)
        }
        let truncated = message { _ = try MAT5File(bytes: Array(bytes[0..<(bytes.count - 3)]), path: path) }
        #expect(truncated.contains(path) && truncated.contains("element"))
    }

    @Test func notAMATFileIsNamed() throws {
        let m = message { _ = try MAT5File(bytes: [UInt8]("<html>not a mat file</html>".utf8) + [UInt8](repeating: 32, count: 200),
                                          path: "/tmp/x.mat") }
        #expect(m.contains("/tmp/x.mat") && m.contains("not a MATLAB 5 file"))
        #expect(message { _ = try MAT5File(contentsOf: "/nonexistent/wider_face_val.mat") }.contains("/nonexistent/wider_face_val.mat"))
    }

    @Test func compressedElementsInflateOnlyUpToTheLimit() throws {
        let dir = try samples()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent("samples.mat")))
        let m = message { _ = try MAT5File(bytes: bytes, path: "/data/samples.mat", inflateLimit: 64) }
        #expect(m.contains("/data/samples.mat") && m.contains("inflates to more than 64 bytes"))
        #expect(try MAT5File(bytes: bytes, path: "/data/samples.mat").variables.count == 12)
    }
}
