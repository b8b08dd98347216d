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
        pthread_cond_init(&condition, nil)
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
}
