import FramelabCore
import FramelabDetection
import FramelabRecording

/// What ran as one stage of a run, exactly: a row of `elements` (docs/hdf5-schema.md).
public struct ElementRow: TableRow, Equatable {
    public var stage: Int32
    /// "filter" or "detector".
    public var kind: String
    public var element: String
    /// Every parameter with the value used, defaults filled in.
    public var params: String
    /// "built-in" or "plugin".
    public var origin: String
    public var version: String
    public var pluginPath: String, pluginSHA256: String
    /// The model files the element loaded and their SHA-256 values and licences: one entry
    /// per file, joined with ';' in the same order (a Caffe network's prototxt and weights,
    /// MTCNN's three networks).
    public var modelPath: String, modelSHA256: String, modelLicence: String

    static let textBytes = 1024
    /// Up to 15 checksums of 64 hex digits, ';'-separated.
    static let checksumBytes = 1024
    public static let layout = TableLayout(name: "elements", columns: [
        TableColumn("stage", .stage), TableColumn("kind", .text(bytes: 16)), TableColumn("element", .text(bytes: 64)),
        TableColumn("params", .text(bytes: textBytes)), TableColumn("origin", .text(bytes: 16)),
        TableColumn("version", .text(bytes: 64)),
        TableColumn("plugin_path", .text(bytes: textBytes)), TableColumn("plugin_sha256", .text(bytes: 64)),
        TableColumn("model_path", .text(bytes: textBytes)), TableColumn("model_sha256", .text(bytes: checksumBytes)),
        TableColumn("model_licence", .text(bytes: textBytes)),
    ], chunkRows: 64)

    /// A stage's row; the files are hashed now (an unreadable file gets an empty checksum,
    /// a file `ModelLicences` does not know an empty licence).
    public init(stage: Int, kind: String, element: String, params: String, plugin: (path: String, version: String)?,
                modelPaths models: [String]) {
        self.stage = Int32(stage)
        self.kind = kind
        self.element = element
        self.params = params
        origin = plugin == nil ? "built-in" : "plugin"
        version = plugin?.version ?? FramelabVersion.string
        pluginPath = plugin.map { DatasetPaths.absolute($0.path) } ?? ""
        pluginSHA256 = plugin.flatMap { SHA256.file($0.path) } ?? ""
        modelPath = models.map { DatasetPaths.absolute($0) }.joined(separator: ";")
        let sums = models.map { SHA256.file($0) ?? "" }
        modelSHA256 = sums.joined(separator: ";")
        modelLicence = sums.map { $0.isEmpty ? "" : ModelLicences.licence(sha256: $0) }.joined(separator: ";")
    }

    public func encode(to e: inout RowEncoder) {
        e.int32(stage)
        e.text(kind, bytes: 16); e.text(element, bytes: 64); e.text(params, bytes: Self.textBytes)
        e.text(origin, bytes: 16); e.text(version, bytes: 64)
        e.text(pluginPath, bytes: Self.textBytes); e.text(pluginSHA256, bytes: 64)
        e.text(modelPath, bytes: Self.textBytes); e.text(modelSHA256, bytes: Self.checksumBytes)
        e.text(modelLicence, bytes: Self.textBytes)
    }

    public init(from d: inout RowDecoder) {
        stage = d.int32()
        kind = d.text(bytes: 16); element = d.text(bytes: 64); params = d.text(bytes: Self.textBytes)
        origin = d.text(bytes: 16); version = d.text(bytes: 64)
        pluginPath = d.text(bytes: Self.textBytes); pluginSHA256 = d.text(bytes: 64)
        modelPath = d.text(bytes: Self.textBytes); modelSHA256 = d.text(bytes: Self.checksumBytes)
        modelLicence = d.text(bytes: Self.textBytes)  // "" in files written before the column
    }
}
