import FramelabTestSupport
import Foundation
import Testing

/// `FRAMELAB_ISA` and `bench filters --isa`, end to end: bad levels are one-line errors, the
/// report names its level, `--isa all` times each level this CPU has and records a run per level.
@Suite(.serialized) struct KernelLevelCommandTests {
    let small = ["bench", "filters", "--size", "64x48", "--chain-size", "64x48", "--repeats", "2", "--warmup", "1"]

    @Test func unknownLevelInTheEnvironmentIsAOneLineError() throws {
        let r = try TestSupport.framelab(["--version"], environment: ["FRAMELAB_ISA": "sse9"])
        #expect(r.status == 1 && !r.signalled)
        #expect(r.stderr.hasPrefix("framelab: error: FRAMELAB_ISA=sse9: unknown kernel level (known: baseline, avx2, avx512; "))
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func unknownIsaFlagIsAUsageError() throws {
        let r = try TestSupport.framelab(small + ["--isa", "neon2"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("framelab: error: --isa=neon2: unknown kernel level"), "\(r.stderr)")
    }

    @Test func reportNamesTheForcedLevel() throws {
        let r = try TestSupport.framelab(small + ["--filter", "sepia", "--paths", "simd", "--json"],
                                         environment: ["FRAMELAB_ISA": "baseline"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("bench: kernel level baseline (FRAMELAB_ISA; this CPU has baseline"), "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(json?["isa"] as? String == "baseline")
        let text = try TestSupport.framelab(small + ["--filter", "sepia", "--paths", "simd", "--isa", "baseline", "--quiet"])
        #expect(text.stdout.hasPrefix("kernel level: baseline"), "\(text.stdout)")
    }

    /// The levels this CPU has, as the command reports them on standard error.
    func supportedLevels(_ stderr: String) -> [String] {
        guard let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("bench: kernel level") }),
              let has = line.range(of: "this CPU has ") else { return [] }
        return line[has.upperBound...].dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func isaAllTimesEveryLevelAndRecordsARunPerLevel() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let out = dir.appendingPathComponent("levels.h5").path
        let r = try TestSupport.framelab(small + ["--filter", "sepia", "--filter", "gamma", "--paths", "simd,recipe", "--isa", "all",
                                                  "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let levels = supportedLevels(r.stderr)
        #expect(levels.first == "baseline", "\(r.stderr)")
        for level in levels {
            #expect(r.stdout.contains("kernel level: \(level) "), "missing \(level)")
            #expect(r.stdout.contains("recorded the benchmark at kernel level \(level) as run"), "\(r.stdout)")
        }
        #expect(r.stdout.contains("kernel levels side by side at 64x48"))
        let row = r.stdout.split(separator: "\n").first { $0.hasPrefix("sepia ") && $0.contains("simd") && $0.contains(" = ") }
        #expect(row.map { $0.components(separatedBy: " = ").count - 1 } == levels.count, "\(r.stdout)")

        let script = """
            import sys, h5py
            f = h5py.File(sys.argv[1], "r")
            def s(v): return v.decode() if isinstance(v, bytes) else str(v)
            print(" ".join(sorted({s(x) for run in f["runs"].values() for x in run["bench_results"]["isa"]})))
            print(" ".join(sorted(",".join(sorted({s(x) for x in run["bench_results"]["isa"]})) for run in f["runs"].values())))
            """
        let py = try TestSupport.python(script, arguments: [out])
        #expect(py.status == 0, "\(py.stderr)")
        let lines = py.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == levels.sorted().joined(separator: " "), "\(py.stdout)")
        // Each run holds one level.
        #expect(lines.dropFirst().first == levels.sorted().joined(separator: " "), "\(py.stdout)")
    }

    @Test func isaAllJSONHasAReportPerLevelAndTheComparison() throws {
        let r = try TestSupport.framelab(small + ["--filter", "sepia", "--paths", "simd,recipe", "--isa", "all", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let levels = supportedLevels(r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let reports = json?["levels"] as? [[String: Any]] ?? []
        #expect(reports.compactMap { $0["isa"] as? String } == levels)
        let comparison = json?["comparison"] as? [String: Any]
        #expect(comparison?["levels"] as? [String] == levels)
        let rows = comparison?["rows"] as? [[String: Any]] ?? []
        #expect(rows.map { "\($0["filter"]!)/\($0["path"]!)" } == ["sepia/simd", "chain4/eager-simd", "chain4/recipe"])
        #expect(rows.allSatisfy { ($0["by_level"] as? [String: Any])?.count == levels.count })
    }

    @Test func helpDescribesIsa() throws {
        let r = try TestSupport.framelab(["bench", "filters", "--help"])
        let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--isa <isa> Kernel level for the SIMD and recipe paths: baseline, avx2, avx512, or all"))
        #expect(text.contains("default: $FRAMELAB_ISA, else the best this CPU has"))
    }
}
