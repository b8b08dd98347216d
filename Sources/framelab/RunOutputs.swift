import FramelabCore
import FramelabCV
import FramelabPipeline
import Foundation

/// Where processed frames go besides the HDF5 record: a video file (--record), PNG
/// snapshots (--snapshot), a preview window (--preview), each showing the detections drawn
/// on the frame unless --no-draw-detections. Driven from the pipeline's event thread;
/// errors stop that output with a warning, never the run.
final class RunOutputs {
    /// What an output did worth keeping in the run's record (a snapshot file, a failure).
    struct Note { let kind: String; let detail: String; let frame: Int }

    private let recordPath: String?
    private let snapshotDirectory: String?
    private let snapshotEvery: Int?
    private let preview: PreviewWindow?
    private let overlay: RunOverlay?
    private let controls: LiveControls
    private let fps: Double
    private var writer: VideoWriter?
    private var recordFailed = false
    private var processedCount = 0
    private(set) var notes: [Note] = []

    init(record: String?, snapshotDirectory: String?, snapshotEvery: Int?, preview: PreviewWindow?,
         overlay: RunOverlay?, controls: LiveControls, fps: Double) {
        recordPath = record
        self.snapshotDirectory = snapshotDirectory
        self.snapshotEvery = snapshotEvery
        self.preview = preview
        self.overlay = overlay
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
        // Drawn once, and only when an output takes this frame.
        var drawn: Mat?
        let image = { () -> Mat in
            if drawn == nil { drawn = self.overlay?.draw(on: frame) ?? frame.image }
            return drawn!
        }
        if recordPath != nil, !recordFailed { record(image(), index: frame.index) }
        if snapshotDue() { snapshot(image(), index: frame.index) }
        preview?.show(image(), index: frame.index)
    }

    private func record(_ image: Mat, index: Int) {
        guard let recordPath, !recordFailed else { return }
        do {
            if writer == nil {
                writer = try VideoWriter(path: recordPath, fps: fps, width: image.width, height: image.height)
            }
            guard let writer, writer.width == image.width, writer.height == image.height else {
                notes.append(Note(kind: "record-skipped",
                                  detail: "frame \(index) is \(image.width)x\(image.height), "
                                    + "the video \(writer!.width)x\(writer!.height)", frame: index))
                return
            }
            try writer.write(image)
        } catch {
            recordFailed = true
            printToStandardError("framelab: warning: --record stopped: \(error)")
            notes.append(Note(kind: "record-failed", detail: "\(error)", frame: index))
        }
    }

    private func snapshotDue() -> Bool {
        guard snapshotDirectory != nil else { return false }
        let periodic = snapshotEvery.map { processedCount % $0 == 0 } ?? false
        return periodic || controls.takeSnapshotRequest()
    }

    private func snapshot(_ image: Mat, index: Int) {
        guard let snapshotDirectory else { return }
        let path = (snapshotDirectory as NSString).appendingPathComponent(String(format: "frame-%08d.png", index))
        do {
            try ImageCodec.write(image, to: path)
            notes.append(Note(kind: "snapshot", detail: path, frame: index))
        } catch {
            printToStandardError("framelab: warning: snapshot failed: \(error)")
            notes.append(Note(kind: "snapshot-failed", detail: "\(error)", frame: index))
        }
    }

    /// Closes the video file (writes its index); call once the run has ended.
    func finish() {
        writer?.close()
        preview?.close()
    }
}
