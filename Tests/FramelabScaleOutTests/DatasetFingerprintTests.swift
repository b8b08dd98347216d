import Foundation
import FramelabCore
import FramelabDatasets
import FramelabScaleOut
import FramelabTestSupport
import Testing

@Suite struct DatasetFingerprintTests {
    @Test func sha256MatchesTheStandardVectorsAndSha256sum() throws {
        func digest(_ s: String) -> String { var h = SHA256(); h.update(s); return h.hexDigest() }
        // FIPS 180-4 examples: one block, two blocks, and the empty message.
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // A real file, against coreutils.
        let file = TestSupport.packageRoot.appendingPathComponent("Datasets/sample/faces.csv").path
        let sum = try TestSupport.run("/usr/bin/sha256sum", [file])
        var h = SHA256()
        h.update(try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(sum.stdout.hasPrefix(h.hexDigest() + " "))
    }

    @Test func sameDatasetInAnotherFolderHasTheSameFingerprintAndEditsChangeIt() throws {
        let sample = TestSupport.packageRoot.appendingPathComponent("Datasets/sample")
        let copy = try TestSupport.makeTemporaryDirectory("fingerprint").appendingPathComponent("sample")
        try FileManager.default.copyItem(at: sample, to: copy)
        let a = try FaceDataset.load("csv:" + sample.appendingPathComponent("faces.csv").path)
        let b = try FaceDataset.load("csv:" + copy.appendingPathComponent("faces.csv").path)
        #expect(DatasetFingerprint.compute(a) == DatasetFingerprint.compute(b))
        #expect(DatasetFingerprint.compute(a).count == 64)

        var moved = b
        moved.images[0].faces[0].box.x += 1
        #expect(DatasetFingerprint.compute(moved) != DatasetFingerprint.compute(a))
        var reordered = b
        reordered.images.swapAt(0, 1)
        #expect(DatasetFingerprint.compute(reordered) != DatasetFingerprint.compute(a))
        var fewer = b
        fewer.images.removeLast()
        #expect(DatasetFingerprint.compute(fewer) != DatasetFingerprint.compute(a))
        // An image file of another size (re-encoded, truncated) changes it too.
        let image = URL(fileURLWithPath: b.images[0].path)
        try (try Data(contentsOf: image) + Data([0])).write(to: image)
        #expect(DatasetFingerprint.compute(b) != DatasetFingerprint.compute(a))
    }
}
