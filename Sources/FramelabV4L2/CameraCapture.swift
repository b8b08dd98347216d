import CV4L2
import FramelabCore
import FramelabCV

#if canImport(Glibc)
import Glibc
#endif

/// One frame from a camera, converted to BGRA8.
public struct CapturedFrame {
    public let image: Mat
    /// The driver's sequence number (a gap means the driver had no free buffer).
    public let sequence: UInt32
    /// The driver's timestamp (monotonic nanoseconds, when the frame started arriving).
    public let driverTimestampNs: UInt64
    /// When Framelab dequeued it (monotonic nanoseconds).
    public let arrivalNs: UInt64
}

/// An open camera: capabilities checked, format negotiated, buffers mapped, streaming.
/// Frames come out as BGRA8, rotated and mirrored as requested.
public final class CameraCapture {
    public let path: String
    public let request: CameraRequest
    public let capabilities: V4L2Capabilities
    public let offers: [FormatOffer]
    public let grant: CameraGrant
    private let device: V4L2Device
    private let stream: V4L2Stream
    private let nativeFormat: v4l2_format
    private let converter: OpaquePointer
    /// Reused every frame: the converted BGR image and, when oriented, its rotated copy.
    private let bgr: Mat
    private let oriented: Mat?
    /// Output frames' pixel buffers, recycled once the pipeline lets go of a frame.
    private let pool: FramePool
    public private(set) var framesDelivered = 0

    public init(path: String, request: CameraRequest) throws {
        self.path = path
        self.request = request
        do {
            device = try V4L2Device(path: path)
            capabilities = try device.capabilities()
            guard capabilities.canCapture else { throw CameraErrors.notCapture(path, capabilities) }
            guard capabilities.canStream else { throw CameraErrors.noStreaming(path) }
            offers = try device.formatOffers()
            let choice = try CameraNegotiation.choose(request, from: offers, path: path)
            (grant, nativeFormat) = try CameraNegotiation.apply(choice, buffers: request.buffers, on: device)
            stream = try V4L2Stream(device: device, count: request.buffers)
            guard let converter = fl_v4l2_converter_create(device.fd) else {
                throw FramelabError(.io, "camera '\(path)': libv4lconvert could not be set up")
            }
            self.converter = converter
            try stream.start()
        } catch let error as V4L2CallError {
            throw CameraErrors.explain(error)
        }
        bgr = Mat(format: .bgr8, width: grant.width, height: grant.height)
        let swaps = request.orientation == 90 || request.orientation == 270
        oriented = request.orientation == 0 && !request.mirror ? nil
            : Mat(format: .bgr8, width: swaps ? grant.height : grant.width, height: swaps ? grant.width : grant.height)
        pool = FramePool(format: .bgra8, width: oriented?.width ?? grant.width, height: oriented?.height ?? grant.height)
    }

    /// Output buffers allocated so far (flat once the pipeline is in steady state).
    public var outputBufferCount: Int { pool.bufferCount }

    deinit {
        stream.stop()
        fl_v4l2_converter_destroy(converter)
    }

    /// Size of the frames delivered (after rotation).
    public var outputSize: (width: Int, height: Int) {
        oriented.map { ($0.width, $0.height) } ?? (grant.width, grant.height)
    }

    /// Waits for the next frame; on a timeout restarts the stream and waits again, up to
    /// `request.retries` times, then throws. Throws a disconnect message when the device is gone.
    public func next() throws -> CapturedFrame {
        var timeouts = 0
        while true {
            let filled: V4L2Stream.Filled?
            do {
                switch try device.waitForFrame(timeoutMilliseconds: request.timeoutMilliseconds) {
                case .timedOut:
                    timeouts += 1
                    guard timeouts <= request.retries else {
                        throw CameraErrors.timedOut(path, waitedMilliseconds: request.timeoutMilliseconds,
                                                    attempts: timeouts, frames: framesDelivered)
                    }
                    try restart()
                    continue
                case .ready, .hungUp:
                    // DQBUF says precisely what went wrong after a hang-up (ENODEV when unplugged).
                    filled = try stream.dequeue()
                }
            } catch let error as V4L2CallError {
                throw CameraErrors.explain(error, frames: framesDelivered)
            }
            guard let filled else { continue }
            let arrival = MonotonicClock.now()
            defer { try? stream.requeue(filled.index) }
            let image = try convert(filled)
            framesDelivered += 1
            return CapturedFrame(image: image, sequence: filled.sequence, driverTimestampNs: filled.timestampNs,
                                 arrivalNs: arrival)
        }
    }

    /// STREAMOFF, requeue every buffer, STREAMON: what a driver that stalled usually needs.
    private func restart() throws(V4L2CallError) {
        stream.stop()
        for index in stream.buffers.indices { try stream.requeue(index) }
        try stream.start()
    }

    private func convert(_ filled: V4L2Stream.Filled) throws -> Mat {
        var format = nativeFormat
        let written = try bgr.withUnsafeMutableBytes { dst in
            try stream.withBytes(filled.index, count: filled.bytesUsed) { src in
                try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { err in
                    err.initialize(repeating: 0)
                    let n = fl_v4l2_convert_to_bgr24(converter, &format, src.baseAddress, src.count,
                                                     dst.baseAddress, dst.count, err.baseAddress, err.count)
                    if n < 0 {
                        throw FramelabError(.corrupt, "camera '\(path)': frame \(filled.sequence) could not be "
                            + "converted from \(grant.format): \(String(cString: err.baseAddress!))")
                    }
                    return Int(n)
                }
            }
        }
        guard written >= bgr.rowBytes * bgr.height else {
            throw FramelabError(.corrupt, "camera '\(path)': frame \(filled.sequence) converted to \(written) bytes, "
                + "expected \(bgr.rowBytes * bgr.height)")
        }
        var source = bgr
        if let oriented {
            try bgr.orient(into: oriented, degrees: request.orientation, mirror: request.mirror)
            source = oriented
        }
        let out = pool.takeUninitialised()
        try source.convert(into: out)
        return out
    }
}
