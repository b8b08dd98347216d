import Foundation
import FramelabCore
@testable import FramelabRecording
import FramelabTestSupport
import Testing

extension RecordingTests {
    @Suite("RunWriter: threads, background flushing, live reading, ending")
    struct Writer {
        @Test("Appends from many threads all arrive")
        func concurrentAppends() throws {
            let path = try Scratch.directory().appendingPathComponent("threads.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "t", attributes: [:], stageNames: ["s"])
            let threads = 8, perThread = 2_000
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                for k in 0..<perThread {
                    let i = Int64(t * perThread + k)
                    run.append(Sample.frame(i))
                    run.append(Sample.timing(i, stage: 0))
                    if k % 100 == 0 { try? run.flush() }
                }
            }
            try run.finish(status: "completed")
            file.close()
            let data = try RecordingReader.readRun(path: path, id: "t")
            #expect(data.frames.count == threads * perThread)
            #expect(data.frames.sorted { $0.index < $1.index } == (0..<Int64(threads * perThread)).map(Sample.frame))
            #expect(Set(data.timings.map(\.frame)) == Set(0..<Int64(threads * perThread)))
        }

        @Test("The background flusher writes records without flush(); readers see them while the run goes on")
        func backgroundFlushAndLiveReading() throws {
            let path = try Scratch.directory().appendingPathComponent("live.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "live", attributes: [:], stageNames: [])
            for i in Int64(0)..<300 { run.append(Sample.frame(i)) }
            run.append(Sample.event(1))
            // Wait for the flusher (never calling flush()) to have written them.
            let deadline = MonotonicClock.now() + 5_000_000_000
            var seen = 0
            while seen < 300 && MonotonicClock.now() < deadline {
                usleep(50_000)
                seen = try RecordingReader.readRun(path: path, id: "live").frames.count
            }
            #expect(seen == 300)
            // Another process reads the file while it is being written, in SWMR mode.
            let lines = try python("""
                import sys, h5py
                with h5py.File(sys.argv[1], "r", swmr=True) as f:
                    run = f["runs/live"]
                    print(len(run["frames"]), run["frames"][-1]["index"], run.attrs["status"], run["events"][0]["kind"].decode())
                """, [path])
            #expect(lines == ["300 299 running note"])
            #expect(run.lastFlushError == nil)
            try run.finish(status: "completed")
            file.close()
        }

        @Test("Closing the file before finish marks the run interrupted; its writer then reports errors")
        func closeBeforeFinish() throws {
            let path = try Scratch.directory().appendingPathComponent("closed.h5").path
            let file = try RecordingFile(path: path)
            let run = try file.createRun(id: "c", attributes: [:], stageNames: [])
            for i in Int64(0)..<5 { run.append(Sample.frame(i)) }
            file.close()
            run.append(Sample.frame(5))
            let error = #expect(throws: FramelabError.self) { try run.flush() }
            #expect(error?.message == "cannot write run 'c' to HDF5 file '\(path)': the file was closed")
            #expect(throws: FramelabError.self) { try run.finish(status: "completed") }
            let data = try RecordingReader.readRun(path: path, id: "c")
            #expect(data.status == "interrupted")
            #expect(data.frames == (0..<5).map { Sample.frame($0) })
        }

        @Test("A writer released without finish ends its run as interrupted")
        func releasedWithoutFinish() throws {
            let path = try Scratch.directory().appendingPathComponent("released.h5").path
            let file = try RecordingFile(path: path)
            do {
                let run = try file.createRun(id: "gone", attributes: [:], stageNames: [])
                for i in Int64(0)..<7 { run.append(Sample.frame(i)) }
            }
            let next = try file.createRun(id: "next", attributes: [:], stageNames: [])
            try next.finish(status: "completed")
            file.close()
            let data = try RecordingReader.readRun(path: path, id: "gone")
            #expect(data.status == "interrupted")
            #expect(data.frames.count == 7)
            #expect(HDF5.openObjectCount() == 0)
        }

        @Test("Host facts for run attributes")
        func hostInfo() {
            #expect(!HostInfo.hostName.isEmpty)
            #expect(HostInfo.cpuModel != "" )
            #expect(HostInfo.coreCount >= 1)
            let now = HostInfo.utcNowISO8601()
            // e.g. 2026-05-09T07:35:25.123Z
            #expect(now.count == 24)
            #expect(Array(now)[4] == "-" && Array(now)[10] == "T" && Array(now)[19] == "." && now.hasSuffix("Z"))
            #expect(now.hasPrefix("20"))
        }
    }
}
