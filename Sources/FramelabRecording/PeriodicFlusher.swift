#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A background thread that calls `tick` every `interval` seconds until stopped.
///
/// A plain pthread (not Dispatch or Foundation) so it also works in a process forked
/// from a multithreaded one, as the durability test does.
final class PeriodicFlusher: @unchecked Sendable {
    private let interval: Double
    private let tick: @Sendable () -> Void
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `mutex`.
    private var stopping = false
    private var thread: pthread_t?

    init(interval: Double, tick: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.tick = tick
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Starts the thread. Returns false if it could not be created.
    @discardableResult
    func start() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard thread == nil, !stopping else { return thread != nil }
        // The thread holds a reference to the flusher until it ends.
        let context = Unmanaged.passRetained(self).toOpaque()
        var id = pthread_t()
        let result = pthread_create(&id, nil, { context in
            let flusher = Unmanaged<PeriodicFlusher>.fromOpaque(context!).takeRetainedValue()
            flusher.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<PeriodicFlusher>.fromOpaque(context).release()
            return false
        }
        thread = id
        return true
    }

    /// Stops the thread and waits for a tick in progress to end (idempotent).
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        let running = thread
        thread = nil
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        guard let running else { return }
        if pthread_equal(running, pthread_self()) != 0 {
            pthread_detach(running)   // stopped from its own tick: it ends after returning
        } else {
            pthread_join(running, nil)
        }
    }

    private func run() {
        pthread_mutex_lock(mutex)
        while !stopping {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let whole = interval.rounded(.down)
            deadline.tv_sec += Int(whole)
            deadline.tv_nsec += Int((interval - whole) * 1e9)
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            while !stopping {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            if stopping { break }
            pthread_mutex_unlock(mutex)
            tick()
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }
}
