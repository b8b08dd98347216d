// What the CPU (and the OS, for the vector register state) supports, for choosing the
// kernel level once at start-up (FramelabFilters' KernelLevel). Swift has no CPUID or
// XGETBV, and __builtin_cpu_supports would tie the binary to libgcc's CPU model: this
// reads the bits directly. On other architectures every function returns 0.
#ifndef CFRAMELAB_CPU_H
#define CFRAMELAB_CPU_H

/// x86-64-v3: AVX, AVX2, FMA, BMI1, BMI2, F16C, LZCNT, MOVBE and the v2 set (SSE3, SSSE3,
/// SSE4.1, SSE4.2, POPCNT, CX16, LAHF), with the OS saving YMM state. The AVX2 kernels are
/// compiled with -march=x86-64-v3, so the compiler may use any of these.
int framelab_cpu_has_x86_64_v3(void);

/// x86-64-v4: v3 plus AVX-512 F, BW, CD, DQ and VL, with the OS saving opmask and ZMM state.
int framelab_cpu_has_x86_64_v4(void);

/// AVX-512 VBMI (byte permutes such as vpermi2b) and AVX-512 VNNI (vpdpwssd), with the v4 set.
int framelab_cpu_has_avx512_vbmi_vnni(void);

/// AVX-VNNI (the VEX-encoded vpdpwssd on 256-bit registers: Alder Lake and later Intel
/// cores, Zen 5), with the v3 set.
int framelab_cpu_has_avx_vnni(void);

/// The spin-wait hint (`pause` on x86-64, `yield` on arm64) for a thread polling a flag
/// another thread will set: it lets a sibling hardware thread run and saves power; Swift
/// has no portable spelling of it (RowWorkers.swift).
static inline void framelab_cpu_relax(void) {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

#endif
