import Foundation

/// The one JSON layout Framelab writes, on stdout (`--json`) and into HDF5 attributes:
/// keys sorted, slashes unescaped, and NaN or infinity (an undefined ratio; JSON has
/// neither) as the strings "nan", "inf", "-inf".
public enum FramelabJSON {
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// An optional that JSON prints as `null` when it is absent. Synthesized `Encodable`
/// leaves a nil optional's key out; scripts read a fixed set of keys, so every document
/// keeps them all.
@propertyWrapper
public struct NullWhenAbsent<Value: Encodable>: Encodable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension Double {
    /// The number, or nil when it is NaN or infinite: for JSON keys documented as
    /// "a number or null" (a time that was not measured, a ratio with nothing to divide by).
    public var finiteOrNil: Double? { isFinite ? self : nil }
}

extension NullWhenAbsent: Sendable where Value: Sendable {}
