import Foundation
import FramelabCore

/// What every harness shares: the input as bytes, text or a file, and the one property
/// every parser must have — bad input ends in a `FramelabError` whose message is one line
/// (and, for a file, names it); anything else (a trap, another error type, a message
/// spanning lines) stops the fuzzer with the input saved.
enum FuzzInput {
    /// This process's scratch folder (fuzz jobs run side by side), removed at exit.
    static let folder: String = {
        let f = (NSTemporaryDirectory() as NSString).appendingPathComponent("framelab-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FuzzInput.folder) }
        return f
    }()

    static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The input as text (invalid UTF-8 repaired), for parsers of command-line strings.
    static func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }

    /// Writes the input to `name` inside the scratch folder (subfolders made) and returns the path.
    static func file(_ data: UnsafePointer<UInt8>, _ size: Int, name: String) -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else {
            fatalError("fuzz harness: cannot write '\(path)'")
        }
        return path
    }

    /// Runs `parse`; success or a one-line FramelabError (containing `naming`, when given) is fine.
    /// `oneLine: false` for errors that quote command-line text verbatim (what the user typed).
    static func check(naming: String? = nil, oneLine: Bool = true, _ parse: () throws -> Void) {
        do {
            try parse()
        } catch let e as FramelabError {
            if oneLine, e.message.contains(where: \.isNewline) { fatalError("error message spans lines: \(e.message)") }
            if let naming, !e.message.contains(naming) { fatalError("error message does not name '\(naming)': \(e.message)") }
        } catch {
            fatalError("not a FramelabError: \(type(of: error)) \(error)")
        }
    }
}
