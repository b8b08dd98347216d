import Foundation
import FramelabCore
@testable import FramelabRecording
import FramelabTestSupport
import Testing

extension RecordingTests {
    @Suite("Errors name the file and what is wrong")
    struct Errors {
        @Test("A duplicate run id is refused, in the same session and after reopening")
        func duplicateRunID() throws {
            let path = try Scratch.directory().appendingPathComponent("dup.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "same", attributes: [:], stageNames: [])
            run.append(Sample.frame(0))
            let error = #expect(throws: FramelabError.self) {
                _ = try file.createRun(id: "same", attributes: [:], stageNames: [])
            }
            #expect(error?.kind == .badInput)
            #expect(error?.message == "run 'same' already exists in HDF5 file '\(path)'")
            // The failed attempt did not disturb the run being written.
            run.append(Sample.frame(1))
            try run.finish(status: "completed")
            file.close()

            let reopened = try RecordingFile(path: path)
            #expect(throws: FramelabError(.badInput, "run 'same' already exists in HDF5 file '\(path)'")) {
                _ = try reopened.createRun(id: "same", attributes: [:], stageNames: [])
            }
            reopened.close()
            #expect(try RecordingReader.readRun(path: path, id: "same").frames == [Sample.frame(0), Sample.frame(1)])
        }

