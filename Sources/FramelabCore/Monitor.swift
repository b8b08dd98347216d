#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `Lock`, with a condition variable to wait for it to change:
/// the hand-off between Framelab's threads.
public final class Monitor<Value>: @unchecked Sendable {
    private let lock = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        // Timed waits use deadlines on the monotonic clock (MonotonicClock), not wall time.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Runs `body` with the lock held and wakes every waiter afterwards.
    public func update<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock {
            defer { pthread_cond_broadcast(condition) }
            return try body(&value)
        }
    }

    /// Times a waiter re-checks (yielding the CPU in between) before it sleeps: a thread
    /// handing frames to another at a high rate then rarely pays for a sleep and a wake-up.
    static var spinsBeforeSleeping: Int { 16 }

    /// Waits until `ready` holds, then runs `body` with the lock held and wakes waiters.
    public func wait<R>(until ready: (Value) -> Bool, then body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock {
            defer { pthread_cond_broadcast(condition) }
            var spins = 0
            while !ready(value) {
                if spins < Self.spinsBeforeSleeping {
                    spins += 1
                    pthread_mutex_unlock(lock.mutex)
                    sched_yield()
                    pthread_mutex_lock(lock.mutex)
                } else {
                    pthread_cond_wait(condition, lock.mutex)
                }
            }
            return try body(&value)
        }
    }

    /// Like `wait(until:then:)`, but gives up waiting at `deadline` (MonotonicClock
    /// nanoseconds); `body` then runs whether or not `ready` holds.
    public func wait<R>(until ready: (Value) -> Bool, deadline: UInt64, then body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock {
            defer { pthread_cond_broadcast(condition) }
            var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while !ready(value) {
                if pthread_cond_timedwait(condition, lock.mutex, &ts) == ETIMEDOUT { break }
            }
            return try body(&value)
        }
    }
}
