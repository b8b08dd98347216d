import FramelabCore
@testable import FramelabFilters
import Testing

/// gaussianBlur's working memory: made once per size and reused, never shared between
/// the bands of a recipe rendered on several threads.
@Suite struct BlurScratchTests {
    @Test func steadyStateReusesTheScratch() {
        var rng = SplitMix64(seed: 9)
        let blur = GaussianBlur(sigma: 1.7)
        let scratch = BlurScratch()
        for frame in 0..<4 {
            let input = TestImages.noise(.bgra8, width: 53, height: 29, using: &rng)
            let reused = Mat(format: .bgra8, width: 53, height: 29)
            blur.applyVector(input, into: reused, rows: 0..<29, scratch: scratch)
            // A fresh scratch gives the same pixels: nothing of the previous frame leaks in.
            let fresh = Mat(format: .bgra8, width: 53, height: 29)
            blur.applyVector(input, into: fresh, rows: 0..<29, scratch: BlurScratch())
            #expect(reused.hasSamePixels(as: fresh), "frame \(frame)")
            let reference = Mat(format: .bgra8, width: 53, height: 29)
            blur.applyScalar(input, into: reference)
            #expect(reused.maxAbsDifference(to: reference) <= 1)
        }
        #expect(scratch.allocations == 1)
        // A smaller frame fits the buffers already there.
        let small = TestImages.noise(.gray8, width: 20, height: 10, using: &rng)
        blur.applyVector(small, into: Mat(format: .gray8, width: 20, height: 10), rows: 0..<10, scratch: scratch)
        #expect(scratch.allocations == 1)
    }

    /// A wide frame and a large radius: the blur runs in several strips of columns (so its
    /// ring of rows fits L2), and the strips' seams match the scalar reference too.
    @Test(arguments: [PixelFormat.bgra8, .gray8])
    func stripsOfColumnsMatchTheScalarReference(_ format: PixelFormat) {
        var rng = SplitMix64(seed: 17)
        let blur = GaussianBlur(sigma: 10)
        let width = 3 * blur.stripWidth(width: 100_000, channels: format.channels) + 37
        #expect(blur.stripWidth(width: width, channels: format.channels) < width)
        let input = TestImages.noise(format, width: width, height: 9, using: &rng)
        for level in KernelLevel.supported {
            let fast = Mat(format: format, width: width, height: 9)
            blur.applyVector(input, into: fast, rows: 0..<9, scratch: BlurScratch(), kernels: level.kernels)
            let reference = Mat(format: format, width: width, height: 9)
            blur.applyScalar(input, into: reference)
            #expect(fast.maxAbsDifference(to: reference) <= 1, "\(format) at \(level)")
        }
    }

    /// Rows go out four at a time (rows y, y + 2 and y + 1, y + 3 share their ring slots)
    /// and the rest one at a time: any split of the rows into two bands, at every level,
    /// gives the bytes of the whole frame in one band.
    @Test func everySplitOfTheRowsGivesTheSameBytes() {
        var rng = SplitMix64(seed: 23)
        let blur = GaussianBlur(sigma: 2.5), height = 13
        let input = TestImages.noise(.bgr8, width: 37, height: height, using: &rng)
        for level in KernelLevel.supported {
            let whole = Mat(format: .bgr8, width: 37, height: height)
            blur.applyVector(input, into: whole, rows: 0..<height, scratch: BlurScratch(), kernels: level.kernels)
            let reference = Mat(format: .bgr8, width: 37, height: height)
            blur.applyScalar(input, into: reference)
            #expect(whole.maxAbsDifference(to: reference) <= 1, "\(level)")
            for split in 0...height {
                let parts = Mat(format: .bgr8, width: 37, height: height), scratch = BlurScratch()
                blur.applyVector(input, into: parts, rows: 0..<split, scratch: scratch, kernels: level.kernels)
                blur.applyVector(input, into: parts, rows: split..<height, scratch: scratch, kernels: level.kernels)
                #expect(parts.hasSamePixels(as: whole), "split at \(split), \(level)")
            }
        }
    }

    @Test func eagerFilterKeepsOneScratchAcrossFrames() throws {
        let runner = OperationRunner(name: "gaussianBlur", operation: GaussianBlurOperation(sigma: 2), path: .simd)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<5 {
            let input = TestImages.noise(.bgr8, width: 41, height: 17, using: &rng)
            try runner.apply(input, into: Mat(format: .bgr8, width: 41, height: 17))
        }
        let kernel = try #require(runner.kernel?.kernel as? GaussianBlurKernel)
        #expect(kernel.scratch.allocations == 1)
    }

    @Test(arguments: [2, 3])
    func bandsUseTheirOwnScratchFrameAfterFrame(threads: Int) throws {
        let recipe = Recipe([("sepia", ColorMatrixOperation(ColorMatrixKernelTests.sepia)), ("gaussianBlur", GaussianBlurOperation(sigma: 1.5))])
        let one = RecipeRenderer(recipe, threads: 1), many = RecipeRenderer(recipe, threads: threads)
        var rng = SplitMix64(seed: UInt64(threads))
        for _ in 0..<3 {
            let input = TestImages.noise(.bgra8, width: 67, height: 45, using: &rng)
            let a = Mat(format: .bgra8, width: 67, height: 45), b = Mat(format: .bgra8, width: 67, height: 45)
            try one.render(input, into: a)
            try many.render(input, into: b)
            #expect(a.hasSamePixels(as: b))
        }
    }

    /// A pass ending in luma writes its colour steps into per-band rows it keeps: the same
    /// memory frame after frame, one block per band, and the same pixels as one thread.
    @Test func lumaPassKeepsItsBandRowsAcrossFrames() throws {
        let recipe = Recipe([("sepia", ColorMatrixOperation(ColorMatrixKernelTests.sepia)), ("gray", LumaOperation())])
        let one = RecipeRenderer(recipe, threads: 1), two = RecipeRenderer(recipe, threads: 2)
        var rng = SplitMix64(seed: 21)
        var addresses: [UnsafeRawPointer]? = nil
        for frame in 0..<3 {
            let input = TestImages.noise(.bgra8, width: 45, height: 37, using: &rng)
            let a = Mat(format: .gray8, width: 45, height: 37), b = Mat(format: .gray8, width: 45, height: 37)
            try one.render(input, into: a)
            try two.render(input, into: b)
            #expect(a.hasSamePixels(as: b), "frame \(frame)")
            let scratch = try #require(two.compiled?.passes.last?.conversionScratch)
            let now = scratch.map { m in m.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!) } }
            #expect(now.count == 2)
            if let addresses { #expect(now == addresses, "frame \(frame) made new rows") }
            addresses = now
        }
    }

    @Test func scratchPoolGivesEachBandItsOwn() {
        let pool = ScratchPool()
        pool.prepare(bands: RowParallel.bandCount(rows: 100, threads: 3))
        let ids = (0..<3).map { ObjectIdentifier(pool.scratch(band: $0)) }
        #expect(Set(ids).count == 3)
        pool.prepare(bands: 2)
        #expect(ObjectIdentifier(pool.scratch(band: 0)) == ids[0])
    }
}
