import FramelabCore
import FramelabPluginHost
import FramelabTestSupport
import Foundation
import Testing

/// The test run before acceptance: a plugin that fails it is diagnosed in one line,
/// and a crash or hang in the (isolated) trial does not take the host down.
@Suite struct PluginTrialTests {
    func expectTrialFails(_ defect: String, isolated: Bool = true, timeout: Int = 10_000, mentions: [String],
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let path = try PluginBuilder.broken(defect, in: dir)
        let element = try PluginLibrary(path: path).elements[0]
        do {
            try PluginTrial.run(element, isolated: isolated, timeoutMilliseconds: timeout)
            Issue.record("\(defect): passed its trial", sourceLocation: sourceLocation)
        } catch let error as FramelabError {
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
            for m in [path, "'broken'", "test run"] + mentions {
                #expect(error.message.contains(m), "'\(error.message)' should mention '\(m)'", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func healthyPluginPasses() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let library = try PluginLibrary(path: PluginBuilder.broken("NONE", in: dir))
        try PluginTrial.run(library.elements[0])
        try PluginTrial.run(library.elements[0], isolated: false)
    }

    @Test func pluginReturnsAnError() throws {
        try expectTrialFails("RETURNS_ERROR", mentions: ["processing failed: sensor calibration missing"])
        try expectTrialFails("RETURNS_ERROR", isolated: false, mentions: ["processing failed: sensor calibration missing"])
    }

    @Test func createFails() throws {
        try expectTrialFails("CREATE_FAILS", mentions: ["create failed", "no licence key found"])
    }

    @Test func wrongOutputSize() throws {
        try expectTrialFails("WRONG_SIZE", mentions: ["returned a 48x61", "expected 97x61"])
        try expectTrialFails("WRONG_SIZE", isolated: false, mentions: ["returned a 48x61", "expected 97x61"])
    }

    @Test func wrongOutputFormat() throws {
        try expectTrialFails("WRONG_FORMAT", mentions: ["returned a 97x61 gray8 image", "expected 97x61 bgr8"])
    }

    @Test func crashIsDiagnosedNotFatal() throws {
        try expectTrialFails("CRASH", mentions: ["crashed with signal \(SIGSEGV) (SIGSEGV)"])
    }

    @Test func hangTimesOut() throws {
        try expectTrialFails("HANG", timeout: 300, mentions: ["timed out after 300 ms"])
    }
}
