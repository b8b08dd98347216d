import FramelabCore

extension BenchReport {
    /// What `bench filters --json` prints and a bench run keeps in its `bench_json` attribute:
    /// `{"isa", "kernels", "format", "cpu_model", "interrupted", "memcpy_ms", "memcpy_ms_by_size", "memcpy_in_pieces_ms_by_threads",
    /// "results": [{filter, path,
    /// size, threads, min_ms, median_ms, runs, side_by_side, vs_memcpy, vs_opencv,
    /// vs_scalar}], "skipped", "goals": [{goal, measured, met}]}`. `memcpy_ms` is the minimum
    /// for the first size; a time or ratio that was not measured is null, as is "met" for a
    /// line measured only (no goal at this level).
    public struct Document: Encodable, Sendable {
        public struct Result: Encodable, Sendable {
            let filter: String, path: String, size: String, threads: Int
            @NullWhenAbsent var min_ms: Double?
            @NullWhenAbsent var median_ms: Double?
            let runs: Int, side_by_side: Bool
            @NullWhenAbsent var vs_memcpy: Double?
            @NullWhenAbsent var vs_opencv: Double?
            @NullWhenAbsent var vs_scalar: Double?
        }
        public struct Goal: Encodable, Sendable {
            let goal: String, measured: String
            @NullWhenAbsent var met: Bool?
        }
        let isa: String
        let kernels: String
        let format: String
        let cpu_model: String
        let interrupted: Bool
        @NullWhenAbsent var memcpy_ms: Double?
        let memcpy_ms_by_size: [String: Double?]
        let memcpy_in_pieces_ms_by_threads: [String: Double?]
        let results: [Result]
        let skipped: [String]
        let goals: [Goal]
    }

    public var document: Document {
        Document(
            isa: isa, kernels: kernels, format: format, cpu_model: cpuModel, interrupted: interrupted,
            memcpy_ms: sizes.first.flatMap { memcpy[$0] }?.minMs.finiteOrNil,
            memcpy_ms_by_size: memcpy.mapValues { $0.minMs.finiteOrNil },
            memcpy_in_pieces_ms_by_threads: Dictionary(uniqueKeysWithValues: memcpyInPieces.map { ("\($0.key)", $0.value.minMs.finiteOrNil) }),
            results: results.map { r in
                let q = ratios(r)
                return Document.Result(filter: r.filter, path: r.path, size: r.size, threads: r.threads,
                                       min_ms: r.timing.minMs.finiteOrNil, median_ms: r.timing.medianMs.finiteOrNil,
                                       runs: r.timing.runs, side_by_side: r.sideBySide,
                                       vs_memcpy: q.memcpy?.finiteOrNil, vs_opencv: q.openCV?.finiteOrNil,
                                       vs_scalar: q.scalar?.finiteOrNil)
            },
            skipped: skipped,
            goals: interrupted ? [] : goalLines().map { Document.Goal(goal: $0.goal, measured: $0.measured, met: $0.met) })
    }
}
