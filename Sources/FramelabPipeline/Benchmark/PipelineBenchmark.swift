import FramelabCore
import FramelabFilters

/// `framelab bench pipeline`: the engine's execution modes side by side on the same
/// frames, in alternating rounds, so the ratios between them are fair on a shared machine.
public enum PipelineBenchmark {
    /// How a run executes its stages.
    public enum Mode: String, Sendable, CaseIterable {
        case serial, pipelining
        case workers2 = "workers-2"

        func pipeline(source: any FrameSource, stages: [any PipelineStage]) -> Pipeline {
            Pipeline(source: source, stages: stages, policy: .keepAll, workers: self == .workers2 ? 2 : 1,
                     pipelining: self == .pipelining)
        }
    }

    /// Wall time of one run of `frames` frames in each mode (min and median over rounds).
    public struct Throughput: Sendable {
        public let frames: Int
        public let timings: [Mode: BenchTimer.Timing]

        /// How many times faster `mode` delivers the frames than the serial engine (min, median).
        public func speedup(_ mode: Mode) -> (min: Double, median: Double) {
            guard let serial = timings[.serial], let other = timings[mode], other.minMs > 0, other.medianMs > 0 else {
                return (0, 0)
            }
            return (serial.minMs / other.minMs, serial.medianMs / other.medianMs)
        }
    }

    /// `frames` copies of `image` through `stages` in every mode, `rounds` alternating rounds
    /// after one warm-up run each.
    public static func throughput(image: Mat, frames: Int, stages: [any PipelineStage], modes: [Mode] = Mode.allCases,
                                  rounds: Int) throws -> Throughput {
        let bodies: [() throws -> Void] = modes.map { mode in
            { try run(mode.pipeline(source: RepeatedFrameSource(image: image, count: frames), stages: stages)) }
        }
        let timings = try BenchTimer(warmup: 1, repeats: rounds).measureSideBySide(bodies, rounds: rounds)
        return Throughput(frames: frames, timings: Dictionary(uniqueKeysWithValues: zip(modes, timings)))
    }

    /// The engine's own cost per frame: `frames` frames through `stageCount` pass-through
    /// stages, in microseconds per frame (min and median over rounds), for each mode.
    public static func overhead(frames: Int, stageCount: Int, modes: [Mode] = Mode.allCases,
                                rounds: Int) throws -> [Mode: (min: Double, median: Double)] {
        let image = Mat(format: .bgra8, width: 64, height: 48)
        let stages: [any PipelineStage] = (0..<stageCount).map { PassThroughStage(name: "pass-\($0)") }
        let result = try throughput(image: image, frames: frames, stages: stages, modes: modes, rounds: rounds)
        return result.timings.mapValues { (min: $0.minMs * 1000 / Double(frames), median: $0.medianMs * 1000 / Double(frames)) }
    }

    private static func run(_ pipeline: Pipeline) throws {
        var processed = 0
        try pipeline.run { event in
            if case .frame(let outcome) = event, !outcome.dropped { processed += 1 }
        }
        if processed == 0 { throw FramelabError(.processing, "the benchmark pipeline processed no frame") }
    }
}
