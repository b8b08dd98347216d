import FramelabCore
import FramelabElements
import Foundation

/// The one way a command prints its `--json` result: pretty, keys sorted, on stdout.
/// With `--json`, standard output holds this document and nothing else: progress,
/// warnings and errors go to standard error.
func printJSON<T: Encodable>(_ value: T) throws {
    print(try FramelabJSON.encode(value))
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
