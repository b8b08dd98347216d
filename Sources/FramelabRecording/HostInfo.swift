#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the machine, for a run's attributes.
public enum HostInfo {
    /// The host name (gethostname), or "unknown".
    public static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "unknown" : name
    }

    /// The CPU's model name from /proc/cpuinfo ("model name", or the ARM "Model"/"Hardware"
    /// lines), or "unknown".
    public static var cpuModel: String {
        guard let text = readSmallFile("/proc/cpuinfo") else { return "unknown" }
        for key in ["model name", "Model", "Hardware", "cpu model"] {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingWhitespace() == key else { continue }
                let value = parts[1].trimmingWhitespace()
                if !value.isEmpty { return value }
            }
        }
        return "unknown"
    }

    /// Logical CPUs online.
    public static var coreCount: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// The current UTC time as ISO 8601 with milliseconds, e.g. "2026-05-09T07:35:25.123Z".
    public static func utcNowISO8601() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
            + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
            + ".\(pad(now.tv_nsec / 1_000_000, 3))Z"
    }

    /// A small text file's contents (files in /proc report size 0, so read to the end).
    private static func readSmallFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > 4 << 20 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private extension Substring {
    func trimmingWhitespace() -> String {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return String(s)
    }
}
