import CFramelabCPU
import Dispatch
import FramelabCore
import Glibc
import Synchronization

/// Helper threads that start on a frame's rows within a microsecond: the ones `RowParallel`
/// runs its workers on.
///
/// Why not `DispatchQueue.concurrentPerform`: on Linux its pool thread joins late. On a
/// 2-vCPU AMD EPYC (Zen 4, KVM), with two iterations of about 100 µs each, the second
/// iteration started 58–61 µs after the call and both ran on the calling thread in 100 of
/// 100 calls; at 220 µs each, in 64 of 100. A 1080p per-pixel frame at memory speed takes
/// 0.1–0.3 ms, so the second thread did a fraction of it. After each job a helper polls for
/// the next one for `spinWindow`, yielding to any other runnable thread (a frame stream
/// finds it polling: 0.1 µs to start), then sleeps on the pool's `Monitor` (a condition
/// variable: a few µs to wake), so it holds no core between streams.
///
/// One job at a time: a caller that finds the helpers busy (another thread's frame), or
/// asks for more workers than the machine has cores, gets `false` and runs its workers
/// another way (`RowParallel`).
final class RowWorkers: @unchecked Sendable {
    static let shared: RowWorkers = {
        let pool = RowWorkers(helperLimit: max(0, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) - 1))
        // A child of fork() has only the thread that forked: it must start helpers of its
        // own, not wait for its parent's (the durability tests fork a process that records).
        pthread_atfork(nil, nil) { RowWorkers.shared.forgetHelpers() }
        return pool
    }()

    /// How long a helper polls after a job before it sleeps: long enough to catch the next
    /// frame of a benchmark or a back-to-back stream, short against a 60 fps frame interval
    /// (16.7 ms), so a paced stream spends at most 3% of a core polling.
    static let spinWindow: UInt64 = 500_000  // ns

    /// The most helpers (the machine's cores less the caller's).
    let helperLimit: Int

    /// The job's generation (bits 8 and up) and how many workers it has (low 8 bits) in one
    /// word, so that a helper never pairs one job's worker count with another's generation.
    private let state = Atomic<Int>(0)
    /// Helpers of the current job still running.
    private let remaining = Atomic<Int>(0)
    /// Held by the caller whose job the helpers run.
    private let busy = Atomic<Bool>(false)
    /// The current job's body; written before `state` is published (release), read after a
    /// helper sees it (acquire), cleared once every helper is done.
    private var job: ((Int) -> Void)?
    /// Where helpers past their polling window sleep: `state`'s word again, set under the
    /// monitor's lock after `state` is published, so a helper that finds no new job there
    /// is asleep on the condition variable before the next publication wakes it.
    private var parking = Monitor(0)
    /// The helpers started so far; grown under `busy`.
    private var helperCount = 0

    init(helperLimit: Int) { self.helperLimit = min(helperLimit, 255) }

    /// Runs `body(0)` on the calling thread and `body(1)` … `body(workers − 1)` on helpers,
    /// returning when all are done; `false`, having run nothing, when the helpers are busy or
    /// `workers − 1` is more than `helperLimit`.
    func run(workers: Int, _ body: (Int) -> Void) -> Bool {
        precondition(workers >= 2, "RowWorkers.run needs at least two workers")
        guard workers - 1 <= helperLimit,
              busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        defer { busy.store(false, ordering: .releasing) }
        while helperCount < workers - 1 { startHelper(index: helperCount + 1) }
        withoutActuallyEscaping(body) { body in
            job = body
            remaining.store(workers - 1, ordering: .relaxed)
            let word = ((state.load(ordering: .relaxed) >> 8) &+ 1) << 8 | workers
            state.store(word, ordering: .releasing)
            // One uncontended lock and broadcast a job: sleeping helpers wake, polling ones
            // have usually seen `state` already.
            parking.update { $0 = word }
            body(0)
            var polls = 0
            while remaining.load(ordering: .acquiring) > 0 { Self.relax(&polls) }
            job = nil
        }
        return true
    }

    /// After fork(), in the child: the helpers were the parent's threads, and one of them
    /// may have held the monitor's lock at the fork, so the child parks on a new one.
    private func forgetHelpers() {
        helperCount = 0
        parking = Monitor(state.load(ordering: .relaxed))
        busy.store(false, ordering: .relaxed)
    }

    private func startHelper(index: Int) {
        helperCount += 1
        // The generation it has seen is the last published one, read here and not by the new
        // thread, which may start after the job it was made for is published.
        let seen = state.load(ordering: .relaxed) >> 8
        let context = Unmanaged.passRetained(HelperContext(pool: self, parking: parking, index: index, seen: seen)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let c = Unmanaged<HelperContext>.fromOpaque(context!).takeRetainedValue()
            c.pool.serve(c.parking, index: c.index, seen: c.seen)
        }, context)
        // A thread the system refuses is a broken machine, not a user's input; the caller's
        // job would wait for it forever.
        precondition(started == 0, "RowWorkers: pthread_create failed (\(started))")
        pthread_detach(thread)
    }

    private final class HelperContext {
        let pool: RowWorkers, parking: Monitor<Int>, index: Int, seen: Int
        init(pool: RowWorkers, parking: Monitor<Int>, index: Int, seen: Int) {
            (self.pool, self.parking, self.index, self.seen) = (pool, parking, index, seen)
        }
    }

    /// One wait of a polling loop: the CPU's spin hint for the first polls (the flag usually
    /// flips within microseconds), then `sched_yield`, so that a poller never holds a core
    /// that another runnable thread wants (more threads than cores: a pipeline's frame
    /// workers, other processes); with nothing else to run it returns at once.
    @inline(__always)
    private static func relax(_ polls: inout Int) {
        polls &+= 1
        if polls < 128 { framelab_cpu_relax() } else { sched_yield() }
    }

    /// A helper's life: wait for a new generation (polling, then asleep), run its part if
    /// the job has that many workers, report done. `parking` is passed in, not read from
    /// `self`, which only a fork()ed child (with no helpers) ever changes.
    private func serve(_ parking: Monitor<Int>, index: Int, seen start: Int) -> Never {
        var seen = start
        while true {
            var word = state.load(ordering: .acquiring)
            if word >> 8 == seen {
                let deadline = DispatchTime.now().uptimeNanoseconds &+ Self.spinWindow
                var polls = 0
                while word >> 8 == seen {
                    Self.relax(&polls)
                    word = state.load(ordering: .acquiring)
                    if polls & 63 == 0 && DispatchTime.now().uptimeNanoseconds > deadline { break }
                }
            }
            if word >> 8 == seen {
                // Asleep until a job is published there (the monitor's lock orders it after
                // the job's body).
                word = parking.wait(until: { $0 >> 8 != seen }) { $0 }
            }
            seen = word >> 8
            if index < word & 0xFF {
                job!(index)
                remaining.subtract(1, ordering: .releasing)
            }
        }
    }
}
