import Foundation
import FramelabCore
@testable import FramelabRecording
import Testing

extension RecordingTests {
    /// Layout changes are not covered by SWMR's crash consistency; they are kept crash-safe
    /// by never allocating new object-header blocks for them (an update is then a single
    /// in-place block write). These tests check that the blocks indeed stay put.
    @Suite("Object headers do not grow new blocks after creation")
    struct HeaderLayout {
        /// (blocks, address) of an object's header.
        static func header(_ path: String, _ object: String) throws -> (chunks: UInt32, address: UInt64) {
            try H5File.headerLayout(path: path, object: object)
        }

        @Test("Setting many attributes and finishing rewrites the run's header in place")
        func runHeader() throws {
            let path = try Scratch.directory().appendingPathComponent("header.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "r", attributes: Sample.attributes, stageNames: Sample.stageNames)
            let initial = try Self.header(path, "runs/r")
            #expect(initial.chunks == 1)
            for i in 0..<20 {
                try run.setAttribute("setting_\(i % 5)", .string("value number \(i) of a mid-run setting"))
                try run.setAttribute("count", .int(Int64(i)))
            }
            try run.finish(status: "completed")
            file.close()
            let final = try Self.header(path, "runs/r")
            #expect(final == initial, "header was \(initial), is \(final)")
            let data = try RecordingReader.readRun(path: path, id: "r")
            #expect(data.attributes["setting_4"] == .string("value number 19 of a mid-run setting"))
        }

        @Test("Adding runs rewrites /runs' header in place")
        func runsHeader() throws {
            let path = try Scratch.directory().appendingPathComponent("runs.h5").path
            let file = try RecordingFile(path: path)
            try file.createRun(id: "first", attributes: [:], stageNames: []).finish(status: "completed")
            let initial = try Self.header(path, "runs")
            #expect(initial.chunks == 1)
            for i in 0..<40 {
                try file.createRun(id: "run-\(i)-with-a-longish-name", attributes: [:], stageNames: [])
                    .finish(status: "completed")
            }
            file.close()
            #expect(try Self.header(path, "runs") == initial)
            #expect(try RecordingReader.runIDs(path: path).count == 41)
        }
    }
}
