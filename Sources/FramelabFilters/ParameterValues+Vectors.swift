import FramelabCore
import FramelabElements

extension ParameterValues {
    /// A string parameter holding `count` numbers separated by spaces, '/' or ';'
    /// (commas separate parameters on the command line). Errors name filter and parameter.
    public func vector(_ name: String, count: Int, range: ClosedRange<Double>? = nil) throws -> [Double] {
        let text = string(name)
        let parts = text.split(whereSeparator: { " /;".contains($0) })
        let numbers = parts.compactMap { Double($0) }.filter(\.isFinite)
        guard numbers.count == parts.count, numbers.count == count else {
            throw FramelabError(.badInput, "\(label): parameter '\(name)' expects \(count) numbers separated by spaces or '/', got '\(text)'")
        }
        if let range, let bad = numbers.first(where: { !range.contains($0) }) {
            throw FramelabError(.badInput, "\(label): parameter '\(name)' has \(bad), outside \(range.lowerBound)…\(range.upperBound)")
        }
        return numbers
    }

    /// A colour "r g b" or "r g b a", components 0…1.
    public func color(_ name: String) throws -> RGBAColor {
        let text = string(name)
        let n = text.split(whereSeparator: { " /;".contains($0) }).count
        let v = try vector(name, count: n == 3 ? 3 : 4, range: 0...1)
        return RGBAColor(r: v[0], g: v[1], b: v[2], a: v.count == 4 ? v[3] : 1)
    }
}

extension ParameterSpec {
    /// A float parameter.
    static func number(_ name: String, _ range: ClosedRange<Double>, _ defaultValue: Double, _ summary: String) -> ParameterSpec {
        ParameterSpec(name: name, type: .float, minimum: range.lowerBound, maximum: range.upperBound,
                      defaultValue: .float(defaultValue), summary: summary)
    }

    /// A vector or colour parameter written as numbers separated by spaces or '/'.
    static func numbers(_ name: String, _ defaultValue: String, _ summary: String) -> ParameterSpec {
        ParameterSpec(name: name, type: .string, defaultValue: .string(defaultValue), summary: summary)
    }
}
