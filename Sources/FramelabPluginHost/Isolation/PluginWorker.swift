#if canImport(Glibc)
import Glibc
#endif
import CFramelabPlugin
import FramelabCore
import FramelabDetection
import FramelabElements

/// The child side of isolation: `framelab-plugin-worker PATH ELEMENT [key=value …]`
/// (and of discovery: `--discover PATH`, see `PluginDiscoveryWorker`).
///
/// Loads one element, creates one instance, then answers requests read from fd 0 on
/// fd 1, with pixels in the shared memory at fd 3. Standard output is pointed at standard
/// error first, so a plugin's printf cannot corrupt the replies.
public enum PluginWorker {
    static let sharedMemoryDescriptor: Int32 = 3

    public static func main(_ arguments: [String]) -> Int32 {
        // The worker is the sandbox: its crashes are reported by the host, not by the guard.
        PluginCrashGuard.forgo()
        ParentWatch.start()
        let requests = dup(0), responses = dup(1)
        dup2(2, 1)
        if arguments.first == "--discover", arguments.count == 2 || arguments.count == 4 {
            let from = arguments.count == 4 && arguments[2] == "--trials-from" ? Int(arguments[3]) : nil
            return PluginDiscoveryWorker.main(path: arguments[1], trialsFrom: from, responses: responses)
        }
        guard arguments.count >= 2 else {
            printError("usage: framelab-plugin-worker PLUGIN.so ELEMENT [key=value ...]")
            return 64
        }
        let session: Session
        do {
            session = try Session(path: arguments[0], element: arguments[1], arguments: Array(arguments.dropFirst(2)))
        } catch {
            reply(responses, WorkerResponse(status: -1), message: "\(error)")
            return 1
        }
        reply(responses, WorkerResponse(status: 0), message: "")
        var request = WorkerRequest()
        while true {
            let r = try? withUnsafeMutableBytes(of: &request) {
                try FileDescriptorIO.read(requests, into: $0.baseAddress!, count: $0.count)
            }
            guard r == .complete else { return 0 }  // the host is gone or done
            var text = ""
            if request.textLength > 0 {
                guard request.textLength <= WorkerRequest.maximumText else { return 1 }
                var bytes = [UInt8](repeating: 0, count: Int(request.textLength))
                let t = try? bytes.withUnsafeMutableBytes { try FileDescriptorIO.read(requests, into: $0.baseAddress!, count: $0.count) }
                guard t == .complete else { return 0 }
                text = String(decoding: bytes, as: UTF8.self)
            }
            do {
                let response = try session.handle(request, text: text)
                reply(responses, response, message: "")
            } catch {
                let kind = (error as? FramelabError)?.kind
                reply(responses, WorkerResponse(status: kind == .unsupported ? -2 : -1), message: "\(error)")
            }
        }
    }

    private static func reply(_ fd: Int32, _ header: WorkerResponse, message: String) {
        let bytes = Array(message.utf8.prefix(WorkerResponse.maximumMessage))
        var h = header
        h.messageLength = Int32(bytes.count)
        var packet = withUnsafeBytes(of: &h) { Array($0) }
        packet += bytes
        _ = try? packet.withUnsafeBytes { try FileDescriptorIO.send(fd, from: $0.baseAddress!, count: $0.count) }
    }

