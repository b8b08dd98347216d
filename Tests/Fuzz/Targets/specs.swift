import FramelabCore
import FramelabDatasets
import FramelabElements
import FramelabPipeline

/// The specs users type: `--filter`/`--detector NAME:key=value,…` checked against
/// parameters of every type, `--source SCHEME:TARGET?key=value`, `--predictions [FORMAT:]PATH[:NAME]`.
let parameters = [
    ParameterSpec(name: "f", type: .float, minimum: -1, maximum: 1, defaultValue: .float(0), summary: "a float"),
    ParameterSpec(name: "i", type: .int, minimum: 0, maximum: 100, defaultValue: .int(1), summary: "an int"),
    ParameterSpec(name: "u", type: .int, defaultValue: .int(1), summary: "an unbounded int"),
    ParameterSpec(name: "b", type: .bool, defaultValue: .bool(false), summary: "a bool"),
    ParameterSpec(name: "e", type: .enumeration(["a", "b"]), defaultValue: .string("a"), summary: "an enumeration"),
    ParameterSpec(name: "s", type: .string, defaultValue: .string(""), summary: "a string"),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = FuzzInput.text(data, size)
    FuzzInput.check(oneLine: false) {
        let spec = try ElementSpec(parsing: text)
        let values = try ParameterValues(checking: spec, against: parameters, kind: .filter)
        _ = (values.double("f"), values.double("i"), values.double("u"), values.bool("b"), values.string("e"), values.string("s"))
        _ = spec.description
    }
    FuzzInput.check(oneLine: false) { _ = try SourceSpec(parsing: text, knownSchemes: ["image", "video"]) }
    FuzzInput.check(oneLine: false) { _ = try PredictionSpec(parsing: text) }
    return 0
}
