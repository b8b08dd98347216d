import CFramelabCV
import FramelabCore

/// Face and detection regions drawn as FDDB's evaluation program draws them, and their pixel
/// overlaps (framelab_fddb.cpp): ellipses with OpenCV's filled-ellipse rasteriser (centre
/// rounded, radii truncated, angle in whole degrees), rectangles with both corners included.
public enum FDDBRaster {
    /// A region in image pixels.
    public enum Region: Sendable, Equatable {
        /// FDDB's ellipse: radii, angle in radians as its annotation files give it, centre.
        case ellipse(majorRadius: Double, minorRadius: Double, angle: Double, centerX: Double, centerY: Double)
        /// A box: filled from (x, y) to (x + width, y + height), both corners included.
        case rectangle(x: Double, y: Double, width: Double, height: Double)

        var bridged: fl_fddb_region {
            switch self {
            case let .ellipse(a, b, angle, cx, cy):
                fl_fddb_region(kind: Int32(FL_FDDB_ELLIPSE), v: (a, b, angle, cx, cy))
            case let .rectangle(x, y, w, h):
                fl_fddb_region(kind: Int32(FL_FDDB_RECTANGLE), v: (x, y, w, h, 0))
            }
        }
    }

    /// The largest |coordinate| or radius of an ellipse drawn (2^23).
    public static let maxEllipseCoordinate = Double(FL_FDDB_MAX_ELLIPSE_COORDINATE)

    /// The most regions (faces or detections) and face-detection pairs one image may have:
    /// the pair counts are a dense faces x detections table.
    public static let maxRegions = 1 << 20
    public static let maxPairs = 1 << 24

    /// Pixel counts of one image's regions on its canvas.
    public struct Overlaps: Sendable, Equatable {
        public var facePixels: [Int]
        public var detectionPixels: [Int]
        /// `intersections[f][d]`: pixels face f and detection d both cover.
        public var intersections: [[Int]]

        /// Intersection over union of face f and detection d; 0 when both masks are empty
        /// (FDDB's program would divide 0 by 0 there).
        public func overlap(face f: Int, detection d: Int) -> Double {
            let both = intersections[f][d]
            let union = facePixels[f] + detectionPixels[d] - both
            return union > 0 ? Double(both) / Double(union) : 0
        }
    }

    /// Throws unless a width x height canvas is non-empty and at most
    /// `ImageCodec.maxDecodedPixels` pixels (the two canvases drawn are one byte a pixel).
    public static func checkCanvas(width: Int, height: Int, _ context: @autoclosure () -> String) throws {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 1, height >= 1, !overflow, pixels <= ImageCodec.maxDecodedPixels else {
            throw FramelabError(.badInput, "\(context()): a \(width)x\(height) canvas is empty or has more than "
                                + "\(ImageCodec.maxDecodedPixels) (2^28) pixels")
        }
    }

    /// Draws `faces` and `detections` on a width x height canvas and counts their pixels.
    /// `context` names the image in errors (non-finite values, ellipses out of range).
    public static func overlaps(width: Int, height: Int, faces: [Region], detections: [Region],
                                context: @autoclosure () -> String) throws -> Overlaps {
        try checkCanvas(width: width, height: height, context())
        let (pairs, overflow) = faces.count.multipliedReportingOverflow(by: detections.count)
        guard faces.count <= maxRegions, detections.count <= maxRegions, !overflow, pairs <= maxPairs else {
            throw FramelabError(.badInput, "\(context()): \(faces.count) faces x \(detections.count) detections is more than "
                                + "the \(maxPairs) (2^24) pairs FDDB's protocol compares in one image")
        }
        let f = faces.map(\.bridged), d = detections.map(\.bridged)
        var facePixels = [Int64](repeating: 0, count: f.count)
        var detectionPixels = [Int64](repeating: 0, count: d.count)
        var both = [Int64](repeating: 0, count: f.count * d.count)
        try cvCall(context(), kind: .badInput) { err, len in
            f.withUnsafeBufferPointer { fp in
                d.withUnsafeBufferPointer { dp in
                    facePixels.withUnsafeMutableBufferPointer { fpx in
                        detectionPixels.withUnsafeMutableBufferPointer { dpx in
                            both.withUnsafeMutableBufferPointer { bp in
                                fl_fddb_overlaps(Int32(width), Int32(height), fp.baseAddress, Int32(f.count),
                                                 dp.baseAddress, Int32(d.count), fpx.baseAddress, dpx.baseAddress,
                                                 bp.baseAddress, err, len)
                            }
                        }
                    }
                }
            }
        }
        return Overlaps(facePixels: facePixels.map { Int($0) }, detectionPixels: detectionPixels.map { Int($0) },
                        intersections: f.indices.map { i in d.indices.map { j in Int(both[i * d.count + j]) } })
    }

    /// One region's mask (255 inside, 0 outside; row-major, `width` bytes a row), as
    /// `overlaps` draws it.
    public static func mask(width: Int, height: Int, region: Region) throws -> [UInt8] {
        try checkCanvas(width: width, height: height, "FDDB mask")
        var mask = [UInt8](repeating: 0, count: width * height)
        var r = region.bridged
        try cvCall("FDDB mask", kind: .badInput) { err, len in
            mask.withUnsafeMutableBufferPointer { fl_fddb_draw(Int32(width), Int32(height), &r, $0.baseAddress, err, len) }
        }
        return mask
    }
}
