import FramelabCore

/// The fixed-size messages host and worker exchange over pipes; pixels never travel
/// here, only offsets into the shared memory both map. Both sides are the same build,
/// so the structs are sent as their raw bytes.
struct SlotImage {
    /// Which shared memory the offset is in: the stage's own (0) or the run's frame arena (1).
    var region: Int32 = 0
    var offset: Int64 = 0
    var format: Int32 = 0
    var width: Int32 = 0
    var height: Int32 = 0
    var stride: Int64 = 0
}

struct WorkerRequest {
    /// setParameter: `name=value` text of `textLength` bytes follows this header.
    enum Operation: Int32 { case process = 1, detect = 2, setParameter = 3 }
    var operation: Int32 = 0
    /// Bytes of the stage's shared memory the worker must have mapped (0: not used).
    var mappedSize: Int64 = 0
    var input = SlotImage()
    var output = SlotImage()
    /// Spare bytes after the output image (stride × height), for the worker's `OutputCanary`
    /// (0: none, unchecked).
    var outputSpare: Int64 = 0
    /// Where detections go and how many fit.
    var detectionOffset: Int64 = 0
    var detectionCapacity: Int32 = 0
    /// The frame's place in its stream (`FrameStamp`), when `hasStamp` is 1.
    var hasStamp: Int32 = 0
    var frameIndex: Int64 = 0
    var pts: Int64 = 0
    var arrival: UInt64 = 0
    /// Bytes of text after the header (setParameter), at most `maximumText`.
    var textLength: Int32 = 0

    static let maximumText = 4096

    var stamp: FrameStamp? {
        get { hasStamp == 1 ? FrameStamp(index: Int(truncatingIfNeeded: frameIndex), pts: pts, arrival: arrival) : nil }
        set {
            hasStamp = newValue == nil ? 0 : 1
            frameIndex = Int64(newValue?.index ?? 0)
            pts = newValue?.pts ?? 0
            arrival = newValue?.arrival ?? 0
        }
    }
}

struct WorkerResponse {
    var status: Int32 = 0
    /// 1 when the filter passed its input through unchanged.
    var passThrough: Int32 = 0
    var detectionCount: Int32 = 0
    /// Bytes of message text following this header.
    var messageLength: Int32 = 0
    /// setParameter: instances the worker has created so far (1 while changes are taken live).
    var instancesCreated: Int32 = 0

    /// Longest message a worker sends.
    static let maximumMessage = 1024
}
