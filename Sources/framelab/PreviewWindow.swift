import FramelabCore
import FramelabCV
import FramelabPipeline
import Foundation

/// The --preview window (OpenCV highgui): processed frames with an overlay of each
/// stage's milliseconds and the processed frame rate. Keys: n switches camera, s takes
/// a snapshot, q or Esc stops the run.
final class PreviewWindow {
    static let title = "framelab preview"
    /// Milliseconds highgui may spend on window events per frame.
    static let eventMilliseconds = 1

    private let stageNames: [String]
    private var stageMilliseconds: [Double]
    private var recentFinishes: [UInt64] = []
    private let onSwitch: () -> Void
    private let onSnapshot: () -> Void
    private let onQuit: () -> Void
    private var failed = false
    private var overlay: Mat?
    private let display = PreviewDisplay(title: PreviewWindow.title)

    init(stageNames: [String], onSwitch: @escaping () -> Void, onSnapshot: @escaping () -> Void,
         onQuit: @escaping () -> Void) {
        self.stageNames = stageNames
        stageMilliseconds = Array(repeating: 0, count: stageNames.count)
        self.onSwitch = onSwitch
        self.onSnapshot = onSnapshot
        self.onQuit = onQuit
    }

    /// Stage timings and frame completions feed the overlay.
    func observe(_ event: PipelineEvent) {
        switch event {
        case .timing(_, let stage, _, let duration) where stage < stageMilliseconds.count:
            stageMilliseconds[stage] = Double(duration) / 1e6
        case .frame(let f) where !f.dropped:
            recentFinishes.append(f.finished)
            if recentFinishes.count > 30 { recentFinishes.removeFirst() }
        default:
            break
        }
    }

    var fps: Double {
        guard recentFinishes.count > 1, let first = recentFinishes.first, let last = recentFinishes.last, last > first
        else { return 0 }
        return Double(recentFinishes.count - 1) / (Double(last - first) / 1e9)
    }

    func show(_ frame: Mat, index: Int) {
        guard !failed else { return }
        do {
            let image = try frame.converted(to: .bgra8)
            if overlay == nil || overlay!.width != image.width || overlay!.height != image.height {
                overlay = Mat(format: .bgra8, width: image.width, height: image.height)
            }
            let canvas = overlay!
            canvas.copyPixels(from: image)
            var lines = stageNames.enumerated().map { String(format: "%@ %.2f ms", $1, stageMilliseconds[$0]) }
            lines.append(String(format: "%.1f fps  frame %d", fps, index))
            let scale = max(0.4, Double(canvas.height) / 720)
            for (i, line) in lines.enumerated() {
                let y = Int(Double(28 * (i + 1)) * scale)
                try canvas.openCVFill(x: 4, y: y - Int(22 * scale), width: min(canvas.width - 8, Int(330 * scale)),
                                      height: Int(28 * scale), value: [0, 0, 0, 255])
                try canvas.drawText(line, x: 10, y: y, scale: 0.7 * scale, color: [0, 255, 255, 255],
                                    thickness: max(1, Int(2 * scale)))
            }
            guard let key = try display.show(canvas, waitMilliseconds: Self.eventMilliseconds) else { return }
            switch key & 0xFF {
            case Int32(UInt8(ascii: "n")): onSwitch()
            case Int32(UInt8(ascii: "s")): onSnapshot()
            case Int32(UInt8(ascii: "q")), 27: onQuit()
            default: break
            }
        } catch {
            failed = true
            printToStandardError("framelab: warning: --preview stopped: \(error) (is DISPLAY set?)")
        }
    }

    func close() { display.close() }
}
