import Foundation
import FramelabCore
@testable import FramelabRecording
import FramelabTestSupport
import Testing

extension RecordingTests {
    /// A writer killed with SIGKILL mid-run must leave a file that h5py and RecordingReader
    /// read, holding every record up to the last background flush.
    ///
    /// The writer is a fork()ed copy of the test process that uses the real RecordingFile
    /// and RunWriter (whose flusher is a plain pthread) and reports through a pipe how many
    /// records it had appended and when. The parent kills it at a chosen moment.
    @Suite("Durability: SIGKILL mid-run")
    struct CrashDurability {
        /// Records appended at least this long before the kill must be in the file: one
        /// flush interval, plus slack for a flush (and its fsync) in progress.
        static let mustBeFlushedAfter: UInt64 = UInt64((RunWriter.flushInterval + 0.5) * 1e9)

        /// The writer is killed this many seconds after it has appended `warmRecords` frames
        /// (waiting for a count rather than a time keeps the test meaningful on a busy machine).
        static let warmRecords: Int64 = 5_000

        @Test("Killed writers leave readable files with every flushed record", arguments: [0.1, 0.45, 0.8])
        func sigkill(afterSeconds: Double) throws {
            let dir = try Scratch.directory()
            let path = dir.appendingPathComponent("crash.h5").path
            try warmUp(dir.appendingPathComponent("warmup.h5").path)

            let outcome = try runAndKill(path: path, after: afterSeconds)
            #expect(outcome.killedBySIGKILL, "the writer ended before it was killed (status \(outcome.waitStatus))")
            try #require(outcome.appendedTotal >= Self.warmRecords, "the writer never got going")
            let mustHave = outcome.appendedBefore(outcome.killTime - Self.mustBeFlushedAfter)
            #expect(mustHave > 1_000, "too few records were written before the kill to test anything")

            // 1. RecordingReader reads the file as the killed writer left it, changing nothing.
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let data = try RecordingReader.readRun(path: path, id: "crash")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "reading modified the file")
            let n = Int64(data.frames.count)
            #expect(n >= mustHave, "the file has \(n) frames; \(mustHave) were appended over a flush interval before the kill")
            #expect(n <= outcome.appendedTotal + 1_000)
            #expect(data.status == "running")
            #expect(data.frames == (0..<n).map(Sample.frame), "frames are not an exact prefix")
            #expect(data.timings == (0..<Int64(data.timings.count)).map { Sample.timing($0, stage: 0) })
            #expect(data.events == stride(from: Int64(0), to: Int64(data.events.count) * 10, by: 10).map(Sample.event))
            #expect(data.failures == stride(from: Int64(0), to: Int64(data.failures.count) * 25, by: 25).map(Sample.failure))
            #expect(Int64(data.timings.count) >= mustHave && Int64(data.events.count) >= mustHave / 10)
            print("durability: killed \(afterSeconds) s after \(Self.warmRecords) frames, with \(outcome.appendedTotal) frames appended; "
                  + "\(mustHave) appended \(Double(Self.mustBeFlushedAfter) / 1e9) s before the kill; \(n) in the file")

            // 2. h5py reads it too (SWMR mode is how to open a file whose writer may be alive).
            let lines = try python(Self.checkScript, [path, "swmr"])
            #expect(lines.first == "ok \(n) \(data.timings.count) \(data.events.count) \(data.failures.count) running")

            // 3. Reopening for recording repairs it: the run becomes "interrupted", new runs
            //    can be added, and plain (non-SWMR) h5py opens it.
            let file = try RecordingFile(path: path)
            let next = try file.createRun(id: "after", attributes: [:], stageNames: [])
            next.append(Sample.frame(0))
            try next.finish(status: "completed")
            file.close()
            #expect(try RecordingReader.runIDs(path: path) == ["crash", "after"])
            #expect(try RecordingReader.readRun(path: path, id: "crash").frames.count == Int(n))
            let plain = try python(Self.checkScript, [path, "plain"])
            #expect(plain.first == "ok \(n) \(data.timings.count) \(data.events.count) \(data.failures.count) interrupted")
        }

