import Foundation
import FramelabCore
import FramelabPipeline
import FramelabSources
import FramelabTestSupport
import Testing

@Suite struct DatasetSourceTests {
    @Test func deliversDatasetImagesAndMissingOnesAsFailures() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let astronaut = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/images/astronaut.png").path
        let csv = dir.appendingPathComponent("faces.csv").path
        try "image,x,y,width,height\n\(astronaut),180,70,90,100\nmissing.png,,,,\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let source = try SourceRegistry.builtIns.open("dataset:csv:" + csv)
        #expect(source.expectedFrameCount == 2)
        guard case .frame(let f)? = try source.next() else { Issue.record("expected a frame"); return }
        #expect(f.index == 0 && f.image.width == 512 && f.origin == astronaut)
        guard case .failure(let index, let origin, let reason)? = try source.next() else { Issue.record("expected a failure"); return }
        #expect(index == 1 && origin.hasSuffix("missing.png") && reason.contains("missing.png"))
        #expect(try source.next() == nil)
    }

    @Test func aMalformedDatasetIsAnErrorNamingTheSource() throws {
        let dir = try TestSupport.makeTemporaryDirectory()
        let csv = dir.appendingPathComponent("bad.csv").path
        try "image,x,y,width,height\na.png,1,2,x,4\n".write(toFile: csv, atomically: true, encoding: .utf8)
        do {
            _ = try SourceRegistry.builtIns.open("dataset:csv:" + csv)
            Issue.record("accepted a malformed dataset")
        } catch let e as FramelabError {
            #expect(e.message.contains("dataset:csv:") && e.message.contains("line 2"))
        }
    }
}
