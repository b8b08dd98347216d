import FramelabDetection
import FramelabElements
import FramelabRuns
import FramelabScaleOut
import Testing

@Suite struct DetectorConfigurationTests {
    func resolved(_ spec: String) throws -> String { try DetectorConfiguration.resolved([ElementSpec(parsing: spec)])[0] }

    @Test func listsEveryParameterAndNormalisesGivenValues() throws {
        let descriptor = try #require(DetectorRegistry.builtIns["opencv-haar"])
        let plain = try resolved("opencv-haar")
        for p in descriptor.parameters { #expect(plain.contains("\(p.name)=\(p.defaultValue)"), "\(p.name) in \(plain)") }
        #expect(try resolved("opencv-haar:scale=1.20") == resolved("opencv-haar:scale=1.2"))
        #expect(try resolved("opencv-haar:scale=1.2,neighbours=4") == resolved("opencv-haar:neighbours=4,scale=1.2"))
    }

    @Test func differentDetectorsOrKnobsOrPresetsDiffer() throws {
        #expect(try resolved("opencv-haar") != resolved("cascade"))
        #expect(try resolved("opencv-haar:scale=1.2") != resolved("opencv-haar:scale=1.3"))
        // The low preset's scale (1.25) is not the default value written out (1.1).
        #expect(try resolved("opencv-haar:accuracy=low") != resolved("opencv-haar:accuracy=low,scale=1.1"))
    }
}
