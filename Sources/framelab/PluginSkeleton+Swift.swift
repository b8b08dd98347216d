/// The Swift project of `plugins new --lang swift`: a SwiftPM package whose `.dynamic`
/// library product is named after the element, with a copy of FramelabPluginKit and the
/// plugin header beside it, so it builds anywhere with `swift build -c release` and needs no
/// network, no Framelab checkout and no Framelab module at run time.
extension PluginSkeleton {
    static func swift(_ names: PluginSkeletonNames, kind: PluginSkeletonKind, kit: (kit: String, abi: String),
                      kitFiles: [String]) -> PluginSkeleton {
        let build = "swift build -c release"
        let library = ".build/release/\(names.library)"
        let source = "Sources/\(names.swiftModule)/\(names.swiftType).swift"
        let does = kind == .filter ? PluginSkeletonText.filterDoes : PluginSkeletonText.detectorDoes
        let layout = """
            Files: `\(source)` (the element), `Package.swift` (a `.dynamic` library product named
            `\(names.element)`, hence `lib\(names.element).so`), and a copy of the plugin kit taken from
            the Framelab that wrote this project: `Sources/FramelabPluginKit` (the Swift side) and
            `Sources/CFramelabPlugin` (framelab_plugin.h). The kit is compiled into the plugin, so the
            library depends only on the Swift runtime.

            Parameters are declared with `.float`, `.int`, `.bool`, `.choice` and `.string` and read in
            `init` with `values.double`, `values.int`, `values.bool` and `values.string` (`.choice`
            and `.string` both with `values.string`).
            """
        var copies = kitFiles.map { ("\(kit.kit)/\($0)", "Sources/FramelabPluginKit/\($0)") }
        copies += [("\(kit.abi)/abi.c", "Sources/CFramelabPlugin/abi.c"),
                   ("\(kit.abi)/include/framelab_plugin.h", "Sources/CFramelabPlugin/include/framelab_plugin.h")]
        return PluginSkeleton(
            files: [(source, kind == .filter ? swiftFilter(names) : swiftDetector(names)),
                    ("Package.swift", package(names)),
                    ("README.md", readme(names: names, kind: kind, language: "Swift", does: does, build: build,
                                         library: library, layout: layout)),
                    (".gitignore", ".build/\n")],
            copies: copies, buildCommand: build, library: library)
    }

    private static func package(_ n: PluginSkeletonNames) -> String {
        #"""
        // swift-tools-version: 6.1
        // The Framelab plugin `\#(n.element)`: `swift build -c release` makes .build/release/lib\#(n.element).so.
        import PackageDescription

        let package = Package(
            name: "\#(n.element)",
            products: [
                // The product's name is the library's: lib\#(n.element).so.
                .library(name: "\#(n.element)", type: .dynamic, targets: ["\#(n.swiftModule)"]),
            ],
            targets: [
                // Framelab's plugin ABI (a header) and Swift plugin kit, copied by `framelab plugins new`.
                .target(name: "CFramelabPlugin"),
                .target(name: "FramelabPluginKit", dependencies: ["CFramelabPlugin"]),
                .target(name: "\#(n.swiftModule)", dependencies: ["FramelabPluginKit"]),
            ],
            swiftLanguageModes: [.v6]
        )

        """#
    }

    private static func entry(_ n: PluginSkeletonNames, kind: PluginSkeletonKind) -> String {
        let list = kind == .filter ? "filters" : "detectors"
        return #"""
            let plugin = PluginExport(name: "\#(n.element)", \#(list): [\#(n.swiftType).self])

            /// The one symbol Framelab looks up.
            @_cdecl("framelab_plugin_entry")
            public func framelabPluginEntry(_ hostMajor: UInt32, _ hostMinor: UInt32) -> UnsafeRawPointer? {
                plugin.entry
            }

            """#
    }

    private static func swiftFilter(_ n: PluginSkeletonNames) -> String {
        #"""
        // The Framelab filter `\#(n.element)`, written by `framelab plugins new`: adds `offset` to
        // every colour channel, clamped to 0...255; alpha is kept.
        import FramelabPluginKit

        final class \#(n.swiftType): FramelabFilterPlugin {
            static let name = "\#(n.element)"
            static let version = "0.1.0"
            static let summary = "adds an offset to every colour channel (brighter or darker), alpha kept"
            static let formats: [PluginPixelFormat] = [.gray8, .bgr8, .bgra8]
            static let parameters: [PluginParameter] = [
                // Read in init with values.int; .float parameters with values.double.
                .int("offset", -255...255, default: 40, "added to every colour channel, clamped to 0..255"),
            ]

            private let offset: Int

            init(_ values: PluginValues) throws {
                offset = values.int("offset")  // the host has checked the range
            }

            func process(_ input: PluginImage, into output: PluginImage) throws {
                let hasAlpha = input.format == .bgra8
                input.withRows(as: UInt8.self, and: output) { _, src, dst in
                    for i in 0..<src.count {
                        dst[i] = hasAlpha && i % 4 == 3 ? src[i] : UInt8(clamping: Int(src[i]) + offset)
                    }
                }
            }
        }

        \#(entry(n, kind: .filter))
        """#
    }

    private static func swiftDetector(_ n: PluginSkeletonNames) -> String {
        #"""
        // The Framelab detector `\#(n.element)`, written by `framelab plugins new`: one box, the
        // centred square whose side is `size` times the shorter image side, scored by its mean
        // gray level (0...1). Replace it with a real search.
        import FramelabPluginKit

        final class \#(n.swiftType): FramelabDetectorPlugin {
            static let name = "\#(n.element)"
            static let version = "0.1.0"
            static let summary = "one centred square box scored by its mean brightness (a skeleton to replace)"
            // The host converts colour frames to gray8 for a detector that declares only gray8.
            static let formats: [PluginPixelFormat] = [.gray8]
            static let parameters: [PluginParameter] = [
                // A .float parameter is read with values.double; .int with values.int.
                .float("size", 0.05...1, default: 0.5, "the box's side as a share of the shorter image side"),
            ]

            private let size: Double

            init(_ values: PluginValues) throws {
                size = values.double("size")  // the host has checked the range
            }

            func detect(_ input: PluginImage) throws -> [PluginDetection] {
                guard input.width > 0, input.height > 0 else { return [] }
                let side = max(1, Int(size * Double(min(input.width, input.height))))
                let left = (input.width - side) / 2, top = (input.height - side) / 2
                var sum = 0
                input.withRows(as: UInt8.self) { y, row in
                    guard y >= top && y < top + side else { return }
                    for x in left..<(left + side) { sum += Int(row[x]) }
                }
                return [PluginDetection(x: Double(left), y: Double(top), width: Double(side), height: Double(side),
                                        score: Double(sum) / (Double(side * side) * 255))]
            }
        }

        \#(entry(n, kind: .detector))
        """#
    }
}
