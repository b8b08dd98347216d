// swift-tools-version: 6.1
// Framelab: a plugin-based vision research workbench for Linux.
import PackageDescription

let package = Package(
    name: "Framelab",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "framelab", targets: ["framelab"]),
        .library(name: "FramelabCore", targets: ["FramelabCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System libraries, found through pkg-config. Nothing Swift imports these
        // directly: they carry compiler and linker flags to the shim targets.
        .systemLibrary(name: "COpenCVSystem", path: "Sources/COpenCVSystem", pkgConfig: "opencv4",
                       providers: [.apt(["libopencv-dev"])]),
        .systemLibrary(name: "CHDF5System", path: "Sources/CHDF5System", pkgConfig: "hdf5",
                       providers: [.apt(["libhdf5-dev"])]),
        .systemLibrary(name: "CV4L2System", path: "Sources/CV4L2System", pkgConfig: "libv4l2",
                       providers: [.apt(["libv4l-dev"])]),

        // The one place that talks C++: an extern "C" surface over OpenCV.
        .target(name: "CFramelabCV", dependencies: ["COpenCVSystem"],
                cxxSettings: [.unsafeFlags(["-O2"])]),
        // HDF5's constants are macros Swift cannot import; this shim returns them.
        .target(name: "CHDF5", dependencies: ["CHDF5System"]),
        // V4L2 request codes and non-variadic libv4l2 calls, which Swift cannot import.
        .target(name: "CV4L2", dependencies: ["CV4L2System"],
                linkerSettings: [.linkedLibrary("v4l2"), .linkedLibrary("v4lconvert")]),

        .target(name: "FramelabCore"),
        .target(name: "FramelabCV", dependencies: ["FramelabCore", "CFramelabCV"]),
        .target(name: "FramelabRecording", dependencies: ["FramelabCore", "CHDF5"]),
        .target(name: "FramelabFilters", dependencies: ["FramelabCore"]),
        .target(name: "FramelabV4L2", dependencies: ["FramelabCore", "FramelabCV", "CV4L2"]),
        .target(name: "FramelabPipeline",
                dependencies: ["FramelabCore", "FramelabCV", "FramelabFilters", "FramelabV4L2"]),
        .executableTarget(name: "framelab", dependencies: [
            "FramelabCore", "FramelabCV", "FramelabRecording", "FramelabFilters", "FramelabPipeline", "FramelabV4L2",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Scratch folders, the built binary, the venv's Python: shared by the test targets.
        .target(name: "FramelabTestSupport", path: "Tests/FramelabTestSupport"),
        .testTarget(name: "FramelabCoreTests", dependencies: ["FramelabCore"]),
        .testTarget(name: "FramelabCVTests", dependencies: ["FramelabCore", "FramelabCV", "FramelabTestSupport"]),
        .testTarget(name: "FramelabRecordingTests",
                    dependencies: ["FramelabCore", "FramelabRecording", "FramelabTestSupport"]),
        .testTarget(name: "FramelabFiltersTests", dependencies: ["FramelabCore", "FramelabCV", "FramelabFilters"]),
        .testTarget(name: "FramelabPipelineTests",
                    dependencies: ["FramelabCore", "FramelabCV", "FramelabFilters", "FramelabPipeline",
                                   "FramelabTestSupport"]),
        .testTarget(name: "FramelabCLITests",
                    dependencies: ["FramelabCore", "FramelabCV", "FramelabTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
