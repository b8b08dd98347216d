import Foundation
import FramelabCore
import FramelabCV

/// MTCNN's three networks and what each stage does with them (Zhang et al. 2016): P-Net
/// proposes boxes over an image pyramid, R-Net rejects and refines them on 24x24 crops,
/// O-Net does so again on 48x48 crops and adds five landmarks. Output layers are found by
/// their channel count (box regression 4, landmarks 10, face/non-face softmax 2), which is
/// what tells them apart in this export (P-Net: conv2d_4, softmax; R-Net: dense_2,
/// softmax_1; O-Net: dense_5, dense_6, softmax_2).
struct MTCNNStages {
    let pnet: DNNNetwork, rnet: DNNNetwork, onet: DNNNetwork
    /// Crops sent to R-Net or O-Net in one forward: bounds the batch tensor's memory.
    static let batchSize = 128
    /// P-Net's window and the step between its output cells, in pyramid-level pixels.
    static let cell = 12.0, cellStride = 2.0

    /// The output of `outputs` with `channels` in its last dimension.
    static func output(_ outputs: [DNNTensor], channels: Int, of network: DNNNetwork) throws -> DNNTensor {
        guard let t = outputs.first(where: { $0.shape.last == channels }) else {
            throw FramelabError(.processing, "network '\(network.files.last ?? "")' has no output with \(channels) "
                + "channels (outputs: \(outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))); is it MTCNN's?")
        }
        return t
    }

    /// The pyramid's scales: the first maps `minSize` to P-Net's 12-pixel window, each next
    /// one is `factor` times smaller, down to where the image's shorter side is 12 pixels.
    static func scales(width: Int, height: Int, minSize: Int, factor: Double) -> [Double] {
        var scale = cell / Double(minSize)
        var shorter = Double(min(width, height)) * scale
        var result: [Double] = []
        while shorter >= cell {
            result.append(scale)
            scale *= factor
            shorter *= factor
        }
        return result
    }

    /// P-Net over one pyramid level: every 12x12 window whose face probability reaches
    /// `threshold`, in image pixels, suppressed at IoU 0.5 within the level.
    func propose(_ image: Mat, scale: Double, threshold: Double) throws -> [MTCNNCandidate] {
        let w = Int((Double(image.width) * scale).rounded(.up)), h = Int((Double(image.height) * scale).rounded(.up))
        guard w >= Int(Self.cell), h >= Int(Self.cell) else { return [] }
        var tensor: [Float] = []
        tensor.reserveCapacity(w * h * 3)
        MTCNNInput.append(try image.resized(width: w, height: h), to: &tensor)
        let outputs = try pnet.forward(tensor: tensor, shape: [1, w, h, 3])
        let prob = try Self.output(outputs, channels: 2, of: pnet)
        let reg = try Self.output(outputs, channels: 4, of: pnet)
        guard prob.shape.count == 4, reg.shape.count == 4, prob.shape[1] == reg.shape[1], prob.shape[2] == reg.shape[2]
        else { throw FramelabError(.processing, "network '\(pnet.files[0])': unexpected output shapes \(prob.shape), \(reg.shape)") }
        let (columns, rows) = (prob.shape[1], prob.shape[2])  // transposed: x first
        var found: [MTCNNCandidate] = []
        for i in 0..<columns {
            for j in 0..<rows {
                let cell = i * rows + j
                let score = Double(prob.values[cell * 2 + 1])
                guard score >= threshold, score.isFinite else { continue }
                let r = (0..<4).map { Double(reg.values[cell * 4 + $0]) }
                var c = MTCNNCandidate(
                    x1: ((Self.cellStride * Double(i) + 1) / scale).rounded(.towardZero),
                    y1: ((Self.cellStride * Double(j) + 1) / scale).rounded(.towardZero),
                    x2: ((Self.cellStride * Double(i) + Self.cell) / scale).rounded(.towardZero),
                    y2: ((Self.cellStride * Double(j) + Self.cell) / scale).rounded(.towardZero),
                    score: score)
                c.regression = (r[0], r[1], r[2], r[3])
                found.append(c)
            }
        }
        return MTCNNCandidate.suppress(found, threshold: 0.5)
    }

