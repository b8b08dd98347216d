#if canImport(Glibc)
import Glibc
#endif

/// A mutex and condition variable pair guarding a value, for the pipeline's two threads.
final class Monitor<Value>: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(&mutex, nil)
        // Timed waits use deadlines on the monotonic clock (MonotonicClock), not wall time.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    /// Runs `body` with the lock held and wakes every waiter afterwards.
    func update<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        defer {
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }
        return try body(&value)
    }

    /// Waits until `ready` holds, then runs `body` with the lock held and wakes waiters.
    func wait<R>(until ready: (Value) -> Bool, then body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        defer {
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }
        while !ready(value) { pthread_cond_wait(&condition, &mutex) }
        return try body(&value)
    }

    /// Like `wait(until:then:)`, but gives up waiting at `deadline` (MonotonicClock
    /// nanoseconds); `body` then runs whether or not `ready` holds.
    func wait<R>(until ready: (Value) -> Bool, deadline: UInt64, then body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        defer {
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while !ready(value) {
            if pthread_cond_timedwait(&condition, &mutex, &ts) == ETIMEDOUT { break }
        }
        return try body(&value)
    }
}
