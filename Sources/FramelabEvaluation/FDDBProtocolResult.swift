import Foundation
import FramelabCore

/// The official FDDB protocol's result (`FDDBProtocol.evaluate`): the discrete and the
/// continuous ROC, one point per threshold, highest threshold first (false positives
/// growing), as Framelab's other curves are ordered.
public struct FDDBProtocolResult: Sendable, Equatable {
    /// Faces over all images (ignored faces excluded): the TPR's denominator.
    public var faces: Int
    public var discrete: [ROCPoint]
    public var continuous: [ROCPoint]

    public init(faces: Int, discrete: [ROCPoint], continuous: [ROCPoint]) {
        self.faces = faces
        self.discrete = discrete
        self.continuous = continuous
    }

    /// The false-positive count FDDB's results are compared at.
    public static let comparedFalsePositives = 1000

    /// The discrete TPR at 1000 false positives (`truePositiveRate(_:atFalsePositives:)`).
    public var tprAt1000Discrete: Double { Self.truePositiveRate(discrete, atFalsePositives: Self.comparedFalsePositives) }
    /// The continuous TPR at 1000 false positives.
    public var tprAt1000Continuous: Double { Self.truePositiveRate(continuous, atFalsePositives: Self.comparedFalsePositives) }

    /// The TPR read off a curve at `limit` false positives, as FDDB's results are read: the
    /// point with the largest false-positive count <= `limit` (the curve's last step before
    /// the limit; the best TPR when several points share that count), 0 when every point has
    /// more false positives than `limit` or the curve is empty.
    public static func truePositiveRate(_ curve: [ROCPoint], atFalsePositives limit: Int) -> Double {
        let within = curve.filter { $0.falsePositives <= limit }
        guard let fp = within.map(\.falsePositives).max() else { return 0 }
        return within.filter { $0.falsePositives == fp }.map(\.truePositiveRate).max() ?? 0
    }

    /// The text of the program's `DiscROC.txt` (continuous: false) or `ContROC.txt` (true), as
    /// its `saveROC` writes it: one line per threshold, lowest threshold first; each line
    /// "TPR FP" (ContROC) or "TPR FP threshold" (DiscROC), numbers as C++ streams print the
    /// program's doubles (six significant digits, `%g`: 1234567 false positives are
    /// "1.23457e+06"). With no faces at all every line is "0 0" (ContROC) or
    /// "0 0 threshold" (DiscROC), as the program writes it.
    public func rocFileText(continuous: Bool) -> String {
        let curve = continuous ? self.continuous : discrete
        var text = ""
        for point in curve.reversed() {
            switch (faces > 0, continuous) {
            case (true, true): text += "\(Self.g(point.truePositiveRate)) \(Self.g(Double(point.falsePositives)))\n"
            case (true, false):
                text += "\(Self.g(point.truePositiveRate)) \(Self.g(Double(point.falsePositives))) \(Self.g(point.threshold))\n"
            case (false, true): text += "0 0\n"
            case (false, false): text += "0 0 \(Self.g(point.threshold))\n"
            }
        }
        return text
    }

    /// Writes the two ROC files (for `eval --protocol fddb --roc-dir DIR`: DIR/…DiscROC.txt and
    /// DIR/…ContROC.txt). Errors name the file.
    public func write(discROC: String, contROC: String) throws {
        for (path, isContinuous) in [(discROC, false), (contROC, true)] {
            do {
                try rocFileText(continuous: isContinuous).write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw FramelabError(.io, "cannot write ROC file '\(path)': \(error.localizedDescription)")
            }
        }
    }

    /// A number as a C++ ostream prints a double by default.
    static func g(_ value: Double) -> String { String(format: "%g", value) }
}
