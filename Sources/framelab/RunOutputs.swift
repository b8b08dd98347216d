import FramelabCore
import FramelabCV
import FramelabPipeline
import Foundation

/// Where processed frames go besides the HDF5 record: a video file (--record), PNG
/// snapshots (--snapshot), a preview window (--preview). Driven from the pipeline's
/// event thread; errors stop that output with a warning, never the run.
final class RunOutputs {
    /// What an output did worth keeping in the run's record (a snapshot file, a failure).
    struct Note { let kind: String; let detail: String; let frame: Int }

    private let recordPath: String?
    private let snapshotDirectory: String?
    private let snapshotEvery: Int?
    private let preview: PreviewWindow?
    private let controls: LiveControls
    private let fps: Double
    private var writer: VideoWriter?
    private var recordFailed = false
    private var processedCount = 0
    private(set) var notes: [Note] = []

    init(record: String?, snapshotDirectory: String?, snapshotEvery: Int?, preview: PreviewWindow?,
         controls: LiveControls, fps: Double) {
        recordPath = record
        self.snapshotDirectory = snapshotDirectory
        self.snapshotEvery = snapshotEvery
        self.preview = preview
        self.controls = controls
        self.fps = fps
    }

    var framesRecorded: Int { writer?.framesWritten ?? 0 }

    /// Takes the notes gathered since the last call.
    func takeNotes() -> [Note] {
        defer { notes.removeAll() }
        return notes
    }

    func handle(_ event: PipelineEvent) {
        preview?.observe(event)
        guard case .output(let frame) = event else { return }
        processedCount += 1
        record(frame)
        snapshotIfDue(frame)
        preview?.show(frame)
    }

    private func record(_ frame: Frame) {
        guard let recordPath, !recordFailed else { return }
        do {
            if writer == nil {
                writer = try VideoWriter(path: recordPath, fps: fps, width: frame.image.width, height: frame.image.height)
            }
            guard let writer, writer.width == frame.image.width, writer.height == frame.image.height else {
                notes.append(Note(kind: "record-skipped",
                                  detail: "frame \(frame.index) is \(frame.image.width)x\(frame.image.height), "
                                    + "the video \(writer!.width)x\(writer!.height)", frame: frame.index))
                return
            }
            try writer.write(frame.image)
        } catch {
            recordFailed = true
            printToStandardError("framelab: warning: --record stopped: \(error)")
            notes.append(Note(kind: "record-failed", detail: "\(error)", frame: frame.index))
        }
    }

    private func snapshotIfDue(_ frame: Frame) {
        guard let snapshotDirectory else { return }
        let periodic = snapshotEvery.map { processedCount % $0 == 0 } ?? false
        guard periodic || controls.takeSnapshotRequest() else { return }
        let path = (snapshotDirectory as NSString).appendingPathComponent(String(format: "frame-%08d.png", frame.index))
        do {
            try ImageCodec.write(frame.image, to: path)
            notes.append(Note(kind: "snapshot", detail: path, frame: frame.index))
        } catch {
            printToStandardError("framelab: warning: snapshot failed: \(error)")
            notes.append(Note(kind: "snapshot-failed", detail: "\(error)", frame: frame.index))
        }
    }

    /// Closes the video file (writes its index); call once the run has ended.
    func finish() {
        writer?.close()
        preview?.close()
    }
}
