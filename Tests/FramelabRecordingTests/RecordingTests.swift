import Foundation
import FramelabCore
@testable import FramelabRecording
import FramelabTestSupport
import Testing

/// Every recording test runs one at a time: the durability tests fork the test process,
/// which is safest when no other test is inside HDF5 or the Swift runtime's locks.
@Suite(.serialized)
struct RecordingTests {}

/// Records with recognizable contents, so a reader can check every field of every row.
enum Sample {
    static func frame(_ i: Int64) -> FrameRecord {
        FrameRecord(index: i, ptsNs: i * 33_333_333, arrivalNs: 1_000_000_000 + i * 33_400_000,
                    dropped: i % 7 == 3, failed: i % 11 == 5)
    }

    static func timing(_ i: Int64, stage: Int32) -> StageTimingRecord {
        StageTimingRecord(frame: i, stage: stage, startNs: 5_000 + i * 1_000 + Int64(stage) * 100,
                          durationNs: 900 + i % 13 + Int64(stage))
    }

    static func failure(_ i: Int64) -> FailureRecord {
        FailureRecord(frame: i, stage: i % 2 == 0 ? FailureRecord.sourceStage : 1,
                      reason: "frame \(i) failed: ünïcødé ✓ 'quoted'")
    }

    static func event(_ i: Int64) -> EventRecord {
        EventRecord(frame: i, timeNs: 7_000 + i, kind: i % 2 == 0 ? "param" : "note",
                    detail: "event \(i): threshold=\(i * 2)")
    }

    static let stageNames = ["blur", "threshold", "contours"]

    static let attributes: [String: AttributeValue] = [
        "source": .string("camera:/dev/video0 (ünïcødé)"),
        "seed": .int(-42),
        "target_fps": .double(29.97),
        "pipeline": .strings(["blur:sigma=1.5", "threshold:value=128", "contours"]),
        "no_tags": .strings([]),
    ]
}

enum Scratch {
    /// A new empty folder for one test.
    static func directory() throws -> URL {
        try TestSupport.makeTemporaryDirectory("framelab-rec")
    }
}

/// Runs a Python snippet with h5py available; fails the test unless it exits 0.
/// Returns its standard output's lines.
@discardableResult
func python(_ script: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
    let result = try TestSupport.python(script, arguments: arguments)
    #expect(result.status == 0, "python failed: \(result.stderr)", sourceLocation: sourceLocation)
    return result.stdout.split(separator: "\n").map(String.init)
}
