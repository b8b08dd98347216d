import CFramelabPlugin

/// The host's side of the ABI version, and names for the header's numbers.
public enum PluginABI {
    public static let major = UInt32(FL_PLUGIN_ABI_MAJOR)
    public static let minor = UInt32(FL_PLUGIN_ABI_MINOR)
    public static var versionText: String { "\(major).\(minor)" }
    /// The newest 1.x minor the host reads through its frozen 1.0 layouts (1.0 was the only one).
    public static let newestV1Minor: UInt32 = 0
    public static let entrySymbol = FL_PLUGIN_ENTRY_NAME

    /// Room for a plugin's error message, including the terminating NUL.
    static let messageCapacity = 512
    /// Most detections a detector may report for one frame.
    public static let detectionCapacity = 1024

    /// The plugin's message, or a fallback when it left the buffer empty.
    static func message(_ buffer: UnsafeMutablePointer<CChar>, fallback: String) -> String {
        buffer[messageCapacity - 1] = 0
        let text = String(cString: buffer)
        return text.isEmpty ? fallback : text
    }

    static let ok = Int32(FL_PLUGIN_OK)
    static let error = Int32(FL_PLUGIN_ERROR)
    static let unsupported = Int32(FL_PLUGIN_UNSUPPORTED)
    static let badParameter = Int32(FL_PLUGIN_BAD_PARAMETER)

    static func statusName(_ status: Int32) -> String {
        switch status {
        case ok: return "ok"
        case error: return "processing failed"
        case unsupported: return "format not supported"
        case badParameter: return "bad parameter"
        default: return "unknown status \(status)"
        }
    }
}
