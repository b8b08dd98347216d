import CFramelabPlugin

/// Pixel formats a plugin can accept (the ABI's FL_PLUGIN_* numbers).
public enum PluginPixelFormat: Int32, Sendable, CaseIterable {
    case gray8 = 1
    case bgr8 = 2
    case bgra8 = 3
    case grayF32 = 4

    public var bytesPerPixel: Int {
        switch self {
        case .gray8: return 1
        case .bgr8: return 3
        case .bgra8, .grayF32: return 4
        }
    }
}

/// One parameter a plugin element declares: name, type, range, default, description.
public struct PluginParameter: Sendable {
    enum Kind: Sendable {
        case float(ClosedRange<Double>, Double)
        case int(ClosedRange<Int>, Int)
        case bool(Bool)
        case choice([String], String)
        case string(String)
    }
    let name: String
    let kind: Kind
    let summary: String

    public static func float(_ name: String, _ range: ClosedRange<Double>, default value: Double,
                             _ summary: String) -> PluginParameter {
        PluginParameter(name: name, kind: .float(range, value), summary: summary)
    }
    public static func int(_ name: String, _ range: ClosedRange<Int>, default value: Int,
                           _ summary: String) -> PluginParameter {
        PluginParameter(name: name, kind: .int(range, value), summary: summary)
    }
    public static func bool(_ name: String, default value: Bool, _ summary: String) -> PluginParameter {
        PluginParameter(name: name, kind: .bool(value), summary: summary)
    }
    public static func choice(_ name: String, _ choices: [String], default value: String,
                              _ summary: String) -> PluginParameter {
        PluginParameter(name: name, kind: .choice(choices, value), summary: summary)
    }
    public static func string(_ name: String, default value: String, _ summary: String) -> PluginParameter {
        PluginParameter(name: name, kind: .string(value), summary: summary)
    }
}

/// The values an instance is created with, already checked by the host against the
/// declared types and ranges.
public struct PluginValues: Sendable {
    let numbers: [String: Double]
    let strings: [String: String]

    public func double(_ name: String) -> Double { numbers[name] ?? .nan }
    public func int(_ name: String) -> Int { Int(numbers[name] ?? 0) }
    public func bool(_ name: String) -> Bool { (numbers[name] ?? 0) != 0 }
    public func string(_ name: String) -> String { strings[name] ?? "" }
}

/// What a plugin element's code throws; the kit turns it into a status and a message.
public enum PluginFailure: Error {
    /// The input's pixel format is not one this element handles.
    case unsupportedFormat(String)
    /// Processing this frame failed.
    case failed(String)
    /// A parameter value cannot be used (create only).
    case badParameter(String)
}