    /// Runs `network` on `side` x `side` crops of `candidates` in batches; calls `keep` with
    /// each candidate that has a crop and its row of every output, in order.
    func classify(_ image: Mat, _ candidates: [MTCNNCandidate], side: Int, network: DNNNetwork,
                  channels: [Int], _ keep: (MTCNNCandidate, [[Double]]) -> Void) throws {
        var start = 0
        while start < candidates.count {
            var batch: [MTCNNCandidate] = []
            var tensor: [Float] = []
            var next = start
            while next < candidates.count, batch.count < Self.batchSize {
                if let crop = try MTCNNInput.crop(image, candidates[next], side: side) {
                    MTCNNInput.append(crop, to: &tensor)
                    batch.append(candidates[next])
                }
                next += 1
            }
            start = next
            guard !batch.isEmpty else { continue }
            let outputs = try network.forward(tensor: tensor, shape: [batch.count, side, side, 3])
            let tensors = try channels.map { try Self.output(outputs, channels: $0, of: network) }
            for t in tensors where t.values.count != batch.count * (t.shape.last ?? 0) {
                throw FramelabError(.processing, "network '\(network.files[0])': output \(t.name) has shape \(t.shape) for \(batch.count) crops")
            }
            for (n, candidate) in batch.enumerated() {
                keep(candidate, zip(tensors, channels).map { t, c in (0..<c).map { Double(t.values[n * c + $0]) } })
            }
        }
    }

    /// R-Net: keeps crops scoring at least `threshold`, suppresses at IoU 0.7, applies the
    /// regression and squares the boxes.
    func refine(_ image: Mat, _ candidates: [MTCNNCandidate], threshold: Double) throws -> [MTCNNCandidate] {
        var kept: [MTCNNCandidate] = []
        try classify(image, candidates, side: 24, network: rnet, channels: [2, 4]) { candidate, rows in
            let score = rows[0][1]
            guard score >= threshold, score.isFinite, rows[1].allSatisfy(\.isFinite) else { return }
            var c = candidate
            c.score = score
            c.regression = (rows[1][0], rows[1][1], rows[1][2], rows[1][3])
            kept.append(c)
        }
        return MTCNNCandidate.suppress(kept, threshold: 0.7).map { $0.regressed(inclusive: true).squared() }
            .filter(\.isFinite)
    }

    /// O-Net: keeps crops scoring at least `threshold`, reads the landmarks (fractions of the
    /// box, five x then five y), applies the regression, then suppresses boxes overlapping a
    /// better one by 0.7 of the smaller box.
    func output(_ image: Mat, _ candidates: [MTCNNCandidate], threshold: Double) throws -> [MTCNNCandidate] {
        var kept: [MTCNNCandidate] = []
        try classify(image, candidates, side: 48, network: onet, channels: [2, 4, 10]) { candidate, rows in
            let score = rows[0][1]
            guard score >= threshold, score.isFinite, rows[1].allSatisfy(\.isFinite), rows[2].allSatisfy(\.isFinite)
            else { return }
            var c = candidate
            c.score = score
            c.regression = (rows[1][0], rows[1][1], rows[1][2], rows[1][3])
            let w = c.x2 - c.x1 + 1, h = c.y2 - c.y1 + 1
            c.landmarks = (0..<5).map { k in
                ImagePoint(x: c.x1 + w * rows[2][k] - 1, y: c.y1 + h * rows[2][k + 5] - 1)
            }
            kept.append(c.regressed(inclusive: true))
        }
        return MTCNNCandidate.suppress(kept.filter(\.isFinite), threshold: 0.7, overlap: .minimum)
    }
}
