import Foundation
import FramelabCore
@testable import FramelabDetection
import FramelabTestSupport
import Testing

/// Cascade files the `cascade` fuzz target (Tests/Fuzz, docs/reliability.md "Fuzzing") and
/// the inputs built around its findings broke Framelab with: each is now a one-line error
/// naming the file, and a cascade that still loads evaluates inside its tables.
@Suite struct CascadeFuzzRegressionTests {
    /// A one-stage, one-stump 6x6 cascade whose first feature rectangle is `rect` and whose
    /// fields can be swapped out.
    static func cascade(rect: String = "1 1 4 2 -1.", width: String = "6", height: String = "6",
                        node: String = "0 -1 0 0.5", featureType: String = "HAAR") -> String {
        """
        <?xml version="1.0"?>
        <opencv_storage><cascade type_id="opencv-cascade-classifier"><stageType>BOOST</stageType>
        <featureType>\(featureType)</featureType><height>\(height)</height><width>\(width)</width>
        <stages><_><stageThreshold>-1.</stageThreshold><weakClassifiers><_>
        <internalNodes>\(node)</internalNodes><leafValues>0.1 0.9</leafValues></_></weakClassifiers></_></stages>
        <features><_><rects><_>\(rect)</_><_>1 2 4 1 2.</_></rects></_></features>
        </cascade></opencv_storage>
        """
    }

    func write(_ xml: String) throws -> String {
        let path = try TestSupport.makeTemporaryDirectory("cascade-fuzz").appendingPathComponent("cascade.xml").path
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func message(_ xml: String) throws -> String {
        let path = try write(xml)
        do {
            _ = try HaarCascade(contentsOf: path)
            Issue.record("loaded: \(xml)")
            return ""
        } catch let e as FramelabError {
            #expect(e.message.contains(path) && !e.message.contains(where: \.isNewline), "\(e.message)")
            return e.message
        }
    }

    /// 64x48 gray pixels with some variance in every window.
    static let image: Mat = {
        let m = Mat(format: .gray8, width: 64, height: 48)
        m.forEachRow(as: UInt8.self) { y, row in for x in 0..<m.width { row[x] = UInt8((x * 37 + y * 11) % 251) } }
        return m
    }()

    @Test func theTemplateLoadsAndEvaluates() throws {
        let cascade = try HaarCascade(contentsOf: try write(Self.cascade()))
        #expect(cascade.windowWidth == 6 && cascade.features[0].rects[0] == .init(x: 1, y: 1, width: 4, height: 2, weight: -1))
        let windows = HaarCascadeEvaluator(cascade: cascade)
            .rawWindows(gray: Self.image, settings: SlidingWindowSettings(scaleFactor: 1.25, minNeighbours: 0, minSize: 1))
        #expect(!windows.isEmpty)
    }

    /// A rectangle of negative width passed the window check (x + width <= window) and put
    /// corner offsets left of the window: the scanner read 48 bytes before the integral table
    /// (AddressSanitizer: heap-buffer-overflow). Every OpenCV cascade's rectangles have a size.
    @Test func aRectangleWithoutSizeIsRefused() throws {
        #expect(try message(Self.cascade(rect: "0 0 -12 2 -1.")).contains("lies outside the 6x6 window"))
        #expect(try message(Self.cascade(rect: "1 1 0 2 -1.")).contains("lies outside the 6x6 window"))
    }

    /// x + width overflowed Int (a trap) for x = Int.max; integers are now 32-bit, as OpenCV
    /// reads them, so a larger one is a malformed rectangle.
    @Test func aCoordinateBeyond32BitsIsRefused() throws {
        #expect(try message(Self.cascade(rect: "9223372036854775807 1 4 2 -1.")).contains("is not 'x y width height weight'"))
        #expect(try message(Self.cascade(rect: "2147483647 1 4 2 -1.")).contains("lies outside the 6x6 window"))
    }

    /// A window of 2^63 − 1 made the evaluator's first scale overflow Int (a trap).
    @Test func aWindowBeyond32BitsIsRefused() throws {
        #expect(try message(Self.cascade(width: "9223372036854775807", height: "9223372036854775807"))
            .contains("missing or invalid <width>/<height>"))
    }

    /// A node child of Int.min trapped negating it in the tree check, and one beyond Int32
    /// would have trapped compiling it.
    @Test func aNodeChildBeyond32BitsIsRefused() throws {
        #expect(try message(Self.cascade(node: "-9223372036854775808 -1 0 0.5")).contains("bad node"))
        #expect(try message(Self.cascade(node: "-2147483648 -1 0 0.5")).contains("points outside its tree"))
    }

    /// The file's featureType was repeated as is: a line break in it split the message.
    @Test func aFeatureTypeWithALineBreakStaysOneLine() throws {
        #expect(try message(Self.cascade(featureType: "HA\nAR")).contains("featureType is 'HA\\nAR'"))
    }
}
