#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SHA256 {
    /// The SHA-256 of the file at `path` as 64 lowercase hex digits, as `sha256sum` prints
    /// it; nil when it cannot be read. Runs record it for every plugin and model file used.
    public static func file(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var hash = SHA256()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n > 0 { hash.update(chunk[0..<n]) }
            if n < chunk.count {
                if ferror(f) != 0 { return nil }
                break
            }
        }
        return hash.hexDigest()
    }
}
