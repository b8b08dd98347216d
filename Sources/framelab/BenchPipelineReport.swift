import FramelabEvaluation
import FramelabPipeline
import Foundation

/// What `framelab bench pipeline` measured, as text with goal lines or as JSON.
struct PipelineBenchReport {
    static let overheadFrames = 20_000
    /// The goals the benchmark checks (2 cores).
    static let stageSpeedupGoal = 1.8
    static let workerSpeedupGoal = 1.8
    static let overheadGoalMicroseconds = 5.0

    let width: Int
    let height: Int
    let throughput: PipelineBenchmark.Throughput
    let scaling: DetectorBenchmark.ThreadScaling?
    let overhead: [PipelineBenchmark.Mode: (min: Double, median: Double)]

    struct Goal {
        let text: String
        let met: Bool
        let measured: String
    }

    var goals: [Goal] {
        let pipelining = throughput.speedup(.pipelining)
        var goals = [Goal(text: "two equal stages: --pipelining >= \(Self.stageSpeedupGoal)x serial",
                          met: pipelining.min >= Self.stageSpeedupGoal,
                          measured: String(format: "%.2fx (median %.2fx)", pipelining.min, pipelining.median))]
        if let s = scaling {
            goals.append(Goal(text: "detector eval: --workers 2 >= \(Self.workerSpeedupGoal)x --workers 1",
                              met: s.speedup >= Self.workerSpeedupGoal,
                              measured: String(format: "%.2fx (median %.2fx)", s.speedup, s.medianSpeedup)))
        }
        let serial = overhead[.serial] ?? (0, 0)
        goals.append(Goal(text: "engine cost per frame (serial, 4 pass-through stages) < \(Self.overheadGoalMicroseconds) us",
                          met: serial.min < Self.overheadGoalMicroseconds,
                          measured: String(format: "%.2f us (median %.2f us)", serial.min, serial.median)))
        return goals
    }

    func text() -> String {
        var lines = ["== two scalar sepia stages, \(throughput.frames) frames of \(width)x\(height), keep-all"]
        lines.append("mode          wall min ms  median ms   frames/s   speed-up min (median)")
        for mode in PipelineBenchmark.Mode.allCases {
            guard let t = throughput.timings[mode] else { continue }
            let s = throughput.speedup(mode)
            lines.append(mode.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
                         + String(format: " %11.1f %10.1f %10.1f   %5.2fx (%.2fx)", t.minMs, t.medianMs,
                                  Double(throughput.frames) / (t.minMs / 1000), s.min, s.median))
        }
        if let s = scaling {
            lines.append("== eval of cascade on \(s.images) composites")
            lines.append(String(format: "--workers 1: %.1f ms (median %.1f); --workers 2: %.1f ms (median %.1f): %.2fx (median %.2fx)",
                                s.oneThread.min, s.oneThread.median, s.twoThreads.min, s.twoThreads.median, s.speedup,
                                s.medianSpeedup))
        }
        lines.append("== engine cost per frame, \(Self.overheadFrames) frames through 4 pass-through stages")
        for mode in PipelineBenchmark.Mode.allCases {
            guard let o = overhead[mode] else { continue }
            lines.append(mode.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
                         + String(format: " %6.2f us (median %.2f us)", o.min, o.median))
        }
        lines.append("== speed goals (2 cores)")
        for g in goals { lines.append("\(g.met ? "met" : "NOT met"): \(g.text): \(g.measured)") }
        return lines.joined(separator: "\n")
    }

    /// What `bench pipeline --json` prints: {"frame": {"width", "height"}, "throughput":
    /// [{mode, frames, min_ms, median_ms, speedup, median_speedup}], "overhead_us": [{mode,
    /// min, median}], "goals": [{goal, met, measured}], "eval_workers"?: {...}}.
    struct Document: Encodable {
        struct Frame: Encodable { let width: Int, height: Int }
        struct Throughput: Encodable {
            let mode: String, frames: Int, min_ms: Double, median_ms: Double, speedup: Double, median_speedup: Double
        }
        struct Overhead: Encodable { let mode: String, min: Double, median: Double }
        struct GoalLine: Encodable { let goal: String, met: Bool, measured: String }
        struct EvalWorkers: Encodable {
            let images: Int, one_worker_min_ms: Double, two_workers_min_ms: Double, speedup: Double, median_speedup: Double
        }
        let frame: Frame
        let throughput: [Throughput]
        let overhead_us: [Overhead]
        let goals: [GoalLine]
        /// Absent when the eval part was not run.
        let eval_workers: EvalWorkers?
    }

    var document: Document {
        Document(
            frame: .init(width: width, height: height),
            throughput: PipelineBenchmark.Mode.allCases.compactMap { mode in
                guard let t = throughput.timings[mode] else { return nil }
                let s = throughput.speedup(mode)
                return .init(mode: mode.rawValue, frames: throughput.frames, min_ms: t.minMs, median_ms: t.medianMs,
                             speedup: s.min, median_speedup: s.median)
            },
            overhead_us: PipelineBenchmark.Mode.allCases.compactMap { mode in
                overhead[mode].map { .init(mode: mode.rawValue, min: $0.min, median: $0.median) }
            },
            goals: goals.map { .init(goal: $0.text, met: $0.met, measured: $0.measured) },
            eval_workers: scaling.map { s in
                .init(images: s.images, one_worker_min_ms: s.oneThread.min, two_workers_min_ms: s.twoThreads.min,
                      speedup: s.speedup, median_speedup: s.medianSpeedup)
            })
    }
}
