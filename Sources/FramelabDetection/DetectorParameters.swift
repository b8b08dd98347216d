import FramelabElements

/// Checked detector parameters: every value with its default filled in, plus which
/// names the user gave (so a preset can fill only the knobs left unset).
public struct DetectorParameters: Sendable {
    public let values: ParameterValues

    public init(_ values: ParameterValues) { self.values = values }

    public var explicit: Set<String> { values.explicit }
    public func double(_ name: String) -> Double { values.double(name) }
    public func int(_ name: String) -> Int { Int(values.double(name)) }
    public func string(_ name: String) -> String { values.string(name) }
    public func bool(_ name: String) -> Bool { values.bool(name) }
    public func isSet(_ name: String) -> Bool { values.isSet(name) }
}
