import FramelabCore
import FramelabElements
import FramelabFilters
import Testing

/// Numbers that used to trap (crop coordinates near Int.max) or to ask for terabytes
/// (affine enlargements) are parameter errors naming the filter and the value.
@Suite struct GeometryLimitTests {
    let registry = FilterRegistry.builtIns

    @Test(arguments: ["x", "y", "width", "height"])
    func cropCoordinatesBeyondAnyImageAreErrors(name: String) throws {
        let spec = try ElementSpec(parsing: "crop:\(name)=9223372036854775807")
        let made = #expect(throws: FramelabError.self) { try registry.instantiate(spec) }
        #expect(made?.message == "filter 'crop': parameter '\(name)' = 9223372036854775807 is outside 0…268435456")
        // `filters --explain` builds the operation without an instance.
        #expect(throws: FramelabError.self) { try registry.recipe([spec]) }
        // The largest accepted coordinate crops to the last pixel.
        let edge = try registry.instantiate(ElementSpec(parsing: "crop:x=268435456,y=268435456"))
        let out = try edge.process(Mat(format: .bgra8, width: 8, height: 6))
        #expect(out.width == 1 && out.height == 1)
    }

    @Test(arguments: ["100000 0 0 100000 0 0", "1000 0 0 1000 0 0", "9 0 0 1 0 0", "0 6 -6 3 0 0"])
    func affineEnlargementsBeyondTheLimitAreErrors(matrix: String) throws {
        let made = #expect(throws: FramelabError.self) {
            try registry.instantiate(ElementSpec(parsing: "affine:matrix=\(matrix)"))
        }
        #expect(made?.message.hasPrefix("filter 'affine': parameter 'matrix' '\(matrix)' enlarges") == true, "\(made?.message ?? "")")
    }

    @Test func affineWithinTheLimitFramesTheWholeResult() throws {
        let eight = try registry.instantiate(ElementSpec(parsing: "affine:matrix=8 0 0 8 0 0,preset=rotate90"))
        let out = try eight.process(Mat(format: .gray8, width: 5, height: 3))
        #expect(out.width == 24 && out.height == 40)
        let turn = try registry.instantiate(ElementSpec(parsing: "affine:matrix=0.7071 -0.7071 0.7071 0.7071 0 0"))
        #expect(try turn.process(Mat(format: .gray8, width: 10, height: 10)).width == 15)
    }
}
