// A Framelab plugin in Swift: the filter `posterize` (each channel to N levels) and,
// in BrightSpot.swift, the detector `bright-spot`.
import FramelabPluginKit

final class Posterize: FramelabFilterPlugin {
    static let name = "posterize"
    static let version = "1.0.0"
    static let summary = "reduces each colour channel to a few levels, like CIColorPosterize"
    static let formats: [PluginPixelFormat] = [.gray8, .bgr8, .bgra8]
    static let parameters: [PluginParameter] = [
        .int("levels", 2...64, default: 6, "levels per channel"),
        .bool("keep-alpha", default: true, "leave the alpha channel of bgra8 images untouched"),
    ]

    /// The level each byte value maps to, computed once per instance.
    private let table: [UInt8]
    private var keepAlpha: Bool

    init(_ values: PluginValues) throws {
        let levels = values.int("levels")
        let step = 255.0 / Double(levels - 1)
        table = (0..<256).map { v in UInt8(((Double(v) / step).rounded() * step).rounded()) }
        keepAlpha = values.bool("keep-alpha")
    }

    /// keep-alpha changes live (ABI 2's set_parameter, e.g. from `run --tune`); a new
    /// `levels` needs a new table, so the host re-creates the instance for it.
    func update(_ name: String, _ values: PluginValues) throws -> Bool {
        guard name == "keep-alpha" else { return false }
        keepAlpha = values.bool("keep-alpha")
        return true
    }

    func process(_ input: PluginImage, into output: PluginImage) throws {
        let alphaEvery = input.format == .bgra8 && keepAlpha ? 4 : 0
        input.withRows(as: UInt8.self, and: output) { _, src, dst in
            for i in 0..<src.count {
                dst[i] = alphaEvery != 0 && i % 4 == 3 ? src[i] : table[Int(src[i])]
            }
        }
    }
}

let plugin = PluginExport(name: "swift-posterize", filters: [Posterize.self], detectors: [BrightSpot.self])

@_cdecl("framelab_plugin_entry")
public func framelabPluginEntry(_ hostMajor: UInt32, _ hostMinor: UInt32) -> UnsafeRawPointer? {
    plugin.entry
}
