// swift-tools-version: 6.1
// Framelab: a plugin-based vision research workbench for Linux.
import PackageDescription

let package = Package(
    name: "Framelab",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "framelab", targets: ["framelab"]),
        .library(name: "FramelabCore", targets: ["FramelabCore"]),
        // Plugins: the kit Swift plugins build on, and the Swift example plugin.
        .library(name: "FramelabPluginKit", targets: ["FramelabPluginKit"]),
        .library(name: "FramelabPosterizePlugin", type: .dynamic, targets: ["PosterizePlugin"]),
        // OpenCV's codecs, video I/O, preview window, detectors and DNN, dlopened by the bridge
        // on first use so that starting framelab does not load them
        // (Sources/CFramelabCV/on_demand.hpp). It must sit beside the executables:
        // scripts/build.sh builds it, and so does `swift test`.
        .library(name: "FramelabCVOnDemand", type: .dynamic, targets: ["CFramelabCVOnDemand"]),
        // HDF5 and the 30 libraries it brings, dlopened by CHDF5 on the first HDF5 call
        // (Sources/CHDF5/include/chdf5_on_demand.h); it sits beside the executables too.
        .library(name: "FramelabHDF5OnDemand", type: .dynamic, targets: ["CHDF5OnDemand"]),
        .executable(name: "framelab-plugin-worker", targets: ["framelab-plugin-worker"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System libraries, found through pkg-config. Nothing Swift imports these
        // directly: they carry compiler and linker flags to the shim targets.
        // OpenCV: only the modules Framelab calls are linked, not the 55 `pkg-config --libs opencv4`
        // names. Those pull in Qt, VTK, GDAL and Tesseract with its own OpenMP runtime: start-up
        // takes twice as long, and a plugin's OpenMP calls bind to that runtime, initialised
        // before Framelab can hold it to one thread. Of the seven modules used, only core and
        // imgproc are linked: imgcodecs, videoio, highgui, objdetect and dnn (about 270
        // libraries between them) live in libFramelabCVOnDemand.so, loaded when first needed.
        .systemLibrary(name: "COpenCVSystem", path: "Sources/COpenCVSystem",
                       providers: [.apt(["libopencv-dev"])]),
        .systemLibrary(name: "CHDF5System", path: "Sources/CHDF5System", pkgConfig: "hdf5",
                       providers: [.apt(["libhdf5-dev"])]),
        .systemLibrary(name: "CV4L2System", path: "Sources/CV4L2System", pkgConfig: "libv4l2",
                       providers: [.apt(["libv4l-dev"])]),
        // zlib: the compressed elements of MATLAB 5 files (the WIDER FACE kit's ground truth).
        .systemLibrary(name: "CZlibSystem", path: "Sources/CZlibSystem", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),

        // Finds and opens the on-demand libraries below (the OpenCV bridge's and HDF5's).
        .target(name: "CFramelabOnDemandLoader"),
        // The one place that talks C++: an extern "C" surface over OpenCV.
        .target(name: "CFramelabCV", dependencies: ["COpenCVSystem", "CFramelabOnDemandLoader"],
                cxxSettings: [.unsafeFlags(["-O2", "-I/usr/include/opencv4"])],
                linkerSettings: ["core", "imgproc"].map { .linkedLibrary("opencv_" + $0) }),
        // The bridge's on-demand half (the FramelabCVOnDemand product): the calls into imgcodecs,
        // videoio, highgui, objdetect and dnn. Nothing depends on it; the bridge dlopens it.
        .target(name: "CFramelabCVOnDemand", dependencies: ["COpenCVSystem"],
                cxxSettings: [.unsafeFlags(["-O2", "-I/usr/include/opencv4"]), .headerSearchPath("../CFramelabCV/include")],
                linkerSettings: ["core", "imgproc", "imgcodecs", "videoio", "highgui", "objdetect", "dnn"]
                    .map { .linkedLibrary("opencv_" + $0) }),
        // HDF5's constants are macros Swift cannot import; this shim returns them. It does not
        // link HDF5: it loads libFramelabHDF5OnDemand.so (CHDF5OnDemand) on the first call.
        .target(name: "CHDF5", dependencies: ["CFramelabOnDemandLoader"]),
        .target(name: "CHDF5OnDemand", dependencies: ["CHDF5System"]),
        // V4L2 request codes and non-variadic libv4l2 calls, which Swift cannot import.
        .target(name: "CV4L2", dependencies: ["CV4L2System"],
                linkerSettings: [.linkedLibrary("v4l2"), .linkedLibrary("v4lconvert")]),

        .target(name: "FramelabCore"),
        // The element vocabulary filters and detectors share: `NAME:key=value` specs, parameter
        // metadata and checked values, one descriptor protocol, one registry, one name-clash rule.
        .target(name: "FramelabElements", dependencies: ["FramelabCore"]),
        .target(name: "FramelabCV", dependencies: ["FramelabCore", "CFramelabCV"]),
        .target(name: "FramelabRecording", dependencies: ["FramelabCore", "CHDF5"]),
        // Kernels per instruction-set level, chosen once at start-up from CPUID (docs/filters.md,
        // "Kernel levels"): the portable kernels (any x86-64, i.e. SSE2; NEON on arm64), and the
        // same source inlined into one module per level compiled for that level, plus the
        // level's intrinsics. Nothing else is compiled for more than the baseline.
        .target(name: "CFramelabCPU"),
        .target(name: "FramelabKernels"),
        .target(name: "FramelabKernelsAVX2", dependencies: ["FramelabKernels"], swiftSettings: kernelLevel("x86-64-v3")),
        // The avx2 level's 16-bit fixed-point colour matrix, fused matrix-curve loop and
        // vibrance with AVX-VNNI's vpdpwssd, used when the CPU has it (Alder Lake and later
        // Intel cores, Zen 5); fast-dpwssd as below.
        .target(name: "FramelabKernelsAVX2VNNI", dependencies: ["FramelabKernels"],
                swiftSettings: kernelLevel("x86-64-v3", "-mavxvnni",
                                           "-Xclang", "-target-feature", "-Xclang", "+fast-dpwssd") + [.define("FRAMELAB_VNNI")]),
        .target(name: "FramelabKernelsAVX512", dependencies: ["FramelabKernels", "FramelabKernelsAVX2"], swiftSettings: kernelLevel("x86-64-v4")),
        // The avx512 level's byte-permute curves and 16-bit fixed-point colour matrix, used
        // when the CPU also has VBMI and VNNI. LLVM's fast-dpwssd tuning keeps each
        // vpdpwssd whole: without it, LLVM splits those whose sum is on a longer chain into
        // vpmaddwd and vpaddd, twelve more instructions per 64 pixels in the fused
        // matrix-curve loop (AVX512SixtyFourStep.swift), which is bound by instruction count.
        .target(name: "FramelabKernelsAVX512VBMI", dependencies: ["FramelabKernels"],
                swiftSettings: kernelLevel("x86-64-v4", "-mavx512vbmi", "-mavx512vnni",
                                           "-Xclang", "-target-feature", "-Xclang", "+fast-dpwssd") + [.define("FRAMELAB_VNNI")]),
        .target(name: "FramelabFilters",
                dependencies: ["FramelabCore", "FramelabCV", "FramelabElements", "FramelabKernels", "FramelabKernelsAVX2", "FramelabKernelsAVX2VNNI",
                               "FramelabKernelsAVX512", "FramelabKernelsAVX512VBMI", "CFramelabCPU"]),
        .target(name: "FramelabV4L2", dependencies: ["FramelabCore", "FramelabCV", "CV4L2"]),
        // The engine: FrameSource, the queue and drop policies, stages, executors, benchmarks.
        .target(name: "FramelabPipeline", dependencies: ["FramelabCore", "FramelabFilters"]),
        // Sources by scheme (image, images, video, synthetic, camera, dataset): SourceRegistry.
        .target(name: "FramelabSources",
                dependencies: ["FramelabCore", "FramelabCV", "FramelabPipeline", "FramelabV4L2", "FramelabDatasets"]),
        // Plugins: the C ABI (one header), the Swift kit, the host and its isolation worker.
        .target(name: "CFramelabPlugin"),
        // One line naming the plugin, not a backtrace, when an in-process plugin crashes.
        .target(name: "CFramelabCrashGuard"),
        .target(name: "FramelabPluginKit", dependencies: ["CFramelabPlugin"]),
        .target(name: "FramelabPluginHost",
                dependencies: ["FramelabCore", "FramelabCV", "FramelabElements", "FramelabFilters", "FramelabDetection",
                               "CFramelabPlugin", "CFramelabCrashGuard"]),
        .executableTarget(name: "framelab-plugin-worker", dependencies: ["FramelabPluginHost"]),
        .target(name: "PosterizePlugin", dependencies: ["FramelabPluginKit"], path: "Plugins/swift-posterize"),
        .executableTarget(name: "framelab-plugin-bench",
                          dependencies: ["FramelabCore", "FramelabElements", "FramelabFilters", "FramelabPipeline", "FramelabPluginHost",
                                         "FramelabRecording"],
                          path: "Benchmarks/PluginOverhead"),

        // Face detection: the detector protocol, OpenCV's detectors, Framelab's SIMD cascade.
        .target(name: "FramelabDetection", dependencies: ["FramelabCore", "FramelabCV", "FramelabElements", "FramelabKernels", "FramelabFilters"]),
        // Face-annotation datasets: loaders (FDDB, WIDER FACE, dlib XML, CSV, MATLAB 5 files), composites.
        .target(name: "FramelabDatasets", dependencies: ["FramelabCore", "FramelabCV", "CZlibSystem"]),
        // Detector accuracy on datasets: detectors as pipeline stages, matching, PR/AP, FDDB ROC, evaluation on the engine.
        .target(name: "FramelabEvaluation",
                dependencies: ["FramelabCore", "FramelabCV", "FramelabElements", "FramelabDetection", "FramelabDatasets",
                               "FramelabPipeline", "FramelabSources"]),
        // Runs: what a run records and reads back — engine events to records, the detection
        // tables, run attributes and IDs, the run summary, the eval and bench run writers.
        .target(name: "FramelabRuns",
                dependencies: ["FramelabCore", "FramelabRecording", "FramelabPipeline", "FramelabSources", "FramelabElements",
                               "FramelabFilters", "FramelabDetection", "FramelabDatasets", "FramelabEvaluation", "FramelabCV"]),
        // Scale-out: shards of an evaluation, dataset fingerprints, merging shard runs (docs/scale-out.md).
        .target(name: "FramelabScaleOut",
                dependencies: ["FramelabCore", "FramelabElements", "FramelabDetection", "FramelabDatasets", "FramelabEvaluation",
                               "FramelabRecording", "FramelabRuns"]),
        .executableTarget(name: "framelab", dependencies: [
            "FramelabCore", "FramelabCV", "FramelabRecording", "FramelabElements", "FramelabFilters", "FramelabPipeline", "FramelabSources", "FramelabPluginHost", "FramelabV4L2",
            "FramelabDetection", "FramelabDatasets", "FramelabEvaluation", "FramelabScaleOut", "FramelabRuns",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Scratch folders, the built binary, the venv's Python: shared by the test targets.
        .target(name: "FramelabTestSupport", path: "Tests/FramelabTestSupport"),
        .testTarget(name: "FramelabCoreTests", dependencies: ["FramelabCore"]),
        .testTarget(name: "FramelabCVTests", dependencies: ["FramelabCore", "FramelabCV", "FramelabTestSupport"]),
        .testTarget(name: "FramelabRecordingTests",
                    dependencies: ["FramelabCore", "FramelabRecording", "FramelabTestSupport"]),
        .testTarget(name: "FramelabElementsTests", dependencies: ["FramelabCore", "FramelabElements"]),
        .testTarget(name: "FramelabFiltersTests",
                    dependencies: ["FramelabCore", "FramelabCV", "FramelabElements", "FramelabFilters", "FramelabKernels",
                                   "FramelabTestSupport"]),
        .testTarget(name: "FramelabPipelineTests",
                    dependencies: ["FramelabCore", "FramelabElements", "FramelabFilters", "FramelabPipeline",
                                   "FramelabSources"]),
        .testTarget(name: "FramelabSourcesTests",
                    dependencies: ["FramelabCore", "FramelabCV", "FramelabPipeline", "FramelabSources", "FramelabTestSupport"]),
        .testTarget(name: "FramelabPluginHostTests",
                    dependencies: ["FramelabCore", "FramelabCV", "FramelabElements", "FramelabDetection",
                                   "FramelabFilters", "FramelabPipeline", "FramelabPluginHost", "FramelabTestSupport"]),
        .testTarget(name: "FramelabDetectionTests",
                    dependencies: ["FramelabCore", "FramelabCV", "FramelabElements", "FramelabDetection", "FramelabTestSupport",
                                   "FramelabFilters", "FramelabKernels", "FramelabKernelsAVX2", "FramelabKernelsAVX512"]),
        .testTarget(name: "FramelabDatasetsTests",
                    dependencies: ["FramelabCore", "FramelabCV", "FramelabDatasets", "FramelabTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "FramelabEvaluationTests",
                    dependencies: ["FramelabCore", "FramelabElements", "FramelabDetection", "FramelabDatasets", "FramelabEvaluation",
                                   "FramelabTestSupport"]),
        .testTarget(name: "FramelabScaleOutTests",
                    dependencies: ["FramelabCore", "FramelabDatasets", "FramelabDetection", "FramelabElements", "FramelabScaleOut",
                                   "FramelabRuns",
                                   "FramelabTestSupport"]),
        .testTarget(name: "FramelabCLITests",
                    dependencies: ["FramelabCore", "FramelabCV", "FramelabTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

/// The flags of a kernel-level module: `-march` with an x86-64 microarchitecture level (the
/// psABI's x86-64-v3 = AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE; x86-64-v4 = v3 + AVX-512 F, BW,
/// CD, DQ, VL), and extra features (`-mavxvnni`, `-mavx512vbmi`, `-mavx512vnni`), which set both what Swift's code generator may use and which intrinsics
/// the module can call. `KernelLevel` checks the same sets with CPUID before using a module.
/// The manifest is compiled for the build machine: on an arm64 machine the level modules
/// build without flags (their sources are x86-64 only and compile to nothing).
/// `-O` in debug builds too: unoptimised, these modules would call the portable kernels
/// out of line and emit their own weak copies of standard-library generics (`loadUnaligned`)
/// and value witnesses, which the linker may then use for baseline code (docs/filters.md).
func kernelLevel(_ march: String, _ features: String...) -> [SwiftSetting] {
    #if arch(x86_64)
    return [.unsafeFlags(["-Xcc", "-march=\(march)"] + features.flatMap { ["-Xcc", $0] }),
            .unsafeFlags(["-O"], .when(configuration: .debug))]
    #else
    return []
    #endif
}
