import FramelabCore
import FramelabRecording

extension RunSummary {
    /// One detector's scores in an eval or merged run (`detector_metrics`).
    public struct DetectorLine: Encodable, Sendable {
        public let name: String
        public let ap: Double, precision: Double, recall: Double, f1: Double
        /// nil when the detector has no timings (saved predictions: `p50_ns` -1); JSON null.
        public let p50_ms: Double?, p95_ms: Double?
        public let images: Int, faces: Int, failed: Int

        private enum CodingKeys: String, CodingKey { case name, ap, precision, recall, f1, p50_ms, p95_ms, images, faces, failed }

        // Written by hand so absent timings are `null`, not a missing key.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(ap, forKey: .ap); try c.encode(precision, forKey: .precision)
            try c.encode(recall, forKey: .recall); try c.encode(f1, forKey: .f1)
            try c.encode(p50_ms, forKey: .p50_ms); try c.encode(p95_ms, forKey: .p95_ms)
            try c.encode(images, forKey: .images); try c.encode(faces, forKey: .faces); try c.encode(failed, forKey: .failed)
        }
    }

    /// One metric of an official protocol for one detector (`protocol_scores`); value nil
    /// where the protocol leaves it undefined (NaN in the file).
    public struct ProtocolScoreLine: Encodable, Sendable {
        public let detector: String
        public let `protocol`: String
        public let metric: String
        public let value: Double?
    }

    /// One measured case of a bench run (`bench_results`): min and median of its repetitions.
    public struct BenchCase: Encodable, Sendable {
        public let filter: String, path: String, size: String, threads: Int, isa: String
        public let runs: Int
        public let min_ms: Double, median_ms: Double
    }

    /// What the run's kind adds: an eval's detector scores, a bench run's cases and goals.
    mutating func addKindDetails(_ run: RunData, path: String) throws {
        if case .strings(let g)? = run.attributes["goals"] { goals = g }
        switch kind {
        case "eval":
            detectors = try Self.detectorLines(run, path: path)
            protocol_scores = try Self.protocolLines(run, path: path)
        case "bench filters": bench_cases = try Self.benchCases(run, path: path)
        default: break
        }
    }

    private static func detectorLines(_ run: RunData, path: String) throws -> [DetectorLine]? {
        func name(_ k: Int) -> String { run.stageNames.indices.contains(k) ? run.stageNames[k] : "stage \(k)" }
        if run.schemaVersion == 1 {
            guard let t = try RecordingReader.readSchema1Table(path: path, runID: run.id, name: "detector_metrics") else { return nil }
            let column = Dictionary(t.columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            return t.rows.map { row in
                func v(_ c: String) -> Double { column[c].map { row[$0] } ?? .nan }
                func n(_ c: String) -> Int { Int(exactly: v(c).rounded()) ?? 0 }
                return DetectorLine(name: name(n("detector")), ap: v("ap"), precision: v("precision"), recall: v("recall"),
                                    f1: v("f1"), p50_ms: v("p50_ms"), p95_ms: v("p95_ms"), images: n("images"),
                                    faces: n("faces"), failed: n("failed"))
            }
        }
        return try RecordingReader.readRows(DetectorMetricsRow.self, path: path, runID: run.id)?.map { m in
            DetectorLine(name: name(Int(m.detector)), ap: m.ap, precision: m.precision, recall: m.recall, f1: m.f1,
                         p50_ms: m.p50Ns < 0 ? nil : Double(m.p50Ns) / 1e6, p95_ms: m.p95Ns < 0 ? nil : Double(m.p95Ns) / 1e6,
                         images: Int(m.images),
                         faces: Int(m.faces), failed: Int(m.failed))
        }
    }

    /// Nil for runs without official protocol scores (older files, framelab-only runs).
    private static func protocolLines(_ run: RunData, path: String) throws -> [ProtocolScoreLine]? {
        guard run.schemaVersion != 1,
              let rows = try RecordingReader.readRows(ProtocolScoreRow.self, path: path, runID: run.id), !rows.isEmpty else { return nil }
        return rows.map { r in
            let k = Int(r.detector)
            return ProtocolScoreLine(detector: run.stageNames.indices.contains(k) ? run.stageNames[k] : "stage \(k)",
                                     protocol: r.evaluationProtocol.rawValue, metric: r.metric,
                                     value: r.value.isFinite ? r.value : nil)
        }
    }

    private static func benchCases(_ run: RunData, path: String) throws -> [BenchCase]? {
        guard let rows = try RecordingReader.readRows(BenchResultRow.self, path: path, runID: run.id) else { return nil }
        struct Key: Hashable { let filter: String, path: String, width: Int32, height: Int32, threads: Int32, isa: String }
        var order: [Key] = [], samples: [Key: [Double]] = [:]
        for r in rows {
            let key = Key(filter: r.filter, path: r.path, width: r.width, height: r.height, threads: r.threads, isa: r.isa)
            if samples[key] == nil { order.append(key) }
            samples[key, default: []].append(Double(r.durationNs) / 1e6)
        }
        return order.map { key in
            let s = SampleStatistics(samples[key] ?? [])
            return BenchCase(filter: key.filter, path: key.path, size: "\(key.width)x\(key.height)", threads: Int(key.threads),
                             isa: key.isa, runs: s.count, min_ms: s.sorted.first ?? 0, median_ms: s.percentile(50))
        }
    }
}
