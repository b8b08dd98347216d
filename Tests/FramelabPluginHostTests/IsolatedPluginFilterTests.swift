import FramelabCore
import FramelabElements
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// Plugins in a worker process: same results as in-process, pixels through shared
/// memory, and crashes, aborts and hangs become errors the host survives.
@Suite struct IsolatedPluginFilterTests {
    func element(_ defect: String) throws -> PluginElement {
        let dir = try TestSupport.makeTemporaryDirectory()
        return try PluginLibrary(path: PluginBuilder.broken(defect, in: dir)).elements[0]
    }

    func invertElement() throws -> PluginElement {
        let dir = try TestSupport.makeTemporaryDirectory()
        return try PluginLibrary(path: PluginBuilder.compile(PluginBuilder.exampleC, name: "invert", in: dir)).elements[0]
    }

    @Test func sameResultAsInProcess() throws {
        let invert = try invertElement()
        let values = ParameterValues(["amount": .float(0.5)])
        let isolated = try IsolatedPluginFilter(element: invert, values: values)
        let local = try PluginFilter(element: invert, values: values)
        for (w, h) in [(640, 480), (97, 13), (640, 480)] {  // a size change remaps the shared memory
            let input = PluginTestImages.gradient(width: w, height: h)
            let a = try isolated.process(input)
            #expect(a.hasSamePixels(as: try local.process(input)))
            #expect(a.hasSamePixels(as: PluginTestImages.inverted(input, amount: 0.5)))
        }
    }

    @Test func framesInSharedMemoryAreNotCopied() throws {
        let filter = try IsolatedPluginFilter(element: try invertElement(), values: ParameterValues(["amount": .float(1)]))
        let shared = try filter.sharedInputImage(format: .bgra8, width: 320, height: 240)
        shared.copyPixels(from: PluginTestImages.gradient(width: 320, height: 240))
        let out = try filter.process(shared)
        #expect(filter.inputCopies == 0)
        #expect(out.hasSamePixels(as: PluginTestImages.inverted(shared, amount: 1)))
        _ = try filter.process(PluginTestImages.gradient(width: 320, height: 240))
        #expect(filter.inputCopies == 1, "a frame in private memory is copied in once")
    }

    @Test func framesInTheRunArenaCrossWithoutCopiesThroughAChain() throws {
        let arena = try SharedFrameArena(capacity: 64 << 20)
        let options = IsolationOptions(arena: arena)
        let invert = try invertElement()
        let first = try IsolatedPluginFilter(element: invert, values: ParameterValues(["amount": .float(1)]), options: options)
        let second = try IsolatedPluginFilter(element: invert, values: ParameterValues(["amount": .float(0.5)]), options: options)
        let input = try #require(arena.makeImage(format: .bgra8, width: 320, height: 240))
        input.copyPixels(from: PluginTestImages.gradient(width: 320, height: 240))
        for _ in 0..<3 {
            let once = try first.process(input)
            let twice = try second.process(once)
            #expect(once.hasSamePixels(as: PluginTestImages.inverted(input, amount: 1)))
            #expect(twice.hasSamePixels(as: PluginTestImages.inverted(once, amount: 0.5)))
        }
        #expect(first.inputCopies == 0 && second.inputCopies == 0)
    }

    @Test func crashFailsTheFrameAndEndsTheStage() throws {
        let filter = try IsolatedPluginFilter(element: element("CRASH_ON_FRAMES"), values: ParameterValues([:]))
        let frame = PluginTestImages.gradient(width: 64, height: 48)
        // The trial frame is skipped by the defect; calls 1 and 2 pass, call 3 crashes.
        _ = try filter.process(frame)
        _ = try filter.process(frame)
        #expect { try filter.process(frame) } throws: { ($0 as? FramelabError)?.message.contains("crashed with signal \(SIGSEGV) (SIGSEGV)") == true }
        #expect { try filter.process(frame) } throws: { ($0 as? FramelabError)?.message.contains("stage ended") == true }
    }

    @Test func restartAfterACrashContinues() throws {
        let filter = try IsolatedPluginFilter(element: element("CRASH_ON_FRAMES"), values: ParameterValues([:]),
                                              options: IsolationOptions(restart: true))
        let frame = PluginTestImages.gradient(width: 64, height: 48)
        var failures = 0
        for _ in 0..<7 {
            do {
                #expect(try filter.process(frame).hasSamePixels(as: frame))
            } catch {
                failures += 1
            }
        }
        // Each new worker counts calls from zero: calls 3 and 6 crash.
        #expect(failures == 2)
        #expect(filter.restarts == 2)
    }

    @Test func memoryCorruptionAbortsOnlyTheWorker() throws {
        let filter = try IsolatedPluginFilter(element: element("CORRUPT_ON_FRAMES"), values: ParameterValues([:]))
        #expect { try filter.process(PluginTestImages.gradient(width: 64, height: 48)) } throws: { error in
            let m = (error as? FramelabError)?.message ?? ""
            return m.contains("'broken'") && m.contains("crashed with signal")
        }
    }

    @Test func hangTimesOutAndRestarts() throws {
        let filter = try IsolatedPluginFilter(element: element("HANG_ON_FRAMES"), values: ParameterValues([:]),
                                              options: IsolationOptions(timeoutMilliseconds: 300, restart: true))
        let frame = PluginTestImages.gradient(width: 64, height: 48)
        for _ in 0..<4 { _ = try filter.process(frame) }
        let start = MonotonicClock.now()
        #expect { try filter.process(frame) } throws: { ($0 as? FramelabError)?.message.contains("timed out after 300 ms") == true }
        #expect(MonotonicClock.now() - start < 5_000_000_000)
        #expect(try filter.process(frame).hasSamePixels(as: frame))
        #expect(filter.restarts == 1)
    }

    @Test func anErrorStatusKeepsTheWorker() throws {
        let filter = try IsolatedPluginFilter(element: element("FAILS_ON_EVEN_FRAMES"), values: ParameterValues([:]))
        let frame = PluginTestImages.gradient(width: 64, height: 48)
        _ = try filter.process(frame)
        #expect { try filter.process(frame) } throws: { ($0 as? FramelabError)?.message.contains("lost track on call 2") == true }
        #expect(try filter.process(frame).hasSamePixels(as: frame))
        #expect(filter.restarts == 0)
    }
}
