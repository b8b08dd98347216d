#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanosecond timestamps from the system's monotonic clock (never jumps, never goes back).
public enum MonotonicClock {
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Sleeps until the monotonic clock reaches `deadline` (returns at once if it has passed).
    public static func sleep(until deadline: UInt64) {
        while true {
            let now = now()
            if now >= deadline { return }
            let wait = deadline - now
            var ts = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
            _ = nanosleep(&ts, nil)
        }
    }
}
