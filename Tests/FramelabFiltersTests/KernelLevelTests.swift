import FramelabCore
@testable import FramelabFilters
import FramelabKernels
import FramelabTestSupport
import Foundation
import Testing

/// Kernel levels: the choice follows the CPU, `FRAMELAB_ISA` and `--isa` errors name the
/// variable or flag, filters keep the level they were made with, every entry of every level
/// this CPU has gives what the portable kernels give, and the level modules leave the
/// linker no shared helper compiled for their instruction set.
@Suite struct KernelLevelTests {
    @Test func baselineIsAlwaysSupportedAndLevelsAreOrdered() {
        #expect(KernelLevel.supported.first == .baseline)
        #expect(KernelLevel.supported == KernelLevel.supported.sorted())
        #expect(KernelLevel.supported.contains(KernelLevel.active))
        for level in KernelLevel.allCases { #expect((level.table != nil) == level.isSupported, "\(level)") }
    }

    /// What CPUID says, against the flags the kernel reports (x86-64 Linux only: qemu-user
    /// shows the host's /proc/cpuinfo, so the qemu run leaves this test out).
    @Test(.enabled(if: Self.cpuFlags != nil, "needs /proc/cpuinfo with x86 flags"))
    func supportedLevelsFollowTheCPUFlags() throws {
        let flags = try #require(Self.cpuFlags)
        let v3 = ["avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "movbe", "abm", "popcnt", "sse4_2", "ssse3", "cx16"]
        let v4 = v3 + ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]
        #expect(KernelLevel.avx2.isSupported == v3.allSatisfy(flags.contains), "\(flags.sorted())")
        #expect(KernelLevel.avx512.isSupported == v4.allSatisfy(flags.contains), "\(flags.sorted())")
        let vbmi = KernelLevel.avx512.tables.contains { $0.name == KernelTable.avx512VBMIName }
        #expect(vbmi == (KernelLevel.avx512.isSupported && flags.contains("avx512vbmi") && flags.contains("avx512_vnni")),
                "\(flags.sorted())")
        let avxVNNI = KernelLevel.avx2.tables.contains { $0.name == KernelTable.avx2VNNIName }
        #expect(avxVNNI == (KernelLevel.avx2.isSupported && flags.contains("avx_vnni")), "\(flags.sorted())")
    }

    /// False in the test binary that `QEMUBaselineTests` runs under emulation.
    static var isHostRun: Bool { ProcessInfo.processInfo.environment["FRAMELAB_UNDER_QEMU"] == nil }

