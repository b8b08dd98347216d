/// The instruction-set level the SIMD kernels were compiled for (Package.swift), as bench
/// results record it: "avx2" on x86-64, "portable" elsewhere (Swift's SIMD types lowered
/// for the target).
public enum KernelLevel {
    public static var compiled: String {
        #if arch(x86_64)
        return "avx2"
        #else
        return "portable"
        #endif
    }
}
