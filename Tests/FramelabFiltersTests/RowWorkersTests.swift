@testable import FramelabFilters
import Glibc
import Synchronization
import Testing

/// The helper threads `RowParallel` runs on: every worker index once per job, the helpers'
/// parts on other threads than the caller's, jobs after the helpers fell asleep, and a
/// second caller while one job runs told to go another way.
@Suite struct RowWorkersTests {
    /// A pool of its own, so that other suites' frames (which use `shared`) cannot make it busy.
    static func pool(_ helpers: Int) -> RowWorkers { RowWorkers(helperLimit: helpers) }

    @Test func everyWorkerRunsOnceAJobAndHelpersRunOnOtherThreads() {
        let workers = Self.pool(3)
        for job in 0..<3000 {
            let count = 2 + job % 3
            let seen = PerWorker<pthread_t>(count)
            let ran = workers.run(workers: count) { k in seen.append(pthread_self(), worker: k) }
            #expect(ran, "job \(job)")
            let threads = seen.all
            #expect(threads.allSatisfy { $0.values.count == 1 }, "job \(job) with \(count) workers: \(threads.map(\.values.count))")
            #expect(threads[0].values.allSatisfy { pthread_equal($0, pthread_self()) != 0 }, "worker 0 runs on the caller")
            let others = threads.dropFirst().flatMap(\.values)
            #expect(others.allSatisfy { pthread_equal($0, pthread_self()) == 0 }, "job \(job): a helper part ran on the caller")
        }
    }

    @Test func helpersAsleepPastTheirSpinWindowWakeForTheNextJob() {
        let workers = Self.pool(1)
        for round in 0..<5 {
            let done = Atomic<Int>(0)
            #expect(workers.run(workers: 2) { _ in done.add(1, ordering: .relaxed) }, "round \(round)")
            #expect(done.load(ordering: .relaxed) == 2, "round \(round)")
            usleep(useconds_t(2 * RowWorkers.spinWindow / 1000))  // twice the window: the helper sleeps
        }
    }

    @Test func aSecondCallerWhileAJobRunsIsToldToGoElsewhere() {
        let workers = Self.pool(1)
        let inside = Atomic<Bool>(false), release = Atomic<Bool>(false), secondRan = Atomic<Int>(0)
        // The first caller's job holds the pool until the second caller has tried.
        let first = UncheckedSendable(workers)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Box {
            _ = first.value.run(workers: 2) { k in
                if k == 0 {
                    inside.store(true, ordering: .releasing)
                    while !release.load(ordering: .acquiring) { sched_yield() }
                }
            }
        }).toOpaque()
        #expect(pthread_create(&thread, nil, { Unmanaged<Box>.fromOpaque($0!).takeRetainedValue().body(); return nil }, context) == 0)
        while !inside.load(ordering: .acquiring) { sched_yield() }
        let ran = workers.run(workers: 2) { _ in secondRan.add(1, ordering: .relaxed) }
        release.store(true, ordering: .releasing)
        pthread_join(thread, nil)
        #expect(!ran && secondRan.load(ordering: .relaxed) == 0, "a busy pool ran a second caller's job")
        #expect(workers.run(workers: 2) { _ in secondRan.add(1, ordering: .relaxed) }, "the pool once free again")
        #expect(secondRan.load(ordering: .relaxed) == 2)
    }

    @Test func moreWorkersThanHelpersIsRefusedAndRowParallelStillCoversEveryRow() {
        #expect(!Self.pool(1).run(workers: 3) { _ in Issue.record("ran with too few helpers") })
        // RowParallel falls back to Dispatch for a thread count past the machine's cores.
        let threads = RowWorkers.shared.helperLimit + 3
        let rows = PerWorker<Range<Int>>(threads)
        RowParallel.runBands(rows: 1000, threads: threads, piecesPerWorker: 4) { worker, band in rows.append(band, worker: worker) }
        #expect(rows.all.flatMap { $0.values.flatMap { Array($0) } }.sorted() == Array(0..<1000))
    }

    final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
