import Foundation
import FramelabCore

/// The block layout FDDB's detection lists and WIDER's submission files share:
///
///     <image name>
///     <number of faces n>
///     n lines: x y w h score   (FDDB also: major minor angle cx cy score, an ellipse)
///
/// Blank lines between blocks are skipped. A count never drives an allocation: it is
/// checked against the lines that follow before any face is read.
struct DetectionListText {
    struct Block {
        let name: String
        /// 1-based line of the name.
        let line: Int
        let faces: [PredictedFace]
    }

    let text: AnnotationText
    /// Whether 6-number ellipse lines are accepted (FDDB).
    let ellipses: Bool

    /// The lines, less the empty one after a final line break.
    var lineCount: Int { text.lines.last?.isEmpty == true ? text.lines.count - 1 : text.lines.count }

    /// Every block of the file.
    func blocks() throws -> [Block] {
        var out: [Block] = []
        var i = 0
        while i < lineCount {
            if isBlank(i) { i += 1; continue }
            let (block, next) = try block(at: i)
            out.append(block)
            i = next
        }
        return out
    }

    /// The block starting at line `i` (0-based) and the index after it.
    func block(at i: Int) throws -> (Block, next: Int) {
        let name = text.lines[i].trimmingCharacters(in: .whitespaces)
        let n = try count(i + 1, of: name)
        let remaining = lineCount - (i + 2)
        guard n <= remaining else {
            throw badPrediction(text.path, i + 2, "\(quoted(name)) has \(n) faces but only \(max(0, remaining)) lines follow")
        }
        var faces: [PredictedFace] = []
        for k in 0..<n { faces.append(try face(i + 2 + k)) }
        return (Block(name: name, line: i + 1, faces: faces), i + 2 + n)
    }

    func isBlank(_ i: Int) -> Bool { text.lines[i].allSatisfy { $0 == " " || $0 == "\t" } }

    private func count(_ i: Int, of name: String) throws -> Int {
        guard i < lineCount else {
            throw badPrediction(text.path, i + 1, "file ends where the number of faces of \(quoted(name)) was expected")
        }
        let t = text.lines[i].trimmingCharacters(in: .whitespaces)
        guard let n = Int(t), n >= 0 else {
            throw badPrediction(text.path, i + 1, "expected the number of faces of \(quoted(name)), got \(quoted(t))")
        }
        return n
    }

    /// One face line: a rectangle, or (FDDB) an ellipse turned into the box enclosing it.
    private func face(_ i: Int) throws -> PredictedFace {
        let line = text.lines[i]
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let shapes = ellipses ? "'x y w h score' or 'major minor angle cx cy score'" : "'x y w h score'"
        guard fields.count == 5 || (ellipses && fields.count == 6) else {
            throw badPrediction(text.path, i + 1, "expected \(shapes), got \(quoted(line))")
        }
        let v = try fields.map { f -> Double in
            guard let d = Double(f) else { throw badPrediction(text.path, i + 1, "\(quoted(f)) is not a number in \(quoted(line))") }
            guard d.isFinite else { throw badPrediction(text.path, i + 1, "\(quoted(f)) is not a finite number in \(quoted(line))") }
            return d
        }
        if fields.count == 6 {
            guard v[0] > 0, v[1] > 0 else { throw badPrediction(text.path, i + 1, "ellipse radii must be positive in \(quoted(line))") }
            let e = FaceEllipse(majorRadius: v[0], minorRadius: v[1], angle: v[2], centerX: v[3], centerY: v[4])
            return PredictedFace(box: e.boundingBox, score: v[5])
        }
        guard v[2] >= 0, v[3] >= 0 else { throw badPrediction(text.path, i + 1, "negative width or height in \(quoted(line))") }
        return PredictedFace(box: FaceBox(x: v[0], y: v[1], width: v[2], height: v[3]), score: v[4])
    }
}

/// Writes one block in the same layout (numbers in Swift's shortest round-trip form, so
/// reading them back gives the same Doubles).
func detectionBlock(name: String, faces: [PredictedFace]) -> String {
    var text = "\(name)\n\(faces.count)\n"
    for f in faces { text += "\(f.box.x) \(f.box.y) \(f.box.width) \(f.box.height) \(f.score)\n" }
    return text
}
