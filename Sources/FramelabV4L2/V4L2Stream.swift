import CV4L2

#if canImport(Glibc)
import Glibc
#endif

/// Memory-mapped streaming: buffers requested from the driver, mapped once, queued,
/// and cycled (dequeue, read, requeue) without allocating per frame.
final class V4L2Stream {
    struct MappedBuffer { let start: UnsafeMutableRawPointer; let length: Int }

    /// One filled buffer, on loan until `requeue(_:)`.
    struct Filled {
        let index: Int
        let bytesUsed: Int
        let sequence: UInt32
        /// The driver's timestamp in nanoseconds (CLOCK_MONOTONIC for uvcvideo and most drivers).
        let timestampNs: UInt64
    }

    let device: V4L2Device
    private(set) var buffers: [MappedBuffer] = []
    private(set) var isStreaming = false

    /// Requests `count` buffers (the driver may grant another number), maps and queues them.
    init(device: V4L2Device, count: Int) throws(V4L2CallError) {
        self.device = device
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.ioctl(FL_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        guard request.count > 0 else { throw V4L2CallError(path: device.path, call: "VIDIOC_REQBUFS", code: ENOMEM) }
        do throws(V4L2CallError) {
            for index in 0..<request.count {
                var buffer = Self.emptyBuffer(index: index)
                try device.ioctl(FL_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
                guard let start = fl_v4l2_mmap(device.fd, Int(buffer.length), Int64(buffer.m.offset)) else {
                    throw V4L2CallError(path: device.path, call: "mmap", code: errno)
                }
                buffers.append(MappedBuffer(start: start, length: Int(buffer.length)))
            }
            for index in buffers.indices { try requeue(index) }
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    static func emptyBuffer(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }

    func start() throws(V4L2CallError) {
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try device.ioctl(FL_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        isStreaming = true
    }

    /// Stops streaming; every buffer returns to the application (requeue them to restart).
    func stop() {
        guard isStreaming else { return }
        isStreaming = false
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try? device.ioctl(FL_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
    }

    /// Takes the oldest filled buffer; nil when none is ready yet (EAGAIN).
    func dequeue() throws(V4L2CallError) -> Filled? {
        var buffer = Self.emptyBuffer(index: 0)
        let result = withUnsafeMutablePointer(to: &buffer) { fl_v4l2_ioctl(device.fd, FL_VIDIOC_DQBUF, $0) }
        if result < 0 {
            let code = errno
            if code == EAGAIN { return nil }
            throw V4L2CallError(path: device.path, call: "VIDIOC_DQBUF", code: code)
        }
        let ts = buffer.timestamp
        return Filled(index: Int(buffer.index), bytesUsed: Int(buffer.bytesused), sequence: buffer.sequence,
                      timestampNs: UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_usec) * 1000)
    }

    func requeue(_ index: Int) throws(V4L2CallError) {
        var buffer = Self.emptyBuffer(index: UInt32(index))
        try device.ioctl(FL_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
    }

    /// The bytes of buffer `index`; do not let the pointer escape `body`.
    func withBytes<R>(_ index: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let b = buffers[index]
        return try body(UnsafeRawBufferPointer(start: b.start, count: min(count, b.length)))
    }

    /// Unmaps the buffers and gives them back to the driver.
    private func release() {
        stop()
        for b in buffers { _ = fl_v4l2_munmap(b.start, b.length) }
        if !buffers.isEmpty {
            var request = v4l2_requestbuffers()
            request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            request.memory = V4L2_MEMORY_MMAP.rawValue
            try? device.ioctl(FL_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        }
        buffers.removeAll()
    }
}
