import CFramelabCPU
import FramelabCore
import FramelabKernels
import FramelabKernelsAVX2
import FramelabKernelsAVX2VNNI
import FramelabKernelsAVX512
import FramelabKernelsAVX512VBMI
#if canImport(Glibc)
import Glibc
#endif

/// An instruction-set level of the SIMD kernels. Each level's kernels are compiled in a
/// module of their own (Package.swift); one level is chosen at start-up from CPUID — the
/// best this CPU has — or forced with `FRAMELAB_ISA=baseline|avx2|avx512`.
///
/// - `baseline`: the portable kernels for any x86-64 CPU (SSE2), or NEON on arm64;
/// - `avx2`: x86-64-v3 (AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE); with AVX-VNNI too, its
///   colour matrix multiplies and adds by `vpdpwssd` (`KernelTable.avx2VNNI`);
/// - `avx512`: x86-64-v4 (v3 plus AVX-512 F, BW, CD, DQ, VL, with the OS saving ZMM state);
///   with VBMI and VNNI too, its curves use byte permutes and its colour matrix 16-bit
///   fixed point (`KernelTable.avx512VBMI`).
///
/// Filters take the level's `KernelTable` when they are made (`KernelLevel.current`), so a
/// filter keeps its level for its lifetime, and a benchmark or a test can make filters of
/// every level side by side (`KernelLevel.$override`).
public enum KernelLevel: String, CaseIterable, Sendable, Comparable, CustomStringConvertible {
    case baseline, avx2, avx512

    /// The environment variable that forces a level.
    public static let environmentVariable = "FRAMELAB_ISA"

    public var description: String { rawValue }

    public static func < (a: KernelLevel, b: KernelLevel) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Whether this CPU (and this build) can run the level's kernels.
    public var isSupported: Bool {
        switch self {
        case .baseline: return true
        case .avx2: return AVX2Kernels.isBuilt && Self.cpuHasV3
        case .avx512: return AVX512Kernels.isBuilt && Self.cpuHasV4
        }
    }

    // CPUID is read once (in a virtual machine each CPUID traps to the hypervisor).
    private static let cpuHasV3 = framelab_cpu_has_x86_64_v3() != 0
    private static let cpuHasV4 = framelab_cpu_has_x86_64_v4() != 0
    private static let cpuHasVBMIAndVNNI = framelab_cpu_has_avx512_vbmi_vnni() != 0
    private static let cpuHasAVXVNNI = framelab_cpu_has_avx_vnni() != 0

    /// The levels this CPU can run, lowest first.
    public static let supported: [KernelLevel] = allCases.filter(\.isSupported)

    /// The level's kernels; nil when this CPU cannot run them.
    public var table: KernelTable? { tables.last }

    /// Every variant of the level's kernels this CPU can run, the one `table` uses last
    /// (avx2 without and with AVX-VNNI, avx512 without and with VBMI and VNNI; the tests run
    /// them all).
    public var tables: [KernelTable] {
        guard isSupported else { return [] }
        #if arch(x86_64)
        switch self {
        case .baseline: return [.portable]
        case .avx2: return AVX2VNNIKernels.isBuilt && Self.cpuHasAVXVNNI ? [.avx2, .avx2VNNI] : [.avx2]
        case .avx512: return AVX512VBMIKernels.isBuilt && Self.cpuHasVBMIAndVNNI ? [.avx512, .avx512VBMI] : [.avx512]
        }
        #else
        return [.portable]
        #endif
    }

    /// The level named by `text` (as `FRAMELAB_ISA` or `--isa` spell it), if this CPU has
    /// it; the error names `source` (the variable or flag) and lists the levels it has.
    public static func parse(_ text: String, source: String) throws(FramelabError) -> KernelLevel {
        let have = supported.map(\.rawValue).joined(separator: ", ")
        guard let level = KernelLevel(rawValue: text.lowercased()) else {
            let known = allCases.map(\.rawValue).joined(separator: ", ")
            throw FramelabError(.badInput, "\(source)=\(text): unknown kernel level (known: \(known); this CPU has: \(have))")
        }
        guard level.isSupported else {
            throw FramelabError(.unsupported, "\(source)=\(text): this CPU cannot run the \(level) kernels (it has: \(have))")
        }
        return level
    }

    /// True when `FRAMELAB_ISA` is set (to anything but the empty string).
    public static var isForcedByEnvironment: Bool {
        getenv(environmentVariable).map { $0.pointee != 0 } ?? false
    }

    /// The start-up choice: `FRAMELAB_ISA` when set (an error when it names an unknown level
    /// or one this CPU lacks), else the best level this CPU has. Read once.
    public static let chosen: Result<KernelLevel, FramelabError> = {
        guard let value = getenv(environmentVariable).map({ String(cString: $0) }), !value.isEmpty else {
            return .success(supported.last ?? .baseline)
        }
        do throws(FramelabError) {
            return .success(try parse(value, source: environmentVariable))
        } catch {
            return .failure(error)
        }
    }()

    /// The level filters use unless `override` says otherwise: the start-up choice, or the
    /// best level when `FRAMELAB_ISA` is invalid (programs check `chosen` at start-up and
    /// stop with its message; `framelab` does).
    public static var active: KernelLevel {
        (try? chosen.get()) ?? supported.last ?? .baseline
    }

    /// A level for the filters made inside `KernelLevel.$override.withValue(level) { … }`
    /// (benchmarks and tests); it must be supported.
    @TaskLocal public static var override: KernelLevel?

    /// The level a filter made now uses.
    public static var current: KernelLevel { override ?? active }

    /// The kernels a filter made now uses.
    static var currentTable: KernelTable { current.kernels }

    /// The level's kernels, for a level this CPU has (filters are only made with those).
    var kernels: KernelTable {
        guard let table else { preconditionFailure("kernel level \(self) is not supported by this CPU") }
        return table
    }

    /// The level bench results record: the level filters made now use. (This was the level
    /// the whole module was compiled for, before levels were chosen at run time.)
    public static var compiled: String { current.rawValue }
}
