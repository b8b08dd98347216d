#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FramelabCore

/// The worker side of discovery: `framelab-plugin-worker --discover PATH [--trials-from N]`.
///
/// Loads the file in this throw-away process — running its constructors and its entry
/// function — validates the description and sends the verdict as one JSON line on
/// `responses`; with `--trials-from N`, then test-runs elements N… in this process (it is
/// the sandbox) and sends one line per element. A crash, exit or hang ends only this
/// process; the host (`PluginInspector`) turns that into words.
enum PluginDiscoveryWorker {
    static func main(path: String, trialsFrom: Int?, responses: Int32) -> Int32 {
        let library: PluginLibrary
        do {
            library = try PluginLibrary(path: path)
        } catch {
            let message = (error as? FramelabError)?.message ?? "\(path): \(error)"
            // dlopen's own failures (a dependency library missing) may be fixed without
            // touching the file; the rest is the file's content. A Python file's failure may
            // be a module not installed yet: never kept either.
            let environmental = PythonBridge.isPythonFile(path)
                || message.contains(": cannot load as a shared library: ") && ELFFileCheck.problem(path) == nil
            send(DiscoveryMessage(verdict: .rejected(message, cacheable: !environmental)), to: responses)
            return 0
        }
        var verdict = PluginFileVerdict(libraryName: library.name, abiVersion: library.abiVersion)
        verdict.elements = library.elements.map { PluginElementRecord($0.info) }
        send(DiscoveryMessage(verdict: verdict), to: responses)
        guard let trialsFrom else { return 0 }
        for element in library.elements.dropFirst(trialsFrom) {
            var failure = ""
            do {
                try PluginTrial.run(element, isolated: false)
            } catch {
                failure = (error as? FramelabError)?.message ?? "element \(element.label): \(error)"
                if failure.isEmpty { failure = "element \(element.label): failed without a message" }
            }
            send(DiscoveryMessage(trialElement: element.info.name, trialFailure: failure), to: responses)
        }
        return 0
    }

    private static func send(_ message: DiscoveryMessage, to fd: Int32) {
        guard var bytes = try? JSONEncoder().encode(message) else { return }
        bytes.append(UInt8(ascii: "\n"))
        _ = try? bytes.withUnsafeBytes { try FileDescriptorIO.send(fd, from: $0.baseAddress!, count: $0.count) }
    }
}