    private static func printError(_ text: String) {
        let line = "framelab-plugin-worker: \(text)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    /// One loaded element and its instance, plus the current shared mapping.
    final class Session {
        let library: PluginLibrary
        let element: PluginElement
        let filter: PluginFilter?
        let detector: PluginDetector?
        var mapping: SharedMapping?
        /// The run's frame arena, mapped once at start when the host has one.
        let arena: SharedMapping?

        init(path: String, element name: String, arguments: [String]) throws {
            library = try PluginLibrary(path: path)
            guard let element = library.elements.first(where: { $0.info.name == name }) else {
                throw FramelabError(.badInput, "\(path) has no element '\(name)'")
            }
            self.element = element
            if let size = getenv("FRAMELAB_WORKER_ARENA_SIZE").flatMap({ Int(String(cString: $0)) }) {
                arena = try SharedMapping(fd: PluginWorkerClient.arenaDescriptor, size: size)
            } else {
                arena = nil
            }
            let pairs = try arguments.map { text -> (key: String, value: String) in
                guard let eq = text.firstIndex(of: "=") else { throw FramelabError(.badInput, "worker argument '\(text)' is not key=value") }
                return (String(text[..<eq]), String(text[text.index(after: eq)...]))
            }
            let values = try element.values(for: ElementSpec(name: name, arguments: pairs))
            filter = element.info.kind == .filter ? try PluginFilter(element: element, values: values) : nil
            detector = element.info.kind == .detector ? try PluginDetector(element: element, values: values) : nil
        }

        func handle(_ request: WorkerRequest, text: String) throws -> WorkerResponse {
            if request.operation == WorkerRequest.Operation.setParameter.rawValue {
                guard let eq = text.firstIndex(of: "=") else { throw FramelabError(.processing, "worker got a malformed parameter change") }
                let tunable: any TunableElement = filter ?? detector!
                try tunable.setParameter(String(text[..<eq]), to: String(text[text.index(after: eq)...]))
                return WorkerResponse(instancesCreated: Int32(filter?.instancesCreated ?? detector!.instancesCreated))
            }
            let size = Int(request.mappedSize)
            if size > 0 && mapping?.size != size {
                mapping = nil
                mapping = try SharedMapping(fd: PluginWorker.sharedMemoryDescriptor, size: size)
            }
            let input = try image(request.input)
            if let filter {
                let out = try image(request.output)
                let result = try filter.process(input, into: out, canary: try canary(after: request.output, spare: request.outputSpare),
                                                stamp: request.stamp)
                if result.sharesPixels(with: input) { return WorkerResponse(passThrough: 1) }
                // The plugin answered from its own memory: copy into the slot (the rare path).
                if !result.sharesPixels(with: out) { out.copyPixels(from: result) }
                return WorkerResponse()
            }
            let found = try detector!.detect(input, stamp: request.stamp)
            let capacity = Int(request.detectionCapacity)
            guard let map = mapping, Int(request.detectionOffset) + capacity * MemoryLayout<fl_plugin_detection>.stride <= map.size else {
                throw FramelabError(.processing, "worker got a malformed detection slot")
            }
            let room = (map.base + Int(request.detectionOffset)).bindMemory(to: fl_plugin_detection.self, capacity: capacity)
            for (i, d) in found.prefix(capacity).enumerated() { room[i] = d.cValue }
            return WorkerResponse(detectionCount: Int32(min(found.count, capacity)))
        }

        /// The canary in the spare bytes the host left after the output slot, if it left enough.
        private func canary(after slot: SlotImage, spare: Int64) throws -> OutputCanary? {
            guard spare >= OutputCanary.byteCount, let map = slot.region == 1 ? arena : mapping else { return nil }
            let end = slot.offset + slot.stride * Int64(slot.height)
            guard end + Int64(OutputCanary.byteCount) <= Int64(map.size) else {
                throw FramelabError(.processing, "worker got a malformed output slot")
            }
            return OutputCanary(after: map.base + Int(slot.offset), stride: Int(slot.stride), height: Int(slot.height))
        }

        private func image(_ slot: SlotImage) throws -> Mat {
            guard let map = slot.region == 1 ? arena : mapping, let format = PixelFormat(rawValue: slot.format), slot.width > 0, slot.height > 0,
                  slot.offset >= 0, slot.offset + slot.stride * Int64(slot.height) <= Int64(map.size) else {
                throw FramelabError(.processing, "worker got a malformed image slot")
            }
            return map.image(offset: Int(slot.offset), format: format, width: Int(slot.width),
                             height: Int(slot.height), stride: Int(slot.stride))
        }
    }
}
