import FramelabCore

extension BenchReport {
    /// `{"isa": …, "memcpy_ms": …, "results": [{filter, path, size, threads, min_ms, median_ms}, …], …}`.
    /// `memcpy_ms` is the minimum for the first size; `memcpy_ms_by_size` has every size.
    public func json() -> String {
        func number(_ v: Double) -> String { v.isFinite ? String(v) : "null" }
        func string(_ s: String) -> String {
            var out = "\""
            for ch in s.unicodeScalars {
                switch ch {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                default: out += ch.value < 0x20 ? "\\u" + String(format4(ch.value)) : String(ch)
                }
            }
            return out + "\""
        }
        let first = sizes.first.flatMap { memcpy[$0] }?.minMs ?? .nan
        let bySize = memcpy.keys.sorted().map { "\(string($0)): \(number(memcpy[$0]!.minMs))" }.joined(separator: ", ")
        let rows = results.map { r in
            let q = ratios(r)
            return "{\"filter\": \(string(r.filter)), \"path\": \(string(r.path)), \"size\": \(string(r.size)), "
                + "\"threads\": \(r.threads), \"min_ms\": \(number(r.timing.minMs)), \"median_ms\": \(number(r.timing.medianMs)), "
                + "\"runs\": \(r.timing.runs), \"side_by_side\": \(r.sideBySide), \"vs_memcpy\": \(q.memcpy.map(number) ?? "null"), "
                + "\"vs_opencv\": \(q.openCV.map(number) ?? "null"), \"vs_scalar\": \(q.scalar.map(number) ?? "null")}"
        }
        // "met" is null for a line measured only (no goal at this level).
        let goals = interrupted ? [] : goalLines().map { line in
            "{\"goal\": \(string(line.goal)), \"measured\": \(string(line.measured)), "
                + "\"met\": \(line.met.map { String($0) } ?? "null")}"
        }
        return "{\"isa\": \(string(isa)), \"interrupted\": \(interrupted), \"memcpy_ms\": \(number(first)), \"memcpy_ms_by_size\": {\(bySize)},\n \"results\": [\n  "
            + rows.joined(separator: ",\n  ") + "\n ],\n \"skipped\": [" + skipped.map(string).joined(separator: ", ")
            + "],\n \"goals\": [" + goals.joined(separator: ", ") + "]}"
    }
}

private func format4(_ v: UInt32) -> String {
    let hex = String(v, radix: 16)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
