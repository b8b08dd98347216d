import CFramelabCV
import FramelabCore

/// One output of a network run: its layer name, its shape and its values (row-major).
public struct DNNTensor: Sendable {
    public let name: String
    public let shape: [Int]
    public let values: [Float]

    public init(name: String, shape: [Int], values: [Float]) {
        self.name = name
        self.shape = shape
        self.values = values
    }

    /// The value at a full index (one position per dimension); nil when out of range.
    public subscript(_ index: Int...) -> Float? {
        guard index.count == shape.count else { return nil }
        var offset = 0
        for (i, size) in zip(index, shape) {
            guard i >= 0, i < size else { return nil }
            offset = offset * size + i
        }
        return values[offset]
    }
}

/// A network run by OpenCV's dnn module on the CPU (framelab_dnn.h): Caffe or ONNX files in,
/// float tensors out. Not thread-safe — one instance per thread, as for every detector.
public final class DNNNetwork {
    private let handle: OpaquePointer
    /// The file(s) it was loaded from, for messages.
    public let files: [String]

    /// A Caffe network: the text description and the binary weights. The error names the
    /// file that is missing, truncated or of another kind.
    public init(caffePrototxt prototxt: String, caffemodel: String) throws {
        files = [prototxt, caffemodel]
        handle = try cvOpen("cannot load the Caffe network") { fl_dnn_load_caffe(prototxt, caffemodel, $0, $1) }
    }

    /// An ONNX network; the error names the file.
    public init(onnx path: String) throws {
        files = [path]
        handle = try cvOpen("cannot load the ONNX network") { fl_dnn_load_onnx(path, $0, $1) }
    }

    deinit { fl_dnn_free(handle) }

    /// The output layer names, in the order `forward` returns them.
    public var outputNames: [String] {
        (0..<Int(fl_dnn_output_count(handle))).map { String(cString: fl_dnn_output_name(handle, Int32($0))) }
    }

    private var context: String { "network '\(files.last ?? "")'" }

    /// Runs the network on `image` made into a blob (`cv::dnn::blobFromImage`): resized to
    /// `width` x `height`, `(pixel - mean) * scale` per channel (B, G, R order; R, G, B when
    /// `swapRB`), NCHW. Returns every output.
    public func forward(image: Mat, width: Int, height: Int, scale: Double = 1, mean: (Double, Double, Double) = (0, 0, 0),
                        swapRB: Bool = false) throws -> [DNNTensor] {
        guard let w = Int32(exactly: width), let h = Int32(exactly: height), w > 0, h > 0 else {
            throw FramelabError(.badInput, "\(context): input size \(width)x\(height) is not positive")
        }
        let means = [mean.0, mean.1, mean.2]
        try image.withFLImage { img in
            try means.withUnsafeBufferPointer { m in
                try cvCall(context) {
                    fl_dnn_set_image_input(handle, img, w, h, scale, m.baseAddress, swapRB ? 1 : 0, $0, $1)
                }
            }
        }
        return try runForward()
    }

    /// Runs the network on a float tensor of `shape` (`values.count` must be its product).
    public func forward(tensor values: [Float], shape: [Int]) throws -> [DNNTensor] {
        let sizes = shape.compactMap { Int32(exactly: $0) }
        guard sizes.count == shape.count, !shape.isEmpty, shape.allSatisfy({ $0 > 0 }),
              shape.reduce(1, { $0.multipliedReportingOverflow(by: $1).partialValue }) == values.count else {
            throw FramelabError(.badInput, "\(context): tensor shape \(shape) does not hold \(values.count) values")
        }
        _ = try values.withUnsafeBufferPointer { v in
            try sizes.withUnsafeBufferPointer { s in
                try cvCall(context) {
                    fl_dnn_set_tensor_input(handle, v.baseAddress, s.baseAddress, Int32(s.count), $0, $1)
                }
            }
        }
        return try runForward()
    }

    private func runForward() throws -> [DNNTensor] {
        try cvCall(context) { fl_dnn_forward(handle, $0, $1) }
        return (0..<fl_dnn_output_count(handle)).map { i in
            var dims = [Int32](repeating: 0, count: 8)
            let n = Int(fl_dnn_output_shape(handle, i, &dims, 8))
            let shape = dims.prefix(min(n, 8)).map { Int($0) }
            let count = shape.isEmpty ? 0 : shape.reduce(1, *)
            var values: [Float] = []
            if count > 0, let data = fl_dnn_output_data(handle, i) {
                values = Array(UnsafeBufferPointer(start: data, count: count))
            }
            return DNNTensor(name: String(cString: fl_dnn_output_name(handle, i)), shape: shape, values: values)
        }
    }
}