        /// Checks in Python that every table is an exact prefix of what the writer appended.
        static let checkScript = """
            import sys, h5py, numpy as np
            path, mode = sys.argv[1], sys.argv[2]
            with h5py.File(path, "r", swmr=(mode == "swmr")) as f:
                run = f["runs/crash"]
                fr, tm, ev, fa = (run[k][:] for k in ("frames", "timings", "events", "failures"))
                i = np.arange(len(fr))
                assert (fr["index"] == i).all() and (fr["pts_ns"] == i * 33_333_333).all()
                assert (fr["dropped"] == (i % 7 == 3)).all(), "dropped"
                assert (tm["frame"] == np.arange(len(tm))).all() and (tm["stage"] == 0).all()
                assert [e.decode() for e in ev["detail"]] == [f"event {k}: threshold={k * 2}" for k in range(0, 10 * len(ev), 10)]
                assert (fa["frame"] == np.arange(0, 25 * len(fa), 25)).all()
                print("ok", len(fr), len(tm), len(ev), len(fa), run.attrs["status"])
                if mode == "plain":
                    print(list(f["runs"]))
            """

        struct Outcome {
            var killedBySIGKILL: Bool
            var waitStatus: Int32
            var killTime: UInt64
            /// (records appended, monotonic time) as the writer reported them.
            var reports: [(count: Int64, time: UInt64)]

            var appendedTotal: Int64 { reports.last?.count ?? 0 }

            func appendedBefore(_ time: UInt64) -> Int64 {
                reports.last { $0.time <= time }?.count ?? 0
            }
        }

        /// Forks a writer, lets it append `warmRecords` frames and run `seconds` more,
        /// SIGKILLs it, and collects its reports.
        func runAndKill(path: String, after seconds: Double) throws -> Outcome {
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0)
            let pid = fork()
            try #require(pid >= 0, "fork failed")
            if pid == 0 {
                close(fds[0])
                writeUntilKilled(path: path, report: fds[1])
            }
            close(fds[1])
            var reports: [(count: Int64, time: UInt64)] = []
            var buffer = [Int64](repeating: 0, count: 2)
            /// Reads the reports waiting in the pipe; false at end of file.
            func drain(waitingMilliseconds: Int32) -> Bool {
                var ready = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
                var timeout = waitingMilliseconds
                while poll(&ready, 1, timeout) > 0 {
                    guard buffer.withUnsafeMutableBytes({ read(fds[0], $0.baseAddress, 16) }) == 16 else { return false }
                    reports.append((buffer[0], UInt64(buffer[1])))
                    timeout = 0
                }
                return true
            }
            let giveUp = MonotonicClock.now() + 60_000_000_000
            var killAt: UInt64?
            while MonotonicClock.now() < (killAt ?? giveUp) {
                guard drain(waitingMilliseconds: 20) else { break }  // the writer died by itself
                if killAt == nil, let last = reports.last, last.count >= Self.warmRecords {
                    killAt = MonotonicClock.now() + UInt64(seconds * 1e9)
                }
            }
            let killTime = MonotonicClock.now()
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            while drain(waitingMilliseconds: 100) {}
            close(fds[0])
            // WIFSIGNALED / WTERMSIG, spelled out (they are macros).
            let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
            return Outcome(killedBySIGKILL: signalled && (status & 0x7f) == SIGKILL, waitStatus: status,
                           killTime: killTime, reports: reports)
        }

        /// The child: records as a busy pipeline would, never flushing by hand, until killed.
        /// Only the recording layer, Glibc and _exit are used after fork().
        func writeUntilKilled(path: String, report: Int32) -> Never {
            do {
                let file = try RecordingFile(path: path)
                let run = try file.createRun(id: "crash", attributes: ["pid": .int(Int64(getpid()))],
                                             stageNames: Sample.stageNames)
                var i: Int64 = 0
                while true {
                    run.append(Sample.frame(i))
                    run.append(Sample.timing(i, stage: 0))
                    if i % 10 == 0 { run.append(Sample.event(i)) }
                    if i % 25 == 0 { run.append(Sample.failure(i)) }
                    i += 1
                    if i % 16 == 0 {
                        var message: [Int64] = [i, Int64(MonotonicClock.now())]
                        _ = message.withUnsafeMutableBytes { write(report, $0.baseAddress, 16) }
                    }
                    usleep(200)
                }
            } catch {
                _exit(3)
            }
        }

        /// Runs the writer's code once in this process, so the child finds everything the
        /// Swift runtime instantiates lazily already there.
        func warmUp(_ path: String) throws {
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "crash", attributes: ["pid": .int(1)], stageNames: Sample.stageNames)
            for i in Int64(0)..<30 {
                run.append(Sample.frame(i))
                run.append(Sample.timing(i, stage: 0))
                run.append(Sample.event(i))
                run.append(Sample.failure(i))
            }
            try run.flush()
            try run.finish(status: "completed")
            file.close()
        }
    }
}
