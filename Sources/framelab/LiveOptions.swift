import ArgumentParser
import FramelabPipeline
import Foundation

/// `framelab run`'s options for live sources and outputs: rate cap, video recording,
/// snapshots and the preview window.
struct LiveOptions: ParsableArguments {
    @Option(name: .customLong("max-fps"), help: "Process at most this many frames per second; the rest are recorded as dropped.")
    var maxFPS: Double?

    @Option(name: .long, help: "Write processed frames to this video file (.mkv/.avi: Motion JPEG, .mp4: MPEG-4).")
    var record: String?

    @Option(name: .long, help: "Save processed frames as PNG into this folder (made if missing): on SIGUSR2 (or key s in --preview), and every --snapshot-every frames.")
    var snapshot: String?

    @Option(name: .customLong("snapshot-every"), help: "With --snapshot: also save every Nth processed frame.")
    var snapshotEvery: Int?

    @Flag(name: .long, help: "Show processed frames in a window with per-stage ms and fps (keys: n next camera, s snapshot, q stop).")
    var preview = false

    @Flag(name: .customLong("draw-detections"), inversion: .prefixedNo,
          help: "Draw each detector's boxes, eyes and mouth with its name and score on --record, --snapshot and --preview frames.")
    var drawDetections = true

    @Option(name: .long, help: ArgumentHelp(
        "Change plugin parameters while the run goes on: read lines 'ELEMENT key=value' from this file (a FIFO, or a file being appended to).",
        discussion: "Each change reaches the element before its next frame: through its set_parameter (ABI 2), or by re-creating it. Needs --workers 1."))
    var tune: String?

    func validate() throws {
        if let maxFPS, !(maxFPS > 0 && maxFPS <= 10_000) {
            throw usageError("--max-fps must be above 0 and at most 10000, got \(maxFPS)")
        }
        if let snapshotEvery {
            guard snapshotEvery >= 1 else { throw usageError("--snapshot-every must be at least 1, got \(snapshotEvery)") }
            guard snapshot != nil else { throw usageError("--snapshot-every needs --snapshot DIR") }
        }
        if let snapshot {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: snapshot, isDirectory: &isDirectory) {
                // A folder that does not exist yet is made, as `mkdir -p` would.
                do {
                    try FileManager.default.createDirectory(atPath: snapshot, withIntermediateDirectories: true)
                    isDirectory = true
                } catch {
                    throw usageError("--snapshot '\(snapshot)': cannot create the folder: \(error.localizedDescription)")
                }
            }
            guard isDirectory.boolValue, FileManager.default.isWritableFile(atPath: snapshot) else {
                throw usageError("--snapshot '\(snapshot)' is not a writable folder")
            }
        }
        if let tune {
            var info = stat()
            guard stat(tune, &info) == 0, access(tune, R_OK) == 0 else {
                throw usageError("--tune '\(tune)': no such readable file (make one with mkfifo, or touch)")
            }
            guard (info.st_mode & S_IFMT) == S_IFIFO || (info.st_mode & S_IFMT) == S_IFREG else {
                throw usageError("--tune '\(tune)': use a FIFO or a regular file")
            }
        }
        if let record {
            let ext = (record as NSString).pathExtension.lowercased()
            guard ["mkv", "avi", "mp4", "m4v", "mov"].contains(ext) else {
                throw usageError("--record '\(record)': use a .mkv, .avi, .mp4, .m4v or .mov file")
            }
            let folder = (record as NSString).deletingLastPathComponent
            guard FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else {
                throw usageError("--record '\(record)': folder '\(folder)' is not writable")
            }
            // FFmpeg would write into a device or wait forever on a FIFO.
            var info = stat()
            if stat(record, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
                throw usageError("--record '\(record)': it exists and is not a regular file (it is left untouched)")
            }
        }
        if preview && ProcessInfo.processInfo.environment["DISPLAY"] == nil
            && ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil {
            throw usageError("--preview needs a display (DISPLAY is not set; under CI use xvfb-run)")
        }
    }

    func makeOutputs(source: any FrameSource, stageNames: [String], controls: LiveControls,
                     stop: @escaping () -> Void) -> RunOutputs {
        let live = source as? any LiveSource
        let window = preview ? PreviewWindow(stageNames: stageNames, onSwitch: { live?.requestSwitch() },
                                             onSnapshot: { controls.requestSnapshot() }, onQuit: stop) : nil
        return RunOutputs(record: record, snapshotDirectory: snapshot, snapshotEvery: snapshotEvery, preview: window,
                          overlay: drawDetections ? RunOverlay(stageNames: stageNames) : nil, controls: controls, fps: maxFPS.map { min($0, source.nominalFPS ?? $0) } ?? source.nominalFPS ?? 30)
    }
}
