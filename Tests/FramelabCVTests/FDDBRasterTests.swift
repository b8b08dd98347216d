import Foundation
import FramelabCore
import FramelabCV
import Testing

/// FDDB's masks as the evaluation program draws them: rectangles exactly (both corners
/// included, corners rounded through float), ellipses against the ellipse equation within
/// OpenCV's polygon rasteriser, and the two-canvas overlap counts against whole masks.
@Suite struct FDDBRasterTests {
    typealias Region = FDDBRaster.Region

    /// Pixel centres (x, y) inside the ellipse with semi-axes a (along `degrees`, measured
    /// in image coordinates, y down) and b, centred at (cx, cy), scaled by `scale`.
    static func inEllipse(_ x: Int, _ y: Int, cx: Double, cy: Double, a: Double, b: Double, degrees: Double,
                          scale: Double = 1) -> Bool {
        let t = degrees * .pi / 180
        let dx = Double(x) - cx, dy = Double(y) - cy
        let u = (dx * cos(t) + dy * sin(t)) / (a * scale), v = (-dx * sin(t) + dy * cos(t)) / (b * scale)
        return u * u + v * v <= 1
    }

    static func count(_ mask: [UInt8]) -> Int { mask.reduce(0) { $0 + ($1 != 0 ? 1 : 0) } }

