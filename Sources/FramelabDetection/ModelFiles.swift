import Foundation
import FramelabCore

/// Where the built-in network detectors find their model files (Datasets/models/README.md),
/// and the one message for a model that is not there.
public enum ModelFiles {
    /// The command that fetches the models (scripts/fetch-models.sh, run by the set-up).
    public static let fetchCommand = "bash scripts/fetch-models.sh"

    /// The default model folder: `$FRAMELAB_MODELS` when set; else `Datasets/models` of the
    /// checkout the running executable was built in (it lives in `.build/release/`, so
    /// `<exe dir>/../../Datasets/models`) when that folder exists; else `./Datasets/models`.
    public static var directory: String {
        if let custom = ProcessInfo.processInfo.environment["FRAMELAB_MODELS"], !custom.isEmpty { return custom }
        if let built = checkoutDirectory { return built }
        return "Datasets/models"
    }

    /// `Datasets/models` of the checkout holding the running executable, when it exists.
    static var checkoutDirectory: String? {
        guard let root = Checkout.root else { return nil }
        let models = (root as NSString).appendingPathComponent("Datasets/models")
        return isDirectory(models) ? models : nil
    }

    /// `relative` (such as `centerface.onnx` or `mtcnn/pnet.onnx`) under `directory`.
    public static func path(_ relative: String) -> String {
        (directory as NSString).appendingPathComponent(relative)
    }

    /// Throws the one-line error for the first of `paths` that is not a readable regular file:
    /// it names the file and the detector, and says how to fetch the models or which
    /// parameter names another file.
    public static func requireFiles(_ paths: [String], detector: String, parameter: String) throws {
        for path in paths where !isReadableFile(path) {
            let what = isDirectory(path) ? "is a folder, not a model file" : "is missing or unreadable"
            throw FramelabError(.io, "detector '\(detector)': model file '\(path)' \(what); "
                + "\(fetchCommand) installs the models (or give another with \(detector):\(parameter)=PATH)")
        }
    }

    /// The files of `paths` that are missing (for `framelab detectors`).
    public static func missing(_ paths: [String]) -> [String] {
        paths.filter { !isReadableFile($0) }
    }

    static func isReadableFile(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && !isDir.boolValue
            && FileManager.default.isReadableFile(atPath: path)
    }

    static func isDirectory(_ path: String) -> Bool { Checkout.isDirectory(path) }
}
