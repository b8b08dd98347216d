import ArgumentParser
import FramelabCore

/// The languages `plugins new` writes a project in.
enum PluginLanguage: String, CaseIterable, ExpressibleByArgument {
    case c, cpp, swift, python
}

/// The element kinds `plugins new` writes a skeleton for.
enum PluginSkeletonKind: String, CaseIterable, ExpressibleByArgument {
    case filter, detector
}

/// The names one skeleton uses, all derived from the element name the user gives.
struct PluginSkeletonNames {
    /// The element's name (`--filter NAME`), also the plugin's, the library's (`libNAME.so`,
    /// for Python the file's `NAME.py`) and, for Swift, the package's and the product's.
    let element: String
    /// The Swift class: the name in UpperCamelCase, ending in Filter or Detector.
    let swiftType: String
    /// The Swift module holding the class (never one of the kit's two module names).
    var swiftModule: String { swiftType + "Plugin" }
    var library: String { "lib\(element).so" }

    /// Letters, digits, '-' and '_', starting with a letter: valid as an element name, a
    /// file name, a make target and a SwiftPM product name, and turned into a Swift type.
    static let maximumLength = 64

    init(_ name: String, kind: PluginSkeletonKind) throws {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic, allowed,
              name.count <= Self.maximumLength else {
            throw FramelabError(.badInput, "plugin name '\(name)': use letters, digits, '-' and '_', starting with a letter, "
                                + "at most \(Self.maximumLength) characters (e.g. my-filter)")
        }
        element = name
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let camel = words.joined()
        let suffix = kind == .filter ? "Filter" : "Detector"
        swiftType = camel.hasSuffix(suffix) ? camel : camel + suffix
    }
}

/// A project `plugins new` writes: files with their text, files copied from the Framelab
/// checkout or SDK (the plugin header, for Swift the plugin kit), the one build command and
/// the library it produces, relative to the project folder.
struct PluginSkeleton {
    var files: [(path: String, text: String)]
    var copies: [(from: String, to: String)]
    let buildCommand: String
    let library: String

    /// What to type next, for the README and the command's output: build, check, run.
    static func nextSteps(names: PluginSkeletonNames, kind: PluginSkeletonKind, build: String, library: String) -> [String] {
        let folder = library.contains("/") ? String(library[..<library.lastIndex(of: "/")!]) : "."
        let use = kind == .filter ? "--filter \(names.element)" : "--detector \(names.element)"
        return (build.isEmpty ? [] : [build]) + [
            "framelab plugins check \(library)",
            "framelab plugins describe \(names.element) --plugin-path \(folder)",
            "framelab run --plugin-path \(folder) --source synthetic:640x480@30 --frames 90 \(use) --snapshot shots --snapshot-every 30",
        ]
    }

    /// The README every project gets: what the element does and the commands above.
    static func readme(names: PluginSkeletonNames, kind: PluginSkeletonKind, language: String, does: String,
                       build: String, library: String, layout: String) -> String {
        let steps = nextSteps(names: names, kind: kind, build: build, library: library)
        return """
            # \(names.element)

            A Framelab \(kind.rawValue) plugin in \(language), written by `framelab plugins new`.
            \(does)

            ```sh
            \(steps.joined(separator: "\n"))
            ```

            \(build.isEmpty ? "There is nothing to build." : "`\(build)` builds `\(library)`.") `framelab plugins check` loads it in a worker process,
            validates its description and test-runs the element on a synthetic frame in every
            format it accepts. Framelab does not search the working folder for plugins: name the
            file or its folder with `--plugin-path` (or `$FRAMELAB_PLUGIN_PATH`).

            \(layout)

            Framelab's docs/plugins.md describes the contract (framelab_plugin.h) in full.

            """
    }
}
