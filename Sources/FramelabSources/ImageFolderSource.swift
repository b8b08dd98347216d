import FramelabCore
import FramelabCV
import FramelabPipeline
import Foundation

/// `images:DIR`: every image file in a folder, sorted by name. A file that does not
/// decode becomes a recorded failure and the run goes on.
public final class ImageFolderSource: FrameSource {
    public static let scheme = SourceScheme(
        "images", usage: "images:DIR — every image file in DIR, sorted by name"
    ) { try ImageFolderSource(spec: $0) }

    public let spec: SourceSpec
    public let isLive = false
    public let nominalFPS: Double? = nil
    public var expectedFrameCount: Int? { files.count }
    public let files: [String]
    private var position = 0

    public init(spec: SourceSpec) throws {
        try spec.checkOptions([])
        self.spec = spec
        let dir = spec.target
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) else {
            throw FramelabError(.io, "image folder '\(dir)': no such directory")
        }
        guard isDir.boolValue else { throw FramelabError(.badInput, "image folder '\(dir)': not a directory") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir)
        } catch {
            throw FramelabError(.io, "image folder '\(dir)': cannot be listed (permission denied?)")
        }
        files = names
            .filter { ImageCodec.fileExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
            .map { (dir as NSString).appendingPathComponent($0) }
        guard !files.isEmpty else {
            throw FramelabError(.badInput, "image folder '\(dir)': holds no image files (looked for .png, .jpg, …)")
        }
    }

    public func next() throws -> SourceItem? {
        guard position < files.count else { return nil }
        defer { position += 1 }
        let path = files[position]
        do {
            let image = try ImageCodec.read(path)
            return .frame(Frame(index: position, pts: 0, arrival: MonotonicClock.now(), image: image, origin: path))
        } catch let error as FramelabError {
            return .failure(index: position, origin: path, reason: error.message)
        }
    }
}
