import FramelabCore
import FramelabCV
import FramelabDetection
import FramelabElements
import FramelabEvaluation
import Foundation

/// The speed part of `bench detectors`: which detectors are installed, how long each
/// takes per frame at each size on one thread, and which frame budgets it fits.
struct DetectorSpeedReport {
    let rows: [DetectorSpeed.Row]
    /// Detectors that could not be made or failed while timed, with the reason.
    let unavailable: [(label: String, reason: String)]
    let repeats: Int

    /// The budgets a median is checked against (ms): 24 and 60 fps.
    static let budgets: [(fps: Int, ms: Double)] = [(24, 1000.0 / 24), (60, 1000.0 / 60)]

    /// `specs` empty: every detector the registry has (built-in and plugin), default parameters.
    static func measure(detectors specs: [String], image path: String, repeats: Int, plugins: PluginOptions,
                        progress: Bool) throws -> DetectorSpeedReport {
        let catalog = plugins.catalogWarningOfProblems()
        let registry = catalog.detectorRegistry().registry
        let parsed = try (specs.isEmpty ? registry.descriptors.map(\.name) : specs).map { try ElementSpec(parsing: $0) }
        for spec in parsed where registry[spec.name] == nil {
            throw FramelabError(.badInput, "--detector '\(spec.name)': no such detector (see `framelab detectors`)")
        }
        let image = try ImageCodec.read(path, as: .bgr8)
        let candidates = parsed.map { spec in
            DetectorSpeed.Candidate(label: spec.description) { try registry.instantiate(spec) }
        }
        let started = MonotonicClock.now()
        let result = try DetectorSpeed.measure(candidates, image: image, repeats: repeats) { done, total, what in
            guard progress, !what.isEmpty else { return }
            let seconds = Double(MonotonicClock.now() - started) / 1e9
            printToStandardError("bench detectors: [\(done + 1)/\(total)] \(what) (" + String(format: "%.0f s)", seconds))
        }
        return DetectorSpeedReport(rows: result.rows, unavailable: result.failures, repeats: repeats)
    }

    func printText() {
        print("== every installed detector, one thread, \(repeats) calls after a warm-up: ms per frame, min / median")
        let labels = rows.map(\.detector).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let sizes = rows.map { "\($0.width)x\($0.height)" }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let width = max(20, (labels.map(\.count).max() ?? 0) + 2)
        print("detector".padding(toLength: width, withPad: " ", startingAt: 0)
              + sizes.map { $0.padding(toLength: 24, withPad: " ", startingAt: 0) }.joined())
        for label in labels {
            var line = label.padding(toLength: width, withPad: " ", startingAt: 0)
            for size in sizes {
                guard let r = rows.first(where: { $0.detector == label && "\($0.width)x\($0.height)" == size }) else {
                    line += "—".padding(toLength: 24, withPad: " ", startingAt: 0)
                    continue
                }
                let cell = String(format: "%.1f / %.1f (%d)", r.timing.min, r.timing.median, r.faces)
                line += cell.padding(toLength: 24, withPad: " ", startingAt: 0)
            }
            print(line)
        }
        print("(n): faces found in the resized photograph")
        for (label, reason) in unavailable { print("unavailable: \(label) — \(reason)") }
        for size in sizes {
            for budget in Self.budgets {
                let fit = rows.filter { "\($0.width)x\($0.height)" == size && $0.timing.median <= budget.ms }.map(\.detector)
                print("budget \(size) at \(budget.fps) fps (" + String(format: "%.1f ms): ", budget.ms)
                      + (fit.isEmpty ? "none fits" : fit.joined(separator: ", ")))
            }
        }
    }

    /// One detector at one size in `bench detectors --json`'s "speed" list.
    struct SpeedJSON: Encodable {
        let detector: String, width: Int, height: Int, min_ms: Double, median_ms: Double, faces: Int, repeats: Int
        /// The budgets (fps) the median fits.
        let fits_fps: [Int]
    }
    struct UnavailableJSON: Encodable { let detector: String, reason: String }

    var speedJSON: [SpeedJSON] {
        rows.map { r in
            SpeedJSON(detector: r.detector, width: r.width, height: r.height, min_ms: r.timing.min, median_ms: r.timing.median,
                      faces: r.faces, repeats: repeats, fits_fps: Self.budgets.filter { r.timing.median <= $0.ms }.map(\.fps))
        }
    }

    var unavailableJSON: [UnavailableJSON] { unavailable.map { UnavailableJSON(detector: $0.label, reason: $0.reason) } }
}
