#if canImport(Glibc)
import Glibc
#endif

/// Writes `bytes` as the whole of a new or truncated file at `path`, failing with the
/// system's reason ("File too large", "No space left on device", "Permission denied").
/// Foundation's `Data.write` on Linux says only "NSCocoaErrorDomain error 512".
public func writeWholeFile(_ bytes: [UInt8], to path: String) throws {
    func failed(_ what: String) -> FramelabError {
        FramelabError(.io, "cannot \(what) '\(path)': \(String(cString: strerror(errno)))")
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw failed("create") }
    var written = 0
    while written < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
            let error = failed("write")
            close(fd)
            throw error
        }
        written += n
    }
    guard close(fd) == 0 else { throw failed("write") }
}
