import FramelabDatasets
import FramelabDetection

/// One image under the WIDER protocol: its faces and its predictions (sorted, scores
/// normalised: `WiderProtocol.normalisedAndSorted`), and what rules (d) to (f) make of them.
struct WiderImage {
    let faces: [GroundTruthFace]
    let predictions: [FaceDetection]
    /// Rule (d)'s choice, the same in every setting: per prediction, the face it overlaps
    /// most (the first of equals) when that overlap reaches 0.5, else nil.
    private let bestFace: [Int?]
    /// Per prediction, the highest normalised score at or after it (NaN skipped): the last
    /// prediction with score >= th is the last one whose `scoreFromHere` is >= th.
    private let scoreFromHere: [Double]

    struct Counts {
        /// Predictions that count (not ignored) with score >= the threshold.
        var proposals = 0
        /// Kept faces matched once those predictions are in.
        var matched = 0
    }

    init(faces: [GroundTruthFace], predictions: [FaceDetection]) {
        self.faces = faces
        self.predictions = predictions
        bestFace = predictions.map { p in
            var best = -1, bestIoU = -Double.infinity
            for (f, face) in faces.enumerated() {
                let iou = WiderProtocol.iou(p.box, face.box)
                if iou > bestIoU { best = f; bestIoU = iou }
            }
            return best >= 0 && bestIoU >= WiderProtocol.iouThreshold ? best : nil
        }
        var running = -Double.infinity
        var fromHere = [Double](repeating: .nan, count: predictions.count)
        for i in predictions.indices.reversed() {
            if predictions[i].score > running { running = predictions[i].score }
            fromHere[i] = running == -.infinity ? .nan : running
        }
        scoreFromHere = fromHere
    }

    func keptFaces(_ setting: WiderProtocol.Setting) -> Int { faces.filter(setting.keeps).count }

    /// Rule (d) in one setting: whether each prediction counts, and how many kept faces are
    /// matched once it is in.
    func match(_ setting: WiderProtocol.Setting) -> (counted: [Bool], matchedAfter: [Int]) {
        let kept = faces.map(setting.keeps)
        var matched = [Bool](repeating: false, count: faces.count)
        var counted = [Bool](repeating: true, count: predictions.count)
        var matchedAfter = [Int](repeating: 0, count: predictions.count)
        var total = 0
        for (i, face) in bestFace.enumerated() {
            if let f = face {
                if !kept[f] {
                    counted[i] = false  // on a face the setting ignores: neither true nor false
                } else if !matched[f] {
                    matched[f] = true
                    total += 1
                }  // a face already matched: this one stays a false positive, no second choice
            }
            matchedAfter[i] = total
        }
        return (counted, matchedAfter)
    }

    /// Rules (e) and (f): adds this image's counts at each threshold to `totals`.
    func addCounts(_ setting: WiderProtocol.Setting, to totals: inout [Counts]) {
        guard !faces.isEmpty && !predictions.isEmpty else { return }
        let (counted, matchedAfter) = match(setting)
        var countedUpTo = [Int](repeating: 0, count: predictions.count)
        var n = 0
        for i in counted.indices {
            if counted[i] { n += 1 }
            countedUpTo[i] = n
        }
        var last = -1  // the last prediction with score >= the threshold; thresholds only come down
        for t in totals.indices {
            let threshold = WiderProtocol.threshold(t + 1)
            while last + 1 < predictions.count && scoreFromHere[last + 1] >= threshold { last += 1 }
            if last >= 0 {
                totals[t].proposals += countedUpTo[last]
                totals[t].matched += matchedAfter[last]
            }
        }
    }
}
