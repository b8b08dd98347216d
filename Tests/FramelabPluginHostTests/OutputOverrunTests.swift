import FramelabCore
import FramelabElements
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// A plugin that writes 4 KB past the end of its output image fails that frame with a
/// message naming the element, in process, in a worker (stage memory and the run's arena)
/// and in its trial; frames it processes correctly still pass.
@Suite struct OutputOverrunTests {
    func element(_ defect: String) throws -> PluginElement {
        let dir = try TestSupport.makeTemporaryDirectory()
        return try PluginLibrary(path: PluginBuilder.broken(defect, in: dir)).elements[0]
    }

    /// The defect overruns on every second real frame: calls 1, 3 pass, 2, 4 fail.
    func expectEverySecondFrameFails(_ process: (Mat) throws -> Mat, frame: Mat,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        for call in 1...4 {
            do {
                let out = try process(frame)
                #expect(call % 2 == 1, "call \(call) passed", sourceLocation: sourceLocation)
                #expect(out.hasSamePixels(as: frame), sourceLocation: sourceLocation)
            } catch {
                let m = (error as? FramelabError)?.message ?? "\(error)"
                #expect(call % 2 == 0, "call \(call) failed: \(m)", sourceLocation: sourceLocation)
                #expect(m.contains("'broken'") && m.contains("wrote past the end of its \(frame.width)x\(frame.height) bgra8 output image"),
                        "\(m)", sourceLocation: sourceLocation)
                #expect(!m.contains("\n"), sourceLocation: sourceLocation)
            }
        }
    }

    @Test func inProcess() throws {
        let filter = try PluginFilter(element: element("OVERRUN_ON_FRAMES"), values: ParameterValues([:]))
        expectEverySecondFrameFails(filter.process, frame: PluginTestImages.gradient(width: 64, height: 48))
    }

    @Test func inAWorkerThroughStageMemory() throws {
        let filter = try IsolatedPluginFilter(element: element("OVERRUN_ON_FRAMES"), values: ParameterValues([:]))
        expectEverySecondFrameFails(filter.process, frame: PluginTestImages.gradient(width: 64, height: 48))
    }

    @Test func inAWorkerThroughTheRunArena() throws {
        let arena = try SharedFrameArena(capacity: 16 << 20)
        let filter = try IsolatedPluginFilter(element: element("OVERRUN_ON_FRAMES"), values: ParameterValues([:]),
                                              options: IsolationOptions(arena: arena))
        // Large enough for the arena (smaller images stay on the heap).
        let frame = try #require(arena.makeImage(format: .bgra8, width: 160, height: 120))
        frame.copyPixels(from: PluginTestImages.gradient(width: 160, height: 120))
        expectEverySecondFrameFails(filter.process, frame: frame)
        #expect(filter.inputCopies == 0, "the arena path was taken")
    }

    @Test func trialDiagnosesIt() throws {
        for isolated in [true, false] {
            let dir = try TestSupport.makeTemporaryDirectory()
            let path = try PluginBuilder.broken("OVERRUN", in: dir)
            #expect(throws: FramelabError.self) { try PluginTrial.run(PluginLibrary(path: path).elements[0], isolated: isolated) }
            do {
                try PluginTrial.run(PluginLibrary(path: path).elements[0], isolated: isolated)
            } catch let error as FramelabError {
                #expect(error.message.contains(path) && error.message.contains("wrote past the end of its 97x61"), "\(error.message)")
            }
        }
    }
}
