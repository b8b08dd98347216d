import FramelabCore

/// Opens a source from its spec text.
public enum SourceFactory {
    public static func open(_ text: String) throws -> any FrameSource {
        let spec = try SourceSpec(parsing: text)
        switch spec.scheme {
        case "image": return try ImageSource(spec: spec)
        case "images": return try ImageFolderSource(spec: spec)
        case "video": return try VideoSource(spec: spec)
        case "synthetic": return try SyntheticSource(spec: spec)
        case "camera": return try CameraSource(spec: spec)
        case "dataset": return try DatasetSource(spec: spec)
        default:
            throw FramelabError(.badInput,
                "source '\(text)': unknown scheme '\(spec.scheme)' (schemes: \(SourceSpec.schemeNames))")
        }
    }
}
