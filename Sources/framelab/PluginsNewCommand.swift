import ArgumentParser
import Foundation
import FramelabCore
import FramelabDetection
import FramelabFilters
import FramelabPluginHost

/// `framelab plugins new NAME --lang c|cpp|swift|python --kind filter|detector`: writes a project
/// folder outside the repository that builds with one command (Python: none) and passes `plugins check`.
struct PluginsNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a plugin project (C, C++17, Swift or Python; a filter or a detector) that builds with one command.",
        discussion: """
            The folder (--out, else ./NAME) gets the element's source, a README with the next commands, and \
            a build file: a Makefile (`make`, C11 or C++17, with framelab_plugin.h copied into include/) or a \
            Package.swift (`swift build -c release`, with Framelab's Swift plugin kit copied beside the \
            source); a Python element is one NAME.py that Framelab runs as it is (numpy arrays in, no build). The copies make the project build anywhere, with no Framelab checkout and no network. \
            The filter adds an offset to every colour channel; the detector returns one centred box scored by \
            its brightness: both pass `framelab plugins check` as written. A folder that exists and is not empty is never written into.
            """)

    @Argument(help: "The element's name (letters, digits, '-' and '_', starting with a letter): --filter NAME, libNAME.so.")
    var name: String

    @Option(name: .long, help: "The language: c, cpp (C++17), swift or python.")
    var lang: PluginLanguage

    @Option(name: .long, help: "What the element is: filter or detector.")
    var kind: PluginSkeletonKind

    @Option(name: .long, help: "The folder to write (made if missing; must be empty if it exists). Default: ./NAME.")
    var out: String?

    @Flag(name: .long, help: "Print what was written as JSON (folder, files, build command, library, next commands).")
    var json = false

    func run() throws {
        let names: PluginSkeletonNames
        do { names = try PluginSkeletonNames(name, kind: kind) } catch { throw failure(error) }
        if BuiltInFilters.all.contains(where: { $0.name == name }) || DetectorRegistry.builtIns[name] != nil {
            throw failure(FramelabError(.badInput, "plugin name '\(name)' is a built-in element's name; plugins may not reuse it"))
        }
        let folder = out ?? name
        do {
            let skeleton = try makeSkeleton(names)
            try checkEmptyFolder(folder)
            try write(skeleton, into: folder)
            try report(skeleton, names: names, folder: folder)
        } catch let error as FramelabError {
            throw failure(error)
        }
    }

    private func makeSkeleton(_ names: PluginSkeletonNames) throws -> PluginSkeleton {
        switch lang {
        case .c, .cpp:
            guard let include = PluginSDK.includeFolder() else {
                throw FramelabError(.io, "cannot find \(PluginSDK.headerName) near this framelab executable (framelab plugins sdk looks in the same places)")
            }
            let header = include + "/" + PluginSDK.headerName
            return lang == .c ? .c(names, kind: kind, header: header) : .cpp(names, kind: kind, header: header)
        case .swift:
            guard let kit = PluginSDK.swiftKitFolders(),
                  let files = try? FileManager.default.contentsOfDirectory(atPath: kit.kit).filter({ $0.hasSuffix(".swift") }).sorted(),
                  !files.isEmpty else {
                throw FramelabError(.io, "cannot find the Swift plugin kit (Sources/FramelabPluginKit of the Framelab checkout this framelab was built in) near this framelab executable")
            }
            return .swift(names, kind: kind, kit: kit, kitFiles: files)
        case .python:
            return .python(names, kind: kind)
        }
    }

    /// A folder that exists must be an empty folder: nobody's files are overwritten.
    private func checkEmptyFolder(_ folder: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw FramelabError(.badInput, "--out '\(folder)' exists and is not a folder") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard entries.isEmpty else {
            throw FramelabError(.badInput, "'\(folder)' exists and is not empty; give another folder with --out, or remove it")
        }
    }

    /// Writes every file into a staging folder beside `folder`, then renames it into place:
    /// a write that fails partway (a full disk, a read-only file) leaves no half-written
    /// project behind, only the one-line error.
    private func write(_ skeleton: PluginSkeleton, into folder: String) throws {
        let manager = FileManager.default
        let parent = (folder as NSString).deletingLastPathComponent
        let staging = (parent.isEmpty ? "." : parent) + "/.\((folder as NSString).lastPathComponent).partial-\(getpid())"
        func prepare(_ relative: String) throws -> String {
            let path = staging + "/" + relative
            try manager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return path
        }
        do {
            if !parent.isEmpty { try manager.createDirectory(atPath: parent, withIntermediateDirectories: true) }
            try? manager.removeItem(atPath: staging)
            try manager.createDirectory(atPath: staging, withIntermediateDirectories: false)
            for file in skeleton.files {
                try writeWholeFile(Array(file.text.utf8), to: try prepare(file.path))
            }
            for copy in skeleton.copies {
                // Written as new files (not copied with their mode): a read-only checkout stays editable here.
                let data = try Data(contentsOf: URL(fileURLWithPath: copy.from))
                try writeWholeFile(Array(data), to: try prepare(copy.to))
            }
            // checkEmptyFolder allowed an existing folder only when empty: replace it.
            if manager.fileExists(atPath: folder) { try manager.removeItem(atPath: folder) }
            try manager.moveItem(atPath: staging, toPath: folder)
        } catch {
            try? manager.removeItem(atPath: staging)
            // The system's reason, without the staging folder's name the user never asked for.
            let reason = (error as? FramelabError).map { $0.message.components(separatedBy: "': ").last ?? $0.message }
                ?? error.localizedDescription
            throw FramelabError(.io, "cannot write the plugin project into '\(folder)': \(reason)")
        }
    }

    private struct Written: Encodable {
        let folder: String
        let files: [String]
        let build: String
        let library: String
        let next: [String]
    }

    private func report(_ skeleton: PluginSkeleton, names: PluginSkeletonNames, folder: String) throws {
        let files = (skeleton.files.map(\.path) + skeleton.copies.map(\.to)).sorted()
        let next = PluginSkeleton.nextSteps(names: names, kind: kind, build: skeleton.buildCommand, library: skeleton.library)
        if json {
            try printJSON(Written(folder: folder, files: files, build: skeleton.buildCommand, library: skeleton.library, next: next))
            return
        }
        print("wrote \(lang.rawValue) \(kind.rawValue) '\(name)' into \(folder)/ (\(files.count) files); next:")
        print("  cd \(folder)")
        for step in next { print("  " + step) }
    }
}
