import FramelabCore
import FramelabCV
import FramelabDatasets
import FramelabDetection

/// FDDB's official evaluation protocol, as the evaluation program of Jain and Learned-Miller
/// (2010) computes it (docs/detection.md, "The official FDDB protocol"):
///
/// 1. Overlap: pixel intersection over union of filled masks on an image-sized canvas
///    (`FDDBRaster`): faces as OpenCV ellipses (or rectangles when a face has no ellipse),
///    detections as rectangles with both corners included.
/// 2. Per image and per unique detection score s (each image's own scores): detections with
///    score >= s are valid; faces and valid detections are paired by the Hungarian algorithm
///    maximising the total overlap (`HungarianAssignment`), every pair above 0 kept.
///    Discrete TP = pairs above 0.5, continuous TP = the pairs' summed overlap,
///    FP = valid detections − discrete TP. An image without detections has one result, all
///    zero, at threshold `Double.greatestFiniteMagnitude` (the program's DBL_MAX).
/// 3. Merge: one point per threshold t in the union of the images' thresholds; each image
///    adds its counts at its own smallest threshold >= t, or nothing when it has none
///    (its faces still count). TPR = TP / faces over all images.
///
/// Ignored faces (`GroundTruthFace.ignore`; FDDB has none): not counted among the faces and
/// not paired; a valid detection that is not a discrete true positive and overlaps an
/// ignored face by more than 0.5 counts neither as a true nor as a false positive.
///
/// Not guaranteed, as in the program: the discrete counts need not be monotone in the
/// threshold (maximising the summed overlap can trade one pair above 0.5 for two below it).
public enum FDDBProtocol {
    /// The overlap above which a pair is a discrete true positive.
    public static let discreteOverlap = 0.5

    public static func evaluate(_ images: [FDDBImage]) throws -> FDDBProtocolResult {
        var perImage: [[ImageCounts]] = []
        perImage.reserveCapacity(images.count)
        for (k, image) in images.enumerated() {
            perImage.append(try counts(image, context: "FDDB image \(k) '\(image.name)'"))
        }
        return merge(perImage)
    }

    /// One image's counts at one threshold (`Results` in the program).
    struct ImageCounts: Equatable {
        var threshold: Double
        var faces: Int
        var discrete: Int
        var continuous: Double
        var falsePositives: Int
    }

    /// One image's counts at each of its unique scores, highest threshold first.
    static func counts(_ image: FDDBImage, context: @autoclosure () -> String) throws -> [ImageCounts] {
        let regular = image.faces.indices.filter { !image.faces[$0].ignore }
        let ignored = image.faces.indices.filter { image.faces[$0].ignore }
        let detections = image.detections
        guard !detections.isEmpty else {
            return [ImageCounts(threshold: .greatestFiniteMagnitude, faces: regular.count, discrete: 0, continuous: 0,
                                falsePositives: 0)]
        }
        if let bad = detections.firstIndex(where: { $0.score.isNaN }) {
            throw FramelabError(.badInput, "\(context()): detection \(bad) has a NaN score")
        }
        // Faces in the image's order, so that errors number them as the annotations do.
        let pixels = try FDDBRaster.overlaps(width: image.width, height: image.height, faces: image.faces.map(region),
                                             detections: detections.map(region), context: context())
        let overlap = regular.map { f in detections.indices.map { pixels.overlap(face: f, detection: $0) } }
        let onIgnored = detections.indices.map { d in ignored.contains { pixels.overlap(face: $0, detection: d) > discreteOverlap } }
        let touchesAFace = detections.indices.map { d in overlap.contains { $0[d] > 0 } }
        let order = detections.indices.sorted { detections[$0].score > detections[$1].score }

        var results: [ImageCounts] = []
        var valid: [Int] = []
        var pairs: [HungarianAssignment.Pair] = []   // columns index `valid`
        var k = 0
        while k < order.count {
            let threshold = detections[order[k]].score
            var changed = false
            while k < order.count && detections[order[k]].score == threshold {
                valid.append(order[k])
                changed = changed || touchesAFace[order[k]]
                k += 1
            }
            // A detection that overlaps no face is a zero column, which the program drops
            // before the Hungarian step: the assignment only changes when another joins.
            if changed {
                pairs = HungarianAssignment.maximumTotalOverlap(overlap.map { row in valid.map { row[$0] } })
            }
            let hits = Set(pairs.filter { $0.overlap > discreteOverlap }.map { valid[$0.column] })
            let neither = valid.filter { onIgnored[$0] && !hits.contains($0) }.count
            results.append(ImageCounts(threshold: threshold, faces: regular.count, discrete: hits.count,
                                       continuous: pairs.reduce(0) { $0 + $1.overlap },
                                       falsePositives: valid.count - hits.count - neither))
        }
        return results
    }

    /// The program's region for a face: its ellipse, or its box when it has none.
    static func region(_ face: GroundTruthFace) -> FDDBRaster.Region {
        if let e = face.ellipse {
            return .ellipse(majorRadius: e.majorRadius, minorRadius: e.minorRadius, angle: e.angle,
                            centerX: e.centerX, centerY: e.centerY)
        }
        return .rectangle(x: face.box.x, y: face.box.y, width: face.box.width, height: face.box.height)
    }

    static func region(_ detection: FaceDetection) -> FDDBRaster.Region {
        .rectangle(x: detection.box.x, y: detection.box.y, width: detection.box.width, height: detection.box.height)
    }

    /// `Results::merge` over all images: walking the union of thresholds from the highest
    /// down, each image's contribution is replaced when one of its own thresholds is reached.
    static func merge(_ perImage: [[ImageCounts]]) -> FDDBProtocolResult {
        let faces = perImage.reduce(0) { $0 + ($1.first?.faces ?? 0) }
        let entries = perImage.enumerated().flatMap { i, list in list.map { (image: i, counts: $0) } }
            .sorted { $0.counts.threshold > $1.counts.threshold }
        var current = perImage.map { _ in ImageCounts(threshold: 0, faces: 0, discrete: 0, continuous: 0, falsePositives: 0) }
        var discrete = 0, falsePositives = 0
        var continuous = 0.0
        var discreteCurve: [ROCPoint] = [], continuousCurve: [ROCPoint] = []
        let n = Double(faces)
        var k = 0
        while k < entries.count {
            let threshold = entries[k].counts.threshold
            while k < entries.count && entries[k].counts.threshold == threshold {
                let (i, now) = entries[k]
                discrete += now.discrete - current[i].discrete
                continuous += now.continuous - current[i].continuous
                falsePositives += now.falsePositives - current[i].falsePositives
                current[i] = now
                k += 1
            }
            discreteCurve.append(ROCPoint(threshold: threshold, falsePositives: falsePositives,
                                          truePositiveRate: faces > 0 ? Double(discrete) / n : 0))
            continuousCurve.append(ROCPoint(threshold: threshold, falsePositives: falsePositives,
                                            truePositiveRate: faces > 0 ? continuous / n : 0))
        }
        return FDDBProtocolResult(faces: faces, discrete: discreteCurve, continuous: continuousCurve)
    }
}
