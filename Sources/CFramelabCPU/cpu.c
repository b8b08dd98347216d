#include "cframelab_cpu.h"

#if defined(__x86_64__)
#include <cpuid.h>

// Bits of CPUID leaf 1 ECX, leaf 7 EBX/ECX, leaf 7 subleaf 1 EAX, leaf 0x80000001 ECX, and XCR0.
enum {
    L1_SSE3 = 1u << 0, L1_SSSE3 = 1u << 9, L1_FMA = 1u << 12, L1_CX16 = 1u << 13, L1_SSE41 = 1u << 19,
    L1_SSE42 = 1u << 20, L1_MOVBE = 1u << 22, L1_POPCNT = 1u << 23, L1_OSXSAVE = 1u << 27, L1_AVX = 1u << 28,
    L1_F16C = 1u << 29,
    L7_BMI1 = 1u << 3, L7_AVX2 = 1u << 5, L7_BMI2 = 1u << 8, L7_AVX512F = 1u << 16, L7_AVX512DQ = 1u << 17,
    L7_AVX512CD = 1u << 28, L7_AVX512BW = 1u << 30, L7_AVX512VL = 1u << 31,
    L7C_AVX512VBMI = 1u << 1, L7C_AVX512VNNI = 1u << 11,
    L71A_AVXVNNI = 1u << 4,
    E1_LAHF = 1u << 0, E1_LZCNT = 1u << 5,
    XCR0_SSE_AVX = 0x6, XCR0_AVX512 = 0xE0,
};

typedef struct { unsigned l1c, l7b, l7c, l71a, e1c; unsigned long long xcr0; } Features;

static Features features(void) {
    Features f = {0, 0, 0, 0, 0, 0};
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
    f.l1c = c;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        f.l7b = b; f.l7c = c;
        // Subleaf 1 exists when subleaf 0's EAX (the highest subleaf) is at least 1.
        unsigned highest = a;
        if (highest >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d)) f.l71a = a;
    }
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d)) f.e1c = c;
    if (f.l1c & L1_OSXSAVE) {
        // xgetbv with ECX = 0 (encoded directly, so no -mxsave is needed).
        unsigned lo, hi;
        __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
        f.xcr0 = ((unsigned long long)hi << 32) | lo;
    }
    return f;
}

static int all(unsigned have, unsigned want) { return (have & want) == want; }

static int v3(Features f) {
    return all(f.l1c, L1_SSE3 | L1_SSSE3 | L1_FMA | L1_CX16 | L1_SSE41 | L1_SSE42 | L1_MOVBE | L1_POPCNT
                      | L1_OSXSAVE | L1_AVX | L1_F16C)
        && all(f.l7b, L7_BMI1 | L7_AVX2 | L7_BMI2) && all(f.e1c, E1_LAHF | E1_LZCNT)
        && (f.xcr0 & XCR0_SSE_AVX) == XCR0_SSE_AVX;
}

static int v4(Features f) {
    return v3(f) && all(f.l7b, L7_AVX512F | L7_AVX512DQ | L7_AVX512CD | L7_AVX512BW | L7_AVX512VL)
        && (f.xcr0 & XCR0_AVX512) == XCR0_AVX512;
}

int framelab_cpu_has_x86_64_v3(void) { return v3(features()); }
int framelab_cpu_has_x86_64_v4(void) { return v4(features()); }
int framelab_cpu_has_avx512_vbmi_vnni(void) {
    Features f = features();
    return v4(f) && all(f.l7c, L7C_AVX512VBMI | L7C_AVX512VNNI);
}
int framelab_cpu_has_avx_vnni(void) {
    Features f = features();
    return v3(f) && all(f.l71a, L71A_AVXVNNI);
}

#else
int framelab_cpu_has_x86_64_v3(void) { return 0; }
int framelab_cpu_has_x86_64_v4(void) { return 0; }
int framelab_cpu_has_avx512_vbmi_vnni(void) { return 0; }
int framelab_cpu_has_avx_vnni(void) { return 0; }
#endif
