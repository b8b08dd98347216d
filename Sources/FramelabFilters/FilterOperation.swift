import FramelabCore
import FramelabKernels

/// An image's format and size.
public typealias ImageShape = (format: PixelFormat, width: Int, height: Int)

/// One filter operation: a type that holds what every path needs (docs/architecture.md,
/// "How to add a filter operation"):
/// - how a recipe may fuse it with its neighbours (`fusion`);
/// - its output shape for an input, which also says which formats it accepts;
/// - through `kernel(for:kernels:)`, its three implementations for one input shape and
///   kernel level: the scalar reference (the definition of correct), the vector kernels
///   of the level (`applyVector`, the one vector entry point) and its OpenCV reference.
///
/// The operation is a value, made from a filter's parameters (`FilterDescriptor`); a
/// `Recipe` holds operations and fuses them without pixel work.
public protocol FilterOperation: Sendable {
    /// How a recipe may fuse this operation.
    var fusion: Fusion { get }
    /// The output format and size for an input, or nil when the input format is not accepted.
    func outputShape(format: PixelFormat, width: Int, height: Int) -> ImageShape?
    /// Why OpenCV has no reference for this operation (nil when it has one).
    var missingOpenCVReason: String? { get }
    /// What `Recipe.explain` calls this operation in a pass.
    var planLabel: String { get }
    /// The operation made ready for inputs of one shape at one kernel level: tables,
    /// weights, layers and scratch are made here once, so frames of that shape allocate
    /// nothing.
    func kernel(for input: ImageShape, kernels: KernelTable) -> any OperationKernel
}

/// How a recipe may fuse an operation (`RecipePlan`).
public enum Fusion: Sendable {
    /// Each output pixel from the same input pixel. Same format: runs in place on the rows
    /// a pass has just written, and neighbours may compose into one step. One that changes
    /// the format (luma into gray8) ends its pass.
    case perPixel(any PerPixelOperation)
    /// Each output pixel sampled at a mapped position: consecutive resamplings compose into
    /// one; starts a pass.
    case resampling(any ResamplingOperation)
    /// Each output pixel from a neighbourhood of input pixels: needs the whole input, so it
    /// starts a pass (after a full-frame intermediate), and runs a whole band at a time.
    case neighbourhood
    /// An image made from parameters alone (the input's size): starts a pass.
    case generator
    /// The input combined pixel by pixel with generated layers: starts a pass.
    case compositing
}

/// An operation made ready for one input shape at one kernel level (see `FilterOperation`).
/// One instance serves one filter or one recipe pass; its bands may run on several threads
/// at once (`applyVector` with distinct `band`s, after `prepare(bands:)`).
public protocol OperationKernel: AnyObject {
    /// The scalar reference: plain loops in Double, the whole image.
    func applyScalar(_ input: Mat, into output: Mat)
    /// The vector kernels of the level on output rows `rows`; `band` (the thread's index)
    /// picks its own scratch memory. One thread's calls may cover rows that are not
    /// adjacent (`RowParallel` hands out pieces), except for a `.neighbourhood` operation,
    /// which gets one band per thread. For per-pixel operations of one format, `input` may
    /// be `output`.
    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int)
    /// The same operation through OpenCV; an `.unsupported` error where there is none.
    func applyOpenCV(_ input: Mat, into output: Mat) throws
    /// Called on the calling thread before `bands` bands start.
    func prepare(bands: Int)
    /// Rows of an output `height` rows high that repeat others (a generator's symmetry),
    /// which a recipe copies instead of computing; nil for most operations.
    func rowMirror(height: Int) -> RowMirror?
}

extension OperationKernel {
    public func prepare(bands: Int) {}
    public func rowMirror(height: Int) -> RowMirror? { nil }
}

extension FilterOperation {
    public var missingOpenCVReason: String? { nil }

    /// Input formats accepted (for listings and error messages).
    public var acceptedFormats: [PixelFormat] {
        PixelFormat.allCases.filter { outputShape(format: $0, width: 1, height: 1) != nil }
    }

    /// The error an OpenCV reference throws when there is none.
    func noOpenCV() -> FramelabError {
        FramelabError(.unsupported, "no OpenCV reference path (\(missingOpenCVReason ?? "none"))")
    }
}

/// A per-pixel operation (`Fusion.perPixel`).
public protocol PerPixelOperation: FilterOperation {
    /// True for a step into another format (luma into gray8): it ends its recipe pass.
    var endsPass: Bool { get }
    /// This operation after `previous` as one operation (matrices compose, curves fold into
    /// one table), or nil when the two do not compose.
    func composed(after previous: any PerPixelOperation) -> (any PerPixelOperation)?
    /// When this operation and `next` can run in one loop over each row of `format`: how
    /// `explain` describes that loop (nil: they run one after the other).
    func sharedLoop(with next: any PerPixelOperation, format: PixelFormat) -> String?
    /// The kernel running this operation then `next` in one loop (only when `sharedLoop`
    /// said so).
    func sharedLoopKernel(with next: any PerPixelOperation, for input: ImageShape, kernels: KernelTable) -> any OperationKernel
}

extension PerPixelOperation {
    public var endsPass: Bool { false }
    public func composed(after previous: any PerPixelOperation) -> (any PerPixelOperation)? { nil }
    public func sharedLoop(with next: any PerPixelOperation, format: PixelFormat) -> String? { nil }
    public func sharedLoopKernel(with next: any PerPixelOperation, for input: ImageShape,
                                 kernels: KernelTable) -> any OperationKernel {
        preconditionFailure("\(Self.self) shares no loop with \(type(of: next))")
    }
}

/// A resampling (`Fusion.resampling`): a warp chosen from the input size.
public protocol ResamplingOperation: FilterOperation {
    /// The concrete warp for an input size.
    func warp(width: Int, height: Int) -> Warp
}

/// The output shape of operations that keep format and size and take bgra8 or bgr8.
func sameColorShape(_ format: PixelFormat, _ width: Int, _ height: Int) -> ImageShape? {
    format == .bgra8 || format == .bgr8 ? (format, width, height) : nil
}

/// An operation whose kernel needs nothing made per shape but the level's table: its
/// three paths are methods of its own, and `PlainKernel` hands them the table.
protocol PlainOperation: FilterOperation {
    func applyScalar(_ input: Mat, into output: Mat)
    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, kernels: KernelTable)
    func applyOpenCV(_ input: Mat, into output: Mat) throws
    func rowMirror(height: Int) -> RowMirror?
}

extension PlainOperation {
    func rowMirror(height: Int) -> RowMirror? { nil }

    func kernel(for input: ImageShape, kernels: KernelTable) -> any OperationKernel {
        PlainKernel(self, kernels: kernels)
    }
}

/// The kernel of a `PlainOperation`: the operation and the level's table.
final class PlainKernel<Operation: PlainOperation>: OperationKernel {
    let operation: Operation
    let kernels: KernelTable

    init(_ operation: Operation, kernels: KernelTable) {
        self.operation = operation
        self.kernels = kernels
    }

    func applyScalar(_ input: Mat, into output: Mat) { operation.applyScalar(input, into: output) }

    func applyVector(_ input: Mat, into output: Mat, rows: Range<Int>, band: Int) {
        operation.applyVector(input, into: output, rows: rows, kernels: kernels)
    }

    func applyOpenCV(_ input: Mat, into output: Mat) throws { try operation.applyOpenCV(input, into: output) }

    func rowMirror(height: Int) -> RowMirror? { operation.rowMirror(height: height) }
}