    @Test func rectanglesIncludeBothCornersAndOverlapExactly() throws {
        let a = Region.rectangle(x: 10, y: 10, width: 9, height: 9)       // x, y 10...19: 100 px
        let b = Region.rectangle(x: 15, y: 15, width: 9, height: 9)       // 15...24: 25 px shared
        let o = try FDDBRaster.overlaps(width: 64, height: 48, faces: [a], detections: [b, a], context: "test")
        #expect(o.facePixels == [100] && o.detectionPixels == [100, 100])
        #expect(o.intersections == [[25, 100]])
        #expect(o.overlap(face: 0, detection: 0) == 25.0 / 175.0)
        #expect(o.overlap(face: 0, detection: 1) == 1)

        let mask = try FDDBRaster.mask(width: 64, height: 48, region: a)
        for y in 0..<48 {
            for x in 0..<64 { #expect((mask[y * 64 + x] != 0) == ((10...19).contains(x) && (10...19).contains(y))) }
        }
    }

    @Test func rectangleCornersAreRoundedHalfToEvenAndClippedToTheCanvas() throws {
        // 10.5 rounds to 10 and 10.5 + 1 = 11.5 to 12 (cvRound: half to even): columns 10...12.
        let row = try FDDBRaster.mask(width: 20, height: 1, region: .rectangle(x: 10.5, y: 0, width: 1, height: 0))
        #expect(row.indices.filter { row[$0] != 0 } == [10, 11, 12])
        // A box far beyond the canvas covers exactly the canvas.
        let huge = try FDDBRaster.overlaps(width: 30, height: 20, faces: [.rectangle(x: -1e300, y: -5, width: 2e300, height: 1e12)],
                                           detections: [.rectangle(x: 1e9, y: 0, width: 5, height: 5)], context: "test")
        #expect(huge.facePixels == [600] && huge.detectionPixels == [0] && huge.intersections == [[0]])
    }

    /// OpenCV fills the polygon through points on the ellipse together with the pixels its
    /// outline passes through, so a filled ellipse is close to the pixel centres within the
    /// radii plus half a pixel: 349 for a circle of radius 10 (317 within 10 exactly).
    @Test func aCircleOfRadiusTenAgainstTheTwentyByTwentyBoxAroundIt() throws {
        let circle = Region.ellipse(majorRadius: 10, minorRadius: 10, angle: 0, centerX: 50, centerY: 40)
        let box = Region.rectangle(x: 40, y: 30, width: 20, height: 20)   // 40...60: 21 x 21 = 441 px
        let mask = try FDDBRaster.mask(width: 100, height: 80, region: circle)
        var within = 0, withinHalfMore = 0
        for y in 0..<80 {
            for x in 0..<100 {
                within += Self.inEllipse(x, y, cx: 50, cy: 40, a: 10, b: 10, degrees: 0) ? 1 : 0
                withinHalfMore += Self.inEllipse(x, y, cx: 50, cy: 40, a: 10.5, b: 10.5, degrees: 0) ? 1 : 0
                // Pixels well inside are in, pixels well outside are out.
                if Self.inEllipse(x, y, cx: 50, cy: 40, a: 9.5, b: 9.5, degrees: 0) { #expect(mask[y * 100 + x] != 0) }
                if !Self.inEllipse(x, y, cx: 50, cy: 40, a: 11.5, b: 11.5, degrees: 0) { #expect(mask[y * 100 + x] == 0) }
            }
        }
        #expect(within == 317 && withinHalfMore == 349)   // Gauss's circle counts
        let drawn = Self.count(mask)
        #expect(abs(drawn - withinHalfMore) <= 10, "drawn \(drawn), equation \(withinHalfMore)")

        let o = try FDDBRaster.overlaps(width: 100, height: 80, faces: [circle], detections: [box], context: "test")
        #expect(o.facePixels == [drawn] && o.detectionPixels == [441] && o.intersections == [[drawn]])
        #expect(abs(o.overlap(face: 0, detection: 0) - Double(withinHalfMore) / 441) < 0.025)
    }

    /// FDDB's angle: the program reads t radians as (pi - t) * 180 / pi degrees and draws at
    /// 180 minus that, so OpenCV gets t in degrees (rounded to whole degrees), the major axis
    /// pointing that way in image coordinates (y down): 0.7 rad is drawn at 40 degrees.
    @Test func aRotatedEllipseFollowsTheAngleAndAxisOrderOfTheProgram() throws {
        let e = Region.ellipse(majorRadius: 30.9, minorRadius: 12.2, angle: 0.7, centerX: 60.4, centerY: 49.6)
        let mask = try FDDBRaster.mask(width: 120, height: 100, region: e)
        // Centre rounded (60, 50), radii truncated (30, 12), angle 40 degrees.
        var expected = 0, mirrored = 0
        for y in 0..<100 {
            for x in 0..<120 {
                let inside = Self.inEllipse(x, y, cx: 60, cy: 50, a: 30.5, b: 12.5, degrees: 40)
                expected += inside ? 1 : 0
                if inside != Self.inEllipse(x, y, cx: 60, cy: 50, a: 30.5, b: 12.5, degrees: -40) { mirrored += 1 }
                if Self.inEllipse(x, y, cx: 60, cy: 50, a: 29.5, b: 11.5, degrees: 40) { #expect(mask[y * 120 + x] != 0) }
                if !Self.inEllipse(x, y, cx: 60, cy: 50, a: 31.5, b: 13.5, degrees: 40) { #expect(mask[y * 120 + x] == 0) }
            }
        }
        #expect(mirrored > 300)   // drawn the other way round, the checks above would fail
        #expect(abs(Self.count(mask) - expected) <= expected / 50, "drawn \(Self.count(mask)), equation \(expected)")
        // Radii are truncated: 30.9 x 12.2 is drawn as 30 x 12.
        let truncated = try FDDBRaster.mask(width: 120, height: 100,
                                            region: .ellipse(majorRadius: 30, minorRadius: 12, angle: 0.7, centerX: 60, centerY: 50))
        #expect(mask == truncated)
    }

    /// The two-canvas counting (each region drawn only where it can reach) against whole
    /// masks drawn one by one and compared pixel by pixel.
    @Test func overlapCountsMatchWholeMasksOnRandomRegions() throws {
        var random = SplitMix64(seed: 15)
        let width = 90, height = 70
        for _ in 0..<20 {
            func value(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &random) }
            let faces = (0..<3).map { _ in
                Region.ellipse(majorRadius: value(0...40), minorRadius: value(0...25), angle: value(-3...3),
                               centerX: value(-20...110), centerY: value(-20...90))
            } + [Region.rectangle(x: value(-20...80), y: value(-20...60), width: value(-10...50), height: value(0...50))]
            let detections = (0..<4).map { _ in
                Region.rectangle(x: value(-20...80), y: value(-20...60), width: value(0...60), height: value(0...60))
            }
            let o = try FDDBRaster.overlaps(width: width, height: height, faces: faces, detections: detections, context: "test")
            let fm = try faces.map { try FDDBRaster.mask(width: width, height: height, region: $0) }
            let dm = try detections.map { try FDDBRaster.mask(width: width, height: height, region: $0) }
            #expect(o.facePixels == fm.map(Self.count) && o.detectionPixels == dm.map(Self.count))
            for f in faces.indices {
                for d in detections.indices {
                    #expect(o.intersections[f][d] == zip(fm[f], dm[d]).filter { $0 != 0 && $1 != 0 }.count)
                }
            }
        }
    }

    @Test func badRegionsAndCanvasesAreErrorsNamingTheImage() {
        func message(_ body: () throws -> Void) -> String {
            do { try body() } catch let e as FramelabError { return e.message } catch { return "\(error)" }
            return "no error"
        }
        let ok = Region.rectangle(x: 0, y: 0, width: 5, height: 5)
        let cases: [(String, () throws -> Void)] = [
            ("not finite", { _ = try FDDBRaster.overlaps(width: 10, height: 10, faces: [ok],
                                                         detections: [.rectangle(x: .nan, y: 0, width: 1, height: 1)], context: "image 'a.jpg'") }),
            ("radius is negative", { _ = try FDDBRaster.overlaps(width: 10, height: 10,
                faces: [.ellipse(majorRadius: -1, minorRadius: 2, angle: 0, centerX: 5, centerY: 5)], detections: [ok], context: "image 'a.jpg'") }),
            ("beyond", { _ = try FDDBRaster.overlaps(width: 10, height: 10,
                faces: [.ellipse(majorRadius: 1, minorRadius: 2, angle: 0, centerX: 1e9, centerY: 5)], detections: [ok], context: "image 'a.jpg'") }),
            ("canvas", { _ = try FDDBRaster.overlaps(width: 0, height: 10, faces: [ok], detections: [ok], context: "image 'a.jpg'") }),
            ("canvas", { _ = try FDDBRaster.overlaps(width: 1 << 15, height: 1 << 14, faces: [ok], detections: [ok], context: "image 'a.jpg'") }),
            ("pairs", { _ = try FDDBRaster.overlaps(width: 10, height: 10, faces: Array(repeating: ok, count: 5000),
                                                    detections: Array(repeating: ok, count: 5000), context: "image 'a.jpg'") }),
        ]
        for (expected, body) in cases {
            let m = message(body)
            #expect(m.hasPrefix("image 'a.jpg'") && m.contains(expected), "\(m)")
        }
    }
}
