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
