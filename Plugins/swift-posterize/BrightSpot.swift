// A Framelab detector plugin in Swift: the bounding box of the pixels at or above a
// brightness threshold (a stand-in for a real detector, showing the kit's detector side).
import FramelabPluginKit

final class BrightSpot: FramelabDetectorPlugin {
    static let name = "bright-spot"
    static let version = "1.0.0"
    static let summary = "bounding box of the pixels at least as bright as a threshold; score = their share"
    static let formats: [PluginPixelFormat] = [.gray8]
    static let parameters: [PluginParameter] = [
        .int("threshold", 0...255, default: 200, "gray level a pixel must reach"),
    ]

    private let threshold: UInt8

    init(_ values: PluginValues) throws {
        threshold = UInt8(values.int("threshold"))
    }

    func detect(_ input: PluginImage) throws -> [PluginDetection] {
        var (minX, minY, maxX, maxY, count) = (Int.max, Int.max, -1, -1, 0)
        input.withRows(as: UInt8.self) { y, row in
            for x in 0..<row.count where row[x] >= threshold {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                count += 1
            }
        }
        guard count > 0 else { return [] }
        return [PluginDetection(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1),
                                height: Double(maxY - minY + 1),
                                score: Double(count) / Double(input.width * input.height))]
    }
}
