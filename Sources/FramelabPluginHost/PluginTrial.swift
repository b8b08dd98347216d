import FramelabCore
import FramelabDetection
import FramelabElements
import FramelabFilters

/// The test run every element gets before it is accepted: the parameters a run asks for
/// (default parameters for `plugins list`/`check`), one synthetic frame per accepted format. It runs in a worker process when one is
/// available, so a plugin that crashes is diagnosed in words instead of taking the host down.
public enum PluginTrial {
    /// Size of the synthetic trial frame: small, odd-sized rows to catch stride mistakes.
    public static let width = 97
    public static let height = 61

    /// Throws a one-line diagnosis naming the file and element when the element fails.
    /// Milliseconds the trial waits for an isolated element (it may load models first).
    public static let defaultTimeoutMilliseconds = 10_000

    /// `spec`: the element as a run configures it (so `model=OTHER` is what is tried, and a
    /// missing default model does not stop it); nil for the defaults.
    public static func run(_ element: PluginElement, spec: ElementSpec? = nil, isolated: Bool = true,
                           timeoutMilliseconds: Int = defaultTimeoutMilliseconds) throws {
        let values = try element.values(for: spec ?? ElementSpec(name: element.info.name))
        let useWorker = isolated && (try? IsolationEnvironment.workerExecutable()) != nil
        let options = IsolationOptions(timeoutMilliseconds: timeoutMilliseconds, restart: false)
        do {
            switch element.info.kind {
            case .filter:
                let filter: any FrameFilter = useWorker
                    ? try IsolatedPluginFilter(element: element, values: values, options: options)
                    : try PluginFilter(element: element, values: values)
                for format in element.info.formats {
                    let frame = pattern(format)
                    guard let expected = filter.outputFormat(for: format) else {
                        throw FramelabError(.badInput, "declares \(format) but its output_format rejects it")
                    }
                    let out = try filter.process(frame)
                    guard out.format == expected, out.width == width, out.height == height else {
                        throw FramelabError(.processing, "returned a \(out.width)x\(out.height) \(out.format) image for \(format), expected \(width)x\(height) \(expected)")
                    }
                }
            case .detector:
                let detect: (Mat) throws -> [FaceDetection]
                if useWorker {
                    detect = try IsolatedPluginDetector(element: element, values: values, options: options).detect
                } else {
                    detect = try PluginDetector(element: element, values: values).detect
                }
                for format in element.info.formats {
                    let found = try detect(pattern(format))
                    if let bad = found.first(where: { !$0.isWellFormed }) {
                        throw FramelabError(.processing, "reported a malformed box \(bad)")
                    }
                }
            }
        } catch let error as FramelabError {
            let text = error.message.contains(element.info.path) ? error.message : "element \(element.label): \(error.message)"
            throw FramelabError(error.kind, "\(text) (in the test run on a synthetic \(width)x\(height) frame)")
        }
    }

    /// A deterministic gradient with a bright square, in `format`.
    static func pattern(_ format: PixelFormat) -> Mat {
        let m = Mat(format: format, width: width, height: height, rowAlignment: 1)
        for y in 0..<height {
            for x in 0..<width {
                let inSquare = x > 30 && x < 60 && y > 20 && y < 45
                let v = inSquare ? 230.0 : Double((x * 2 + y) % 200)
                let values: [Double]
                switch format.channels {
                case 1: values = [v]
                case 3: values = [v, 255 - v, Double(y * 4 % 256)]
                default: values = [v, 255 - v, Double(y * 4 % 256), 255]
                }
                m.setPixel(x: x, y: y, values)
            }
        }
        return m
    }
}