    static let cpuFlags: Set<String>? = {
        #if arch(x86_64)
        guard Self.isHostRun,
              let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return nil }
        return Set(line.split(separator: ":").last?.split(separator: " ").map(String.init) ?? [])
        #else
        return nil
        #endif
    }()

    @Test func unknownAndUnsupportedLevelsAreErrorsNamingTheSource() {
        let unknown = #expect(throws: FramelabError.self) { try KernelLevel.parse("sse9", source: "FRAMELAB_ISA") }
        #expect(unknown?.kind == .badInput)
        #expect(unknown?.message.hasPrefix("FRAMELAB_ISA=sse9: unknown kernel level (known: baseline, avx2, avx512") == true)
        #expect(throws: Never.self) { try KernelLevel.parse("BASELINE", source: "--isa") }
        for level in KernelLevel.allCases where !level.isSupported {
            let error = #expect(throws: FramelabError.self) { try KernelLevel.parse(level.rawValue, source: "--isa") }
            #expect(error?.message.contains("--isa=\(level): this CPU cannot run the \(level) kernels") == true)
        }
    }

    @Test func filtersKeepTheLevelTheyWereMadeWith() throws {
        for level in KernelLevel.supported {
            let renderer = KernelLevel.$override.withValue(level) { RecipeRenderer(Recipe([("sepia", ColorMatrixOperation(.identity))])) }
            #expect(renderer.level == level)
            #expect(KernelLevel.$override.withValue(level) { KernelLevel.compiled } == level.rawValue)
        }
        #expect(KernelLevel.current == KernelLevel.active)
    }

    // MARK: - Every entry of every level against the portable kernels

    /// Every table this CPU can run but the portable one (avx2 with and without AVX-VNNI,
    /// avx512 with and without VBMI).
    static let variants: [KernelTable] = KernelLevel.supported.flatMap(\.tables).filter { $0.name != KernelTable.portable.name }

    /// Random bytes for rows of up to `count` bytes (with room for vector over-reads).
    static func bytes(_ count: Int, _ rng: inout SplitMix64) -> [UInt8] {
        (0..<count + 64).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Row widths around every vector length (8 and 16 pixels) and the fused loop's lag.
    static let widths = [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 47, 48, 49, 64, 100]

    @Test func matrixEntriesAgreeWithPortable() {
        var rng = SplitMix64(seed: 3)
        let matrices = [ColorMatrixKernelTests.sepia, ColorMatrixKernelTests.hue, ColorMatrixKernelTests.darken, .identity,
                        ColorMatrix([[40, -40, 3], [-90, 2, 95], [1, 1, 1]], bias: [-3000, 2000, 0.49]),
                        // The float steps on ordinary weights (one bias past the fixed-point limit).
                        ColorMatrixKernelTests.hueInFloat, ColorMatrixKernelTests.sepiaInFloat,
                        // At the edge of the fixed-point steps' 16-bit weights (below 4, bias within
                        // about ±1,023): fixed point, saturating both ways; then just past it (float).
                        ColorMatrix([[3.999, -3.999, 0.001], [-3.999, 3.999, 0.5], [0.25, 0.25, 0.25]], bias: [-1022, 300, 0.49]),
                        ColorMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 4.0001]], bias: [0, 0, 1024])]
        // The same curve on every channel, and three different ones (the VBMI kernels take
        // a shorter path for the first).
        let curveSets = [PairCurveTables(ChannelCurves { 255 * pow($0 / 255, 0.8) }),
                         PairCurveTables(ChannelCurves(blue: { 255 - $0 }, green: { 255 * pow($0 / 255, 0.5) }, red: { min(255, 2 * $0) }))]
        for matrix in matrices {
            let kernel = ColorMatrixKernel(matrix, kernels: .portable)
            for width in Self.widths {
                let src = Self.bytes(4 * width, &rng)
                src.withUnsafeBytes { s in
                    kernel.withCoefficients { k, fixed in
                        let s = s.baseAddress!
                        compareRows("matrix3 \(width)", width: width, s, tolerance: 1) { t, d in t.matrix3(s, d, width, k, fixed, kernel.clamp) }
                        // The float steps, which a matrix with weight words does not reach otherwise.
                        compareRows("matrix3 in float \(width)", width: width, s, tolerance: 1) { t, d in
                            t.matrix3(s, d, width, k, nil, kernel.clamp)
                        }
                        compareRows("matrix4 \(width)", width: width, s, tolerance: 1) { t, d in t.matrix4(s, d, width, k) }
                        for curves in curveSets {
                            curves.withTables { bytes, low, high in
                                // A matrix result one level apart can land on another curve entry: compared
                                // exactly where the matrix agrees, by the tests against two steps elsewhere.
                                compareRows("matrixCurve \(width)", width: width, s, tolerance: 255) { t, d in
                                    t.matrixCurve(s, d, width, k, fixed, kernel.clamp, bytes, low, high)
                                }
                                compareRows("curve \(width)", width: width, s) { t, d in t.curve(s, d, width, bytes, low, high) }
                                compareRows("pairLookup \(width)", width: width, s) { t, d in
                                    t.pairLookup(s, d, 0, width, low, high)
                                    return width
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// BGRA rows: the portable entry and each level's on the same input; the pixels both
    /// did must be equal (within `tolerance`: the portable matrix loop multiplies and adds
    /// where the levels with FMA fuse them, so a rounding may fall the other way), and no
    /// level may write past the row.
    func compareRows(_ label: String, width: Int, _ src: UnsafeRawPointer, tolerance: Int = 0,
                     _ body: (KernelTable, UnsafeMutableRawPointer) -> Int) {
        var expected = [UInt8](repeating: 0xA5, count: 4 * width + 64)
        let done = expected.withUnsafeMutableBytes { body(.portable, $0.baseAddress!) }
        for table in Self.variants {
            let level = table.name
            var out = [UInt8](repeating: 0xA5, count: 4 * width + 64)
            let count = out.withUnsafeMutableBytes { body(table, $0.baseAddress!) }
            #expect(count >= done && count <= width, "\(label) at \(level): did \(count) of \(width), portable \(done)")
            var worst = 0
            for i in 0..<(4 * done) { worst = max(worst, abs(Int(out[i]) - Int(expected[i]))) }
            #expect(worst <= tolerance, "\(label) at \(level): off by \(worst)")
            #expect(out[(4 * width)...].allSatisfy { $0 == 0xA5 }, "\(label) at \(level): wrote past the row")
        }
    }

    /// Byte outputs (gray, blends, blur rows): the first `done` bytes equal, nothing past `n`.
    func compareBytes(_ label: String, n: Int, _ body: (KernelTable, UnsafeMutablePointer<UInt8>) -> Int) {
        var expected = [UInt8](repeating: 0xA5, count: n + 64)
        let done = expected.withUnsafeMutableBufferPointer { body(.portable, $0.baseAddress!) }
        for table in Self.variants {
            let level = table.name
            var out = [UInt8](repeating: 0xA5, count: n + 64)
            let count = out.withUnsafeMutableBufferPointer { body(table, $0.baseAddress!) }
            #expect(count >= done && count <= n, "\(label) at \(level): did \(count) of \(n), portable \(done)")
            #expect(Array(out[0..<done]) == Array(expected[0..<done]), "\(label) at \(level)")
            #expect(out[n...].allSatisfy { $0 == 0xA5 }, "\(label) at \(level): wrote past the row")
        }
    }

    @Test func pixelEntriesAgreeWithPortable() {
        var rng = SplitMix64(seed: 4)
        for width in Self.widths {
            let src = Self.bytes(4 * width, &rng), back = Self.bytes(4 * width, &rng)
            src.withUnsafeBufferPointer { sb in back.withUnsafeBufferPointer { bb in
                let s = sb.baseAddress!, b = bb.baseAddress!
                compareBytes("luma \(width)", n: width) { t, d in t.luma(UnsafeRawPointer(s), UnsafeMutableRawPointer(d), width) }
                for amount: Int32 in [-4112, 0, 2056, 4112] {
                    compareRows("vibrance \(amount) \(width)", width: width, UnsafeRawPointer(s)) { t, d in
                        t.vibrance(UnsafeRawPointer(s), d, width, amount)
                    }
                }
                for channels in [3, 4] {
                    compareBytes("sourceOver \(channels) \(width)", n: channels * width) { t, d in
                        t.sourceOver(s, b, d, width, channels)
                        return channels * width
                    }
                }
            } }
        }
    }

    /// Source-over at every level, and the portable kernels, against its definition byte by
    /// byte: min(255, t + (v + (v >> 8)) >> 8) with v = b·(255 − top alpha) + 128. Random
    /// tops are not premultiplied, so the clamp is reached; the extremes 0 and 255 are in.
    @Test func sourceOverMatchesItsDefinitionAtEveryLevel() {
        var rng = SplitMix64(seed: 6)
        for width in Self.widths {
            let top = Self.bytes(4 * width, &rng).enumerated().map { $0.offset % 37 == 0 ? 255 : $0.offset % 41 == 0 ? 0 : $0.element }
            let back = Self.bytes(4 * width, &rng).enumerated().map { $0.offset % 29 == 0 ? 255 : $0.element }
            for channels in [1, 3, 4] {
                let n = channels * width
                let definition = (0..<n).map { i -> UInt8 in
                    let x = i / channels, c = i % channels
                    let v = Int(back[i]) * (255 - Int(top[4 * x + 3])) + 128
                    return UInt8(min(255, Int(top[4 * x + c]) + ((v + (v >> 8)) >> 8)))
                }
                for table in [KernelTable.portable] + Self.variants {
                    var out = [UInt8](repeating: 0xA5, count: n + 64)
                    out.withUnsafeMutableBufferPointer { d in table.sourceOver(top, back, d.baseAddress!, width, channels) }
                    #expect(Array(out[0..<n]) == definition, "sourceOver \(channels) \(width) at \(table.name)")
                    #expect(out[n...].allSatisfy { $0 == 0xA5 }, "sourceOver \(channels) \(width) at \(table.name): wrote past the row")
                }
            }
        }
    }

    /// Vibrance at every level, and the portable loop, against its fixed-point definition as
    /// the scalar tail (`Vibrance.applyVector`) writes it: y6 = luma at 6 fractional bits,
    /// k = 4096 + ((amount·(255 − spread) + 128) >> 8), each channel
    /// (y6·4096 + 2^17 + (64c − y6)·k) >> 18 clamped; alpha kept. The loops compute it in
    /// another order (c·64k + Y), which must be the same integer for every pixel and amount.
    @Test func vibranceMatchesItsFixedPointDefinitionAtEveryLevel() {
        var rng = SplitMix64(seed: 9)
        let width = 100
        // Random pixels, and the extremes: gray (spread 0), black, white, pure channels.
        var src = Self.bytes(4 * width, &rng)
        for (i, pixel) in [[0, 0, 0, 7], [255, 255, 255, 0], [255, 0, 0, 1], [0, 255, 0, 2], [0, 0, 255, 3],
                           [128, 128, 128, 255], [255, 0, 255, 9], [1, 254, 0, 4]].enumerated() {
            src.replaceSubrange((4 * i)..<(4 * i + 4), with: pixel.map(UInt8.init))
        }
        for amount: Int32 in [-4112, -4000, -1, 0, 1, 2056, 4111, 4112] {
            let definition = (0..<(4 * width)).map { i -> UInt8 in
                let p = 4 * (i / 4), channel = i % 4
                let b = Int32(src[p]), g = Int32(src[p + 1]), r = Int32(src[p + 2])
                guard channel < 3 else { return src[p + 3] }
                let y6 = (b * LumaWeights.b + g * LumaWeights.g + r * LumaWeights.r + 128) >> 8
                let k = 4096 + ((amount * (255 - (max(r, g, b) - min(r, g, b))) + 128) >> 8)
                let c = [b, g, r][channel]
                return UInt8(clamping: (y6 * 4096 + (1 << 17) + ((c << 6) - y6) * k) >> 18)
            }
            for table in [KernelTable.portable] + Self.variants {
                var out = [UInt8](repeating: 0xA5, count: 4 * width + 64)
                let done = src.withUnsafeBytes { s in
                    out.withUnsafeMutableBytes { table.vibrance(s.baseAddress!, $0.baseAddress!, width, amount) }
                }
                #expect(done >= width - 15, "vibrance \(amount) at \(table.name): did \(done) of \(width)")
                #expect(Array(out[0..<(4 * done)]) == Array(definition[0..<(4 * done)]), "vibrance \(amount) at \(table.name)")
            }
        }
    }

    /// Blend-with-mask at every level, and the portable kernels, against its definition:
    /// (f·m + b·(255 − m) + 128 + its high byte) >> 8 per sample, one mask byte a pixel, for
    /// the pixels the entry says it did (all but fewer than eight for BGRA and gray8, all
    /// but one to eight for bgr8).
    @Test func blendMatchesItsDefinitionAtEveryLevel() {
        var rng = SplitMix64(seed: 7)
        for width in Self.widths {
            let front = Self.bytes(4 * width, &rng), back = Self.bytes(4 * width, &rng)
            let mask = Self.bytes(width, &rng).enumerated().map { $0.offset % 5 == 0 ? 255 : $0.offset % 7 == 0 ? 0 : $0.element }
            for channels in [1, 3, 4] {
                let n = channels * width
                let definition = (0..<n).map { i -> UInt8 in
                    let w = Int(mask[i / channels])
                    let v = Int(front[i]) * w + Int(back[i]) * (255 - w) + 128
                    return UInt8((v + (v >> 8)) >> 8)
                }
                for table in [KernelTable.portable] + Self.variants {
                    var out = [UInt8](repeating: 0xA5, count: n + 64)
                    let done = out.withUnsafeMutableBufferPointer { d in table.blend(front, back, mask, d.baseAddress!, width, channels) }
                    // bgr8 leaves the last pixel (its 4-byte load would end past the row).
                    let expected = channels == 3 ? PortableKernels.threeBytePixelsCovered(width) : width - width % 8
                    #expect(done == expected, "blend \(channels) \(width) at \(table.name): did \(done) pixels")
                    #expect(Array(out[0..<(channels * done)]) == Array(definition[0..<(channels * done)]),
                            "blend \(channels) \(width) at \(table.name)")
                    #expect(out[(channels * done)...].allSatisfy { $0 == 0xA5 }, "blend \(channels) \(width) at \(table.name): wrote past")
                }
            }
        }
    }

    /// Compositing in place (the output row is the bottom, or the foreground), as a filter
    /// on its own frame runs it: bgr8 goes through a buffer 64 pixels at a time, so a
    /// store that wrote past its chunk would corrupt the next chunk's input.
    @Test func compositingInPlaceMatchesItsDefinition() {
        var rng = SplitMix64(seed: 8)
        for width in [9, 64, 65, 100, 200] {
            let top = Self.bytes(4 * width, &rng), other = Self.bytes(4 * width, &rng)
            let mask = Self.bytes(width, &rng)
            for channels in [3, 4] {
                let n = channels * width
                let row = Self.bytes(n, &rng)  // n bytes of row, then 64 that must stay as they are
                let over = (0..<n).map { i -> UInt8 in
                    let v = Int(row[i]) * (255 - Int(top[4 * (i / channels) + 3])) + 128
                    return UInt8(min(255, Int(top[4 * (i / channels) + i % channels]) + ((v + (v >> 8)) >> 8)))
                }
                let blended = (0..<n).map { i -> UInt8 in
                    let w = Int(mask[i / channels]), v = Int(row[i]) * w + Int(other[i]) * (255 - w) + 128
                    return UInt8((v + (v >> 8)) >> 8)
                }
                for table in [KernelTable.portable] + Self.variants {
                    var a = row
                    a.withUnsafeMutableBufferPointer { p in table.sourceOver(top, p.baseAddress!, p.baseAddress!, width, channels) }
                    #expect(Array(a[0..<n]) == over, "sourceOver in place \(channels) \(width) at \(table.name)")
                    #expect(Array(a[n...]) == Array(row[n...]), "sourceOver in place \(channels) \(width) at \(table.name): wrote past the row")
                    var f = row
                    let done = f.withUnsafeMutableBufferPointer { p in
                        table.blend(p.baseAddress!, other, mask, p.baseAddress!, width, channels)
                    }
                    #expect(Array(f[0..<(channels * done)]) == Array(blended[0..<(channels * done)]),
                            "blend in place \(channels) \(width) at \(table.name)")
                    #expect(Array(f[(channels * done)...]) == Array(row[(channels * done)...]),
                            "blend in place \(channels) \(width) at \(table.name): changed pixels it did not do")
                }
            }
        }
    }

    /// bgr8 to BGRA and back at every level: the pixels the entry says it did are exact
    /// (alpha as asked); it reads nothing past the n pixels it is given (its output does not
    /// change when the bytes after them do) and writes nothing past them; what it leaves to
    /// the caller is less than a step or two.
    @Test func threeByteEntriesAreExactAndStayInTheirPixels() {
        var rng = SplitMix64(seed: 13)
        for n in Self.widths + [128, 150] {
            let source = Self.bytes(3 * n, &rng)
            var other = source
            for i in (3 * n)..<other.count { other[i] = ~other[i] }  // bytes past the n pixels differ
            for table in [KernelTable.portable] + Self.variants {
                for alpha: UInt32 in [0, 0xFF00_0000] {
                    var wide = [UInt32](repeating: 0xDEAD_BEEF, count: n + 16), wide2 = wide
                    let done = wide.withUnsafeMutableBufferPointer { table.widenThreeByte(source, $0.baseAddress!, n, alpha) }
                    _ = wide2.withUnsafeMutableBufferPointer { table.widenThreeByte(other, $0.baseAddress!, n, alpha) }
                    #expect(done <= n && done > n - 8, "widen \(n) at \(table.name): did \(done)")
                    let expected = (0..<done).map { UInt32(source[3 * $0]) | UInt32(source[3 * $0 + 1]) << 8 | UInt32(source[3 * $0 + 2]) << 16 | alpha }
                    #expect(Array(wide[0..<done]) == expected, "widen \(n) at \(table.name)")
                    #expect(wide == wide2, "widen \(n) at \(table.name): read past the pixels")
                    #expect(wide[done...].allSatisfy { $0 == 0xDEAD_BEEF }, "widen \(n) at \(table.name): wrote past")
                }
                let pixels = (0..<n).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
                var narrow = [UInt8](repeating: 0xA5, count: 3 * n + 64)
                let done = narrow.withUnsafeMutableBufferPointer { table.narrowThreeByte(pixels, $0.baseAddress!, n) }
                #expect(done <= n && done >= n - 16, "narrow \(n) at \(table.name): did \(done)")
                #expect(Array(narrow[0..<(3 * done)]) == Self.threeByteBytes(of: pixels, done), "narrow \(n) at \(table.name)")
                #expect(narrow[(3 * n)...].allSatisfy { $0 == 0xA5 }, "narrow \(n) at \(table.name): wrote past the n pixels")
            }
        }
    }

    /// The fixed-point matrix straight on bgr8 rows at every level, alone and with the curve
    /// after it: exactly what the same level's BGRA step gives on the widened pixels (then
    /// the pair tables); in place the same; nothing read or written past the row's pixels;
    /// every whole step of 8 done where the level has the entries, or the whole row (none
    /// at the portable level, which goes through the BGRA buffer).
    @Test func threeByteMatrixIsTheBGRAStepOnWidenedPixels() {
        var rng = SplitMix64(seed: 17)
        let curves = PairCurveTables(ChannelCurves(blue: { 255 - $0 }, green: { 255 * pow($0 / 255, 0.5) }, red: { min(255, 2 * $0) }))
        let matrices = [ColorMatrixKernelTests.sepia, ColorMatrixKernelTests.hue, ColorMatrixKernelTests.darken, .identity,
                        ColorMatrix([[3.999, -3.999, 0.001], [-3.999, 3.999, 0.5], [0.25, 0.25, 0.25]], bias: [-1022, 300, 0.49])]
        for matrix in matrices {
            let kernel = ColorMatrixKernel(matrix, kernels: .portable)
            kernel.withCoefficients { k, fixed in
                guard let fixed else { Issue.record("\(matrix) has no weight words"); return }
                for width in Self.widths + [150] {
                    let source = Self.bytes(3 * width + 32, &rng)
                    let wide = Self.opaqueBGRA(source, width)
                    for table in [KernelTable.portable] + Self.variants {
                        var bgra = [UInt32](repeating: 0, count: width)
                        let stepped = bgra.withUnsafeMutableBytes { table.matrix3(wide, $0.baseAddress!, width, k, fixed, kernel.clamp) }
                        let expected = Self.threeByteBytes(of: bgra, stepped)
                        let done = Self.checkThreeByteEntry("\(table.name) \(width)", width: width, source: source, expected: expected) {
                            table.matrix3ThreeByte($0, $1, width, fixed)
                        }
                        // Every whole step of 8 (the VBMI loop does the last pixels too, by masks).
                        let doneAsPromised = table.name == KernelTable.portable.name ? done == 0
                            : done == width - width % 8 || done == width
                        #expect(doneAsPromised, "\(table.name) \(width): did \(done)")
                        #expect(stepped >= done, "\(table.name) \(width): BGRA step did \(stepped)")
                        // Then the curve in the same loop: the matrix's bytes through the pair tables.
                        curves.withTables { bytes, low, high in
                            let curved = stride(from: 0, to: expected.count, by: 3).flatMap { i -> [UInt8] in
                                let bg = low[Int(expected[i]) | Int(expected[i + 1]) << 8], r = high[Int(expected[i + 2])]
                                return [UInt8(truncatingIfNeeded: bg), UInt8(truncatingIfNeeded: bg >> 8), UInt8(truncatingIfNeeded: r >> 16)]
                            }
                            let did = Self.checkThreeByteEntry("matrixCurve \(table.name) \(width)", width: width, source: source,
                                                               expected: curved) {
                                table.matrixCurveThreeByte($0, $1, width, fixed, bytes, low, high)
                            }
                            #expect(did == done, "matrixCurve \(table.name) \(width): did \(did)")
                        }
                    }
                }
            }
        }
    }

    /// The curve on bgr8 bytes where they are, at every level: each byte through its
    /// channel's table, one table for all three or three different ones; in place the same;
    /// nothing read or written past the row's pixels; the whole row with VBMI, whole steps
    /// of 8 at avx2 and avx512 (pair tables), none at baseline (the caller looks the rest
    /// up byte by byte).
    @Test func threeByteCurveLooksUpEveryByteInItsChannelsTable() {
        var rng = SplitMix64(seed: 19)
        let curveSets = [ChannelCurves { 255 * pow($0 / 255, 0.8) },
                         ChannelCurves(blue: { 255 - $0 }, green: { 255 * pow($0 / 255, 0.5) }, red: { min(255, 2 * $0) })]
        for curves in curveSets {
            let tables = curves.tables.flatMap { $0 }
            let pairs = PairCurveTables(curves)
            for width in Self.widths + [21, 22, 150] {
                let source = Self.bytes(3 * width + 64, &rng)
                let expected = (0..<(3 * width)).map { curves.tables[$0 % 3][Int(source[$0])] }
                for table in [KernelTable.portable] + Self.variants {
                    let done = Self.checkThreeByteEntry("\(table.name) \(width)", width: width, source: source, expected: expected) { s, d in
                        pairs.withTables { _, low, high in table.curveThreeByte(s, d, width, tables, low, high) }
                    }
                    let promised = table.name == KernelTable.avx512VBMIName ? width
                        : table.name == KernelTable.portable.name ? 0 : width - width % 8
                    #expect(done == promised, "\(table.name) \(width): did \(done)")
                }
            }
        }
    }

    /// Vibrance on bgr8 pixels where they are, at every level: exactly the level's BGRA
    /// step on the same pixels widened (vibrance ignores alpha); the whole row with VBMI
    /// (sixteen-pixel steps and masks), whole steps of 8 at avx2 and avx512, none at
    /// baseline; in place the same; nothing read or written past the row's pixels.
    @Test func threeByteVibranceIsTheBGRAStepOnWidenedPixels() {
        var rng = SplitMix64(seed: 23)
        for amount: Int32 in [-4112, 0, 2056, 4112] {
            for width in Self.widths + [150] {
                let source = Self.bytes(3 * width + 32, &rng)
                let wide = Self.opaqueBGRA(source, width)
                for table in [KernelTable.portable] + Self.variants {
                    var bgra = [UInt32](repeating: 0, count: width)
                    let stepped = bgra.withUnsafeMutableBytes { table.vibrance(wide, $0.baseAddress!, width, amount) }
                    let done = Self.checkThreeByteEntry("\(table.name) \(width) amount \(amount)", width: width, source: source,
                                                        expected: Self.threeByteBytes(of: bgra, stepped)) {
                        table.vibranceThreeByte($0, $1, width, amount)
                    }
                    let promised = table.name == KernelTable.avx512VBMIName ? width
                        : table.name == KernelTable.portable.name ? 0 : width - width % 8
                    #expect(done == promised, "\(table.name) \(width): did \(done)")
                    #expect(stepped >= done, "\(table.name) \(width): BGRA step did \(stepped)")
                }
            }
        }
    }

    /// Luma straight from bgr8 rows, at every level: exactly `LumaWeights`' rounded sum on
    /// each pixel; the whole row with VBMI (sixteen-pixel steps, the last under masks), none
    /// elsewhere (the caller widens to BGRA); nothing read past the row's pixels or written
    /// past its gray bytes.
    @Test func threeByteLumaIsTheWeightedSumOfEachPixel() {
        var rng = SplitMix64(seed: 29)
        for width in Self.widths + [150] {
            var source = Self.bytes(3 * width + 64, &rng)
            if width >= 2 { source.replaceSubrange(0..<6, with: [255, 255, 255, 0, 0, 0]) }
            let expected = (0..<width).map { i -> UInt8 in
                let b = Int32(source[3 * i]), g = Int32(source[3 * i + 1]), r = Int32(source[3 * i + 2])
                return UInt8((b * LumaWeights.b + g * LumaWeights.g + r * LumaWeights.r + (1 << 13)) >> 14)
            }
            var other = source
            for i in (3 * width)..<other.count { other[i] = ~other[i] }
            for table in [KernelTable.portable] + Self.variants {
                var out = [UInt8](repeating: 0xA5, count: width + 64), out2 = out
                let done = out.withUnsafeMutableBufferPointer { table.lumaThreeByte(source, $0.baseAddress!, width) }
                _ = out2.withUnsafeMutableBufferPointer { table.lumaThreeByte(other, $0.baseAddress!, width) }
                #expect(done == (table.name == KernelTable.avx512VBMIName ? width : 0), "\(table.name) \(width): did \(done)")
                #expect(Array(out[0..<done]) == Array(expected[0..<done]), "\(table.name) \(width)")
                #expect(out[done...].allSatisfy { $0 == 0xA5 }, "\(table.name) \(width): wrote past the row")
                #expect(out == out2, "\(table.name) \(width): read past the row")
            }
        }
    }

    /// The first `width` bgr8 pixels of `source` as opaque BGRA.
    static func opaqueBGRA(_ source: [UInt8], _ width: Int) -> [UInt32] {
        (0..<width).map { i in
            UInt32(source[3 * i]) | UInt32(source[3 * i + 1]) << 8 | UInt32(source[3 * i + 2]) << 16 | 0xFF00_0000
        }
    }

    /// The B, G, R bytes of the first `count` BGRA pixels.
    static func threeByteBytes(of pixels: [UInt32], _ count: Int) -> [UInt8] {
        (0..<count).flatMap { i in (0..<3).map { UInt8(truncatingIfNeeded: pixels[i] >> (8 * UInt32($0))) } }
    }

    /// Runs a bgr8 row entry of one level, `run(src, dst)` returning the pixels it did, and
    /// checks what every such entry promises: those pixels are `expected`'s (which must cover
    /// them); nothing is written past them; nothing is read past the row (a second source,
    /// different only past the row's `width` pixels, gives the same); in place it gives the
    /// same and leaves the rest of the row as it was. Returns how many it did, for the
    /// caller's check of what the level does.
    static func checkThreeByteEntry(_ label: String, width: Int, source: [UInt8], expected: [UInt8],
                                    _ run: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Int) -> Int {
        var other = source
        for i in (3 * width)..<other.count { other[i] = ~other[i] }  // bytes past the row differ
        var out = [UInt8](repeating: 0xA5, count: source.count), out2 = out
        let done = out.withUnsafeMutableBufferPointer { run(source, $0.baseAddress!) }
        _ = out2.withUnsafeMutableBufferPointer { run(other, $0.baseAddress!) }
        guard done >= 0, 3 * done <= expected.count else {
            Issue.record("\(label): did \(done) pixels, the reference has \(expected.count / 3)")
            return done
        }
        #expect(Array(out[0..<(3 * done)]) == Array(expected[0..<(3 * done)]), "\(label)")
        #expect(out[(3 * done)...].allSatisfy { $0 == 0xA5 }, "\(label): wrote past what it did")
        #expect(out == out2, "\(label): read past the row")
        var row = source
        _ = row.withUnsafeMutableBufferPointer { p in run(p.baseAddress!, p.baseAddress!) }
        #expect(Array(row[0..<(3 * done)]) == Array(expected[0..<(3 * done)]), "\(label) in place")
        #expect(Array(row[(3 * done)...]) == Array(source[(3 * done)...]), "\(label) in place: changed what it did not do")
        return done
    }

    @Test func blurAndGradientEntriesAgreeWithPortable() {
        var rng = SplitMix64(seed: 5)
        // Seven taps summing to 2^14 in four pairs, as `GaussianBlur` splats them.
        let taps: [Int16] = [160, 1200, 3600, 6464, 3600, 1200, 160, 0]
        let weights = (0..<4).map { GaussianBlur.splat(taps[2 * $0], taps[2 * $0 + 1]) }
        for n in Self.widths {
            // Interleaving: every level the same pairs as the definition.
            let a = (0..<(n + 8)).map { _ in Int16.random(in: 0...32640, using: &rng) }
            let c = (0..<(n + 8)).map { _ in Int16.random(in: 0...32640, using: &rng) }
            for table in [KernelTable.portable] + Self.variants {
                var out = [Int16](repeating: -1, count: 2 * n + 16)
                let done = out.withUnsafeMutableBufferPointer { o in table.blurInterleave(a, c, o.baseAddress!, n) }
                #expect(done <= n && done > n - 8, "blurInterleave \(n) at \(table.name): did \(done)")
                let evens = stride(from: 0, to: 2 * done, by: 2).map { out[$0] }
                let odds = stride(from: 1, to: 2 * done, by: 2).map { out[$0] }
                #expect(evens == Array(a[0..<done]) && odds == Array(c[0..<done]), "blurInterleave \(n) at \(table.name)")
                #expect(out[(2 * done)...].allSatisfy { $0 == -1 }, "blurInterleave \(n) at \(table.name): wrote past")
            }
            for channels in [1, 3, 4] {
                // Pairs straight from bytes: the definition, nothing written past what it did.
                let bytes = (0..<(n + channels)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                var built = [Int16](repeating: -1, count: 2 * n + 16)
                let made = built.withUnsafeMutableBufferPointer { PortableKernels.blurPairBytes(bytes, channels, $0.baseAddress!, n) }
                #expect(made <= n && made > n - 16, "blurPairBytes \(n) \(channels): did \(made)")
                let definition = (0..<made).flatMap { [Int16(bytes[$0]), Int16(bytes[$0 + channels])] }
                #expect(Array(built[0..<(2 * made)]) == definition, "blurPairBytes \(n) \(channels)")
                #expect(built[(2 * made)...].allSatisfy { $0 == -1 }, "blurPairBytes \(n) \(channels): wrote past")
                // Pairs (s[j], s[j + channels]) of a padded row of bytes, as the blur makes them.
                let row = (0..<(n + 8 * channels + 16)).map { _ in Int16.random(in: 0...255, using: &rng) }
                let pairs = (0..<(n + 6 * channels + 8)).flatMap { [row[$0], row[$0 + channels]] }
                var expected = [Int16](repeating: -1, count: n + 8)
                let done = expected.withUnsafeMutableBufferPointer { Self.horizontal(.portable, pairs, $0.baseAddress!, n, channels, weights) }
                // The portable loop against the plain seven-tap sum.
                for i in 0..<done {
                    let sum = (0..<7).reduce(Int32(0)) { $0 + Int32(row[i + $1 * channels]) * Int32(taps[$1]) }
                    #expect(expected[i] == Int16((sum + 64) >> 7), "blurHorizontal \(n) \(channels) portable at \(i)")
                }
                for table in Self.variants {
                    var out = [Int16](repeating: -1, count: n + 8)
                    let count = out.withUnsafeMutableBufferPointer { Self.horizontal(table, pairs, $0.baseAddress!, n, channels, weights) }
                    #expect(count == done && out == expected, "blurHorizontal \(n) \(channels) at \(table.name)")
                }
            }
            // Vertical: four ring slots of pairs, in any order, at the horizontal pass's largest values.
            let slotLength = 2 * n + 16
            let ring = (0..<(4 * slotLength)).map { _ in Int16.random(in: 0...32640, using: &rng) }
            let slots = [2, 0, 3, 1].map { $0 * slotLength }
            var plain = [UInt8](repeating: 0, count: n + 8)
            let plainDone = plain.withUnsafeMutableBufferPointer { d in Self.vertical(.portable, ring, slots, weights, d.baseAddress!, n) }
            for i in 0..<plainDone {
                var sum: Int32 = 0
                for p in 0..<4 {
                    let at = slots[p] + 2 * i
                    sum += Int32(ring[at]) * Int32(taps[2 * p])
                    sum += Int32(ring[at + 1]) * Int32(taps[2 * p + 1])
                }
                #expect(Int32(plain[i]) == min(255, (sum + (1 << 20)) >> 21), "blurVertical \(n) portable at \(i)")
            }
            compareBytes("blurVertical \(n)", n: n) { t, d in Self.vertical(t, ring, slots, weights, d, n) }
            // Two rows at once: the first from slots 0..<4, the second from slots 1...4, each
            // as the one-row entry gives it, at every level.
            let five = slots + [slotLength / 2]
            var firstRow = [UInt8](repeating: 0, count: n + 8), secondRow = firstRow
            let oneDone = firstRow.withUnsafeMutableBufferPointer { Self.vertical(.portable, ring, Array(five[0..<4]), weights, $0.baseAddress!, n) }
            _ = secondRow.withUnsafeMutableBufferPointer { Self.vertical(.portable, ring, Array(five[1...4]), weights, $0.baseAddress!, n) }
            for table in [KernelTable.portable] + Self.variants {
                var a = [UInt8](repeating: 0xA5, count: n + 64), c = a
                let done = a.withUnsafeMutableBufferPointer { pa in c.withUnsafeMutableBufferPointer { pc in
                    ring.withUnsafeBufferPointer { r in five.withUnsafeBufferPointer { o in weights.withUnsafeBufferPointer { w in
                        table.blurVerticalTwo(r.baseAddress!, o.baseAddress!, w.baseAddress!, weights.count, pa.baseAddress!, pc.baseAddress!, n)
                    } } }
                } }
                #expect(done == oneDone, "blurVerticalTwo \(n) at \(table.name): did \(done), one row \(oneDone)")
                #expect(Array(a[0..<done]) == Array(firstRow[0..<done]) && Array(c[0..<done]) == Array(secondRow[0..<done]),
                        "blurVerticalTwo \(n) at \(table.name)")
                #expect(a[n...].allSatisfy { $0 == 0xA5 } && c[n...].allSatisfy { $0 == 0xA5 }, "blurVerticalTwo \(n) at \(table.name): wrote past")
            }
            let rounded = max(16, (n + 15) / 16 * 16)
            var expected = [Float](repeating: -1, count: rounded)
            expected.withUnsafeMutableBufferPointer { KernelTable.portable.gradient($0.baseAddress!, n, 10.3, -4.5, 2, 30) }
            for table in Self.variants {
                var out = [Float](repeating: -1, count: rounded)
                out.withUnsafeMutableBufferPointer { table.gradient($0.baseAddress!, n, 10.3, -4.5, 2, 30) }
                #expect(Array(out[0..<n]) == Array(expected[0..<n]), "gradient \(n) at \(table.name)")
            }
        }
    }

    /// Gradient pixels: every level's against the portable loop, with colours that pass
    /// 0…255 on the way (the clamps), a span below one pixel, a centre left of the row.
    @Test func gradientPixelEntryAgreesWithPortable() {
        let colourSets: [[Float]] = [[255, 255, 255, 255, -255, -255, -255, 0], [12.5, 200, 30.25, 128, 230, -200, 224.75, -128],
                                     [-300, 600, 0, 255, 900, -1200, 255, 0]]
        let shapes: [(centreX: Float, dy: Float, inner: Float, span: Float)] = [(10.3, -4.5, 2, 30), (-7, 0.5, 0, 0.25), (40, 12, 5, 90)]
        let unused = [UInt8](repeating: 0, count: 16)
        for colours in colourSets {
            for shape in shapes {
                for width in Self.widths {
                    unused.withUnsafeBytes { u in colours.withUnsafeBufferPointer { c in
                        compareRows("gradientBGRA \(width) \(shape) \(colours)", width: width, u.baseAddress!) { t, d in
                            t.gradientBGRA(d, width, shape.centreX, shape.dy, shape.inner, shape.span, c.baseAddress!)
                        }
                    } }
                }
            }
        }
    }

    /// Fills: the portable loop writes the pattern to every pixel of the row (widths around
    /// its 32- and 8-pixel steps, in byte order B, G, R, A), every level the same, none past it.
    @Test func fillEntryWritesThePatternOnly() {
        let unused = [UInt8](repeating: 0, count: 16)
        for width in Self.widths + [63, 65, 97, 1920] {
            var row = [UInt8](repeating: 0xA5, count: 4 * width + 64)
            row.withUnsafeMutableBytes { KernelTable.portable.fill($0.baseAddress!, width, 0xFF20_1001) }
            #expect(Array(row[0..<(4 * width)]) == (0..<width).flatMap { _ in [UInt8]([0x01, 0x10, 0x20, 0xFF]) }, "fill \(width)")
            #expect(row[(4 * width)...].allSatisfy { $0 == 0xA5 }, "fill \(width) wrote past the row")
            unused.withUnsafeBytes { u in
                compareRows("fill \(width)", width: width, u.baseAddress!) { t, d in
                    t.fill(d, width, 0x8040_2010)
                    return width
                }
            }
        }
    }

    static func horizontal(_ t: KernelTable, _ pairs: [Int16], _ out: UnsafeMutablePointer<Int16>, _ n: Int, _ channels: Int,
                           _ weights: [SIMD16<Int16>]) -> Int {
        pairs.withUnsafeBufferPointer { p in weights.withUnsafeBufferPointer { w in
            t.blurHorizontal(p.baseAddress!, out, n, channels, w.baseAddress!, weights.count)
        } }
    }

    static func vertical(_ t: KernelTable, _ ring: [Int16], _ slots: [Int], _ weights: [SIMD16<Int16>],
                         _ dst: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        ring.withUnsafeBufferPointer { r in slots.withUnsafeBufferPointer { o in weights.withUnsafeBufferPointer { w in
            t.blurVertical(r.baseAddress!, o.baseAddress!, w.baseAddress!, weights.count, dst, n)
        } } }
    }

    // MARK: - No shared helper compiled for a level

    /// The object files of the level modules, next to the test binary (an x86-64 build).
    static let levelObjects: [(module: String, files: [String])] = {
        #if arch(x86_64)
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return [] }
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("FramelabKernelsAVX2.build").path) {
            dir.deleteLastPathComponent()
        }
        return ["FramelabKernelsAVX2", "FramelabKernelsAVX2VNNI", "FramelabKernelsAVX512", "FramelabKernelsAVX512VBMI"].compactMap { module in
            let folder = dir.appendingPathComponent("\(module).build")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
                .filter { $0.hasSuffix(".o") }.map { folder.appendingPathComponent($0).path } ?? []
            return files.isEmpty ? nil : (module, files)
        }
        #else
        return []
        #endif
    }()

    /// A weak code symbol a level module defines under a name other modules can define too
    /// (a specialisation of a shared generic, a type's outlined copy, `__swift_memcpy…`)
    /// is merged by the linker with theirs, and the copy it keeps might be this module's,
    /// compiled with instructions a baseline CPU lacks. Every weak function a level module
    /// defines must carry its own module's name: in the mangled name, or, where the mangling
    /// abbreviates it, in the demangled one (a specialisation on this module's own types,
    /// as the cascade scan's on the level's lane types).
    @Test(.enabled(if: !Self.levelObjects.isEmpty && Self.isHostRun, "needs the level modules' object files and nm"))
    func levelModulesDefineNoSharedWeakCode() throws {
        for (module, files) in Self.levelObjects {
            let result = try TestSupport.run("/usr/bin/env", ["nm", "--defined-only"] + files)
            #expect(result.status == 0, "nm: \(result.stderr)")
            let own = "\(module.utf8.count)\(module)"
            let unnamed = result.stdout.split(separator: "\n").compactMap { line -> String? in
                let parts = line.split(separator: " ")
                guard parts.count == 3, parts[1] == "W" || parts[1] == "w" else { return nil }
                return parts[2].contains(own) ? nil : String(parts[2])
            }
            var shared: [String] = []
            if !unnamed.isEmpty {
                let demangled = try TestSupport.run("/usr/bin/env", ["swift-demangle", "--compact"] + unnamed)
                #expect(demangled.status == 0, "swift-demangle: \(demangled.stderr)")
                let lines = demangled.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                for (k, name) in unnamed.enumerated() where k >= lines.count || !lines[k].contains("\(module).") {
                    shared.append(name)
                }
            }
            #expect(shared.isEmpty, "\(module) defines shared weak functions: \(shared.joined(separator: ", "))")
        }
    }
}
