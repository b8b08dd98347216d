import FramelabElements
import Foundation

/// The one way a command prints its `--json` result: pretty, keys sorted, on stdout.
/// With `--json`, standard output holds this document and nothing else: progress,
/// warnings and errors go to standard error.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // JSON has no NaN or infinity: a number that is one (an undefined ratio) prints as a string.
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// An optional that `--json` prints as `null` when it is absent. Synthesized `Encodable`
/// leaves a nil optional's key out; scripts read a fixed set of keys, so every document
/// keeps them all.
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

/// One parameter of a filter or detector as `--json` prints it (filters, detectors,
/// plugins describe): {"name", "type", "range", "default", "summary"}.
struct ParameterJSON: Encodable {
    let name: String, type: String, range: String, `default`: String, summary: String

    init(_ p: ParameterSpec) {
        name = p.name
        type = "\(p.type)"
        range = p.rangeText
        `default` = "\(p.defaultValue)"
        summary = p.summary
    }
}