        @Test("An unwritable path fails with a message naming it")
        func unwritablePath() throws {
            let missingDirectory = "/nonexistent-framelab-dir/sub/run.h5"
            #expect(throws: FramelabError(.io, "cannot write HDF5 file '\(missingDirectory)': No such file or directory")) {
                _ = try RecordingFile(path: missingDirectory)
            }
            let dir = try Scratch.directory()
            let plainFile = dir.appendingPathComponent("not-a-dir").path
            try Data("x".utf8).write(to: URL(fileURLWithPath: plainFile))
            let underFile = plainFile + "/run.h5"
            #expect(throws: FramelabError(.io, "cannot write HDF5 file '\(underFile)': Not a directory")) {
                _ = try RecordingFile(path: underFile)
            }
            #expect(throws: FramelabError(.io, "cannot write HDF5 file '\(dir.path)': it is a directory, not a regular file (it is left untouched)")) {
                _ = try RecordingFile(path: dir.path)
            }
            // Nothing was left behind (no temporary files).
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["not-a-dir"])
        }

        @Test("A device, a FIFO or a socket is refused and left as it is; a symbolic link is followed")
        func notARegularFile() throws {
            let dir = try Scratch.directory()
            // /dev/full used to be replaced by an HDF5 file (as root).
            #expect(throws: FramelabError(.io, "cannot write HDF5 file '/dev/null': it is a character device, not a regular file (it is left untouched)")) {
                _ = try RecordingFile(path: "/dev/null")
            }
            let fifo = dir.appendingPathComponent("pipe.h5").path
            #expect(mkfifo(fifo, 0o644) == 0)
            #expect(throws: FramelabError(.io, "cannot write HDF5 file '\(fifo)': it is a FIFO (named pipe), not a regular file (it is left untouched)")) {
                _ = try RecordingFile(path: fifo)
            }
            var info = stat()
            #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)

            // A link to an empty file: the target becomes the recording, the link stays a link.
            let target = dir.appendingPathComponent("empty.h5").path
            FileManager.default.createFile(atPath: target, contents: nil)
            let link = dir.appendingPathComponent("link.h5").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let file = try RecordingFile(path: link)
            let run = try file.createRun(id: "through-link", attributes: [:], stageNames: [])
            run.append(Sample.frame(0))
            try run.finish(status: "completed")
            file.close()
            #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
            #expect(try RecordingReader.readRun(path: target, id: "through-link").frames == [Sample.frame(0)])

            let dangling = dir.appendingPathComponent("dangling.h5").path
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.appendingPathComponent("gone").path)
            #expect(throws: FramelabError(.io, "cannot write HDF5 file '\(dangling)': it is a symbolic link to a missing file")) {
                _ = try RecordingFile(path: dangling)
            }
            // Nothing else was made (no temporary files).
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["pipe.h5", "empty.h5", "link.h5", "dangling.h5"])
        }

        @Test("A file that is not HDF5 is refused and left untouched")
        func notHDF5() throws {
            let path = try Scratch.directory().appendingPathComponent("notes.h5").path
            let original = Data("these are my notes, not a recording\n".utf8)
            try original.write(to: URL(fileURLWithPath: path))
            #expect(throws: FramelabError(.io, "cannot write HDF5 file '\(path)': it is not an HDF5 file (it is left untouched)")) {
                _ = try RecordingFile(path: path)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
            let readError = #expect(throws: FramelabError.self) { _ = try RecordingReader.runIDs(path: path) }
            #expect(readError?.message == "cannot read HDF5 file '\(path)': it is not an HDF5 file")
        }

        @Test("An HDF5 file that is not a Framelab recording is refused and left untouched")
        func foreignHDF5() throws {
            let path = try Scratch.directory().appendingPathComponent("foreign.h5").path
            try python("""
                import sys, h5py
                with h5py.File(sys.argv[1], "w") as f:
                    f["data"] = [1, 2, 3]
                """, [path])
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let error = #expect(throws: FramelabError.self) { _ = try RecordingFile(path: path) }
            #expect(error?.kind == .io)
            #expect(error?.message.hasPrefix("cannot write HDF5 file '\(path)': not a Framelab recording") == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }

        @Test("An empty file is made into a recording (it holds nothing to lose)")
        func emptyFile() throws {
            let path = try Scratch.directory().appendingPathComponent("empty.h5").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let file = try RecordingFile(path: path)
            try file.createRun(id: "r", attributes: [:], stageNames: []).finish(status: "completed")
            file.close()
            #expect(try RecordingReader.runIDs(path: path) == ["r"])
        }

        @Test("Only one writer at a time: a second RecordingFile on the same path is refused")
        func secondWriter() throws {
            let path = try Scratch.directory().appendingPathComponent("busy.h5").path
            let first = try RecordingFile(path: path)
            let error = #expect(throws: FramelabError.self) { _ = try RecordingFile(path: path) }
            #expect(error?.message.hasPrefix("cannot write HDF5 file '\(path)': another writer") == true)
            first.close()
            let second = try RecordingFile(path: path)  // free again once closed
            second.close()
        }

        @Test("Bad run ids, reserved and empty attribute names, and missing runs are bad input")
        func badInput() throws {
            let path = try Scratch.directory().appendingPathComponent("bad.h5").path
            let file = try RecordingFile(path: path)
            for id in ["", ".", "..", "a/b"] {
                let error = #expect(throws: FramelabError.self) { _ = try file.createRun(id: id, attributes: [:], stageNames: []) }
                #expect(error?.kind == .badInput)
            }
            let reserved = #expect(throws: FramelabError.self) {
                _ = try file.createRun(id: "r", attributes: ["status": .string("x")], stageNames: [])
            }
            #expect(reserved?.kind == .badInput)
            #expect(reserved?.message.hasPrefix("attribute 'status' is reserved") == true)
            let run = try file.createRun(id: "r", attributes: [:], stageNames: [])
            #expect(throws: FramelabError.self) { try run.setAttribute("finished_utc", .string("now")) }
            #expect(throws: FramelabError.self) { try run.setAttribute("", .int(1)) }
            try run.finish(status: "completed")
            file.close()
            #expect(throws: FramelabError(.badInput, "no run 'nope' in HDF5 file '\(path)' (its runs are r)")) {
                _ = try RecordingReader.readRun(path: path, id: "nope")
            }
            let missing = path + ".missing"
            #expect(throws: FramelabError(.io, "cannot read HDF5 file '\(missing)': No such file or directory")) {
                _ = try RecordingReader.runIDs(path: missing)
            }
        }
    }
}
