#if canImport(Glibc)
import Glibc
#endif
import FramelabCore

/// The host's side of one plugin worker: a child process that loads one element, maps
/// the shared memory and answers requests. A crash, an exit or a reply later than the
/// timeout is reported as an error and leaves the client dead (`isRunning` false).
final class PluginWorkerClient {
    /// Milliseconds allowed for the worker to load the plugin and create the instance.
    static let startTimeoutMilliseconds = 10_000

    let element: PluginElement
    private let child: ChildProcess
    /// The host's end of the socket pair; the worker has the other as its fds 0 and 1.
    private let channel: Int32
    private(set) var isRunning = true
    private var message = [UInt8](repeating: 0, count: WorkerResponse.maximumMessage)

    /// The worker's fd for the run's frame arena, when there is one.
    static let arenaDescriptor: Int32 = 4

    init(element: PluginElement, arguments: [String], shared: SharedMemoryFile, arena: SharedFrameArena?) throws {
        self.element = element
        let channel = try FileDescriptorIO.makeChannel()
        defer { close(channel.worker) }  // only the worker keeps its end
        do {
            child = try ChildProcess(
                executable: try IsolationEnvironment.workerExecutable(),
                arguments: [element.info.path, element.info.name] + arguments,
                descriptors: [(0, channel.worker), (1, channel.worker), (3, shared.fd)]
                    + (arena.map { [(Self.arenaDescriptor, $0.file.fd)] } ?? []),
                // A crashing plugin is expected here: the host reports it in one line, so the
                // Swift runtime's multi-page backtrace of the worker would only be noise.
                environment: ["SWIFT_BACKTRACE=enable=no"]
                    + (arena.map { ["FRAMELAB_WORKER_ARENA_SIZE=\($0.mapping.size)"] } ?? []))
        } catch {
            close(channel.host)
            throw error
        }
        self.channel = channel.host
        // The worker answers once when the instance exists (or says why it does not).
        _ = try receive(timeout: Self.startTimeoutMilliseconds, doing: "starting")
    }

    deinit {
        close(channel)
        child.kill()
    }

    /// Sends one request and waits for its answer.
    /// `text` (setParameter's `name=value`) follows the header in the same packet.
    func call(_ request: WorkerRequest, text: String = "", timeout: Int) throws -> WorkerResponse {
        guard isRunning else { throw FramelabError(.processing, "element \(element.label): worker is not running") }
        var r = request
        let bytes = Array(text.utf8)
        guard bytes.count <= WorkerRequest.maximumText else {
            throw FramelabError(.badInput, "element \(element.label): a parameter change of \(bytes.count) bytes (at most \(WorkerRequest.maximumText))")
        }
        r.textLength = Int32(bytes.count)
        var packet = withUnsafeBytes(of: &r) { Array($0) }
        packet += bytes
        let sent = try packet.withUnsafeBytes { try FileDescriptorIO.send(channel, from: $0.baseAddress!, count: $0.count) }
        guard sent else { throw died(doing: "receiving a frame") }
        let doing: String
        switch WorkerRequest.Operation(rawValue: request.operation) {
        case .detect: doing = "detecting"
        case .setParameter: doing = "changing a parameter"
        default: doing = "processing a frame"
        }
        return try receive(timeout: timeout, doing: doing)
    }

    private func receive(timeout: Int, doing: String) throws -> WorkerResponse {
        guard try FileDescriptorIO.waitReadable(channel, milliseconds: timeout) else {
            isRunning = false
            child.kill()
            throw FramelabError(.processing,
                "element \(element.label): timed out after \(timeout) ms while \(doing); the worker was killed")
        }
        var header = WorkerResponse()
        let result = try withUnsafeMutableBytes(of: &header) {
            try FileDescriptorIO.read(channel, into: $0.baseAddress!, count: $0.count)
        }
        guard result == .complete else { throw died(doing: doing) }
        let length = Int(max(0, min(header.messageLength, Int32(WorkerResponse.maximumMessage))))
        if length > 0 {
            let r = try message.withUnsafeMutableBytes { try FileDescriptorIO.read(channel, into: $0.baseAddress!, count: length) }
            guard r == .complete else { throw died(doing: doing) }
        }
        if header.status != 0 {
            let text = String(decoding: message[0..<length], as: UTF8.self)
            throw FramelabError(header.status == -2 ? .unsupported : .processing, text)
        }
        return header
    }

    private func died(doing: String) -> FramelabError {
        isRunning = false
        let how = child.wait()
        return FramelabError(.processing, "element \(element.label): the worker \(how) while \(doing)")
    }
}
