// framelab-plugin-bench: the host's per-frame cost of calling a do-nothing plugin versus
// a do-nothing built-in at 640x480 BGRA, in-process and isolated (worker process, shared
// memory), and of a do-nothing element written in Python (through the Python bridge, numpy
// views of the frames) next to the C one, measured side by side in one run. Warm-up, then
// repeated batches; min and median.
//
//   swift build -c release --product framelab-plugin-bench && bash scripts/build-plugins.sh
//   .build/release/framelab-plugin-bench [PATH/TO/libframelab-c-invert.so [PATH/TO/elements.py]]
import FramelabCore
import FramelabElements
import FramelabFilters
import FramelabPipeline
import FramelabPluginHost
import FramelabRecording
#if canImport(Glibc)
import Glibc
#endif

/// The do-nothing built-in: a FrameFilter that hands its input back.
final class PassThrough: FrameFilter {
    let name = "pass-through"
    func outputFormat(for input: PixelFormat) -> PixelFormat? { input }
    func process(_ input: Mat) throws -> Mat { input }
}

struct Measurement {
    let label: String
    let nanoseconds: [Double]  // per call, one per batch
    var minimum: Double { nanoseconds.min()! }
    var median: Double { SampleStatistics(nanoseconds).percentile(50) }
}

/// Per-call nanoseconds of `body` over `batches` batches of `calls` calls, after a warm-up batch.
func measure(_ label: String, calls: Int, batches: Int, _ body: () throws -> Void) rethrows -> Measurement {
    for _ in 0..<max(1, calls / 10) { try body() }
    var perCall: [Double] = []
    for _ in 0..<batches {
        let start = MonotonicClock.now()
        for _ in 0..<calls { try body() }
        perCall.append(Double(MonotonicClock.now() - start) / Double(calls))
    }
    return Measurement(label: label, nanoseconds: perCall)
}

func fail(_ message: String) -> Never {
    let line = "framelab-plugin-bench: error: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
let pluginPath = arguments.first ?? ".build/plugins/libframelab-c-invert.so"
let library: PluginLibrary
do {
    library = try PluginLibrary(path: pluginPath)
} catch {
    fail("\(error) (run scripts/build-plugins.sh first)")
}
guard let noop = library.elements.first(where: { $0.info.name == "noop" }) else {
    fail("\(pluginPath) has no 'noop' element")
}
let pythonPath = arguments.dropFirst().first ?? "Plugins/python-example/elements.py"
let pythonNoop: PluginElement
do {
    guard let found = try PluginLibrary(path: pythonPath).elements.first(where: { $0.info.name == "py-noop" }) else {
        fail("\(pythonPath) has no 'py-noop' element")
    }
    pythonNoop = found
} catch {
    fail("\(error) (scripts/build-plugins.sh builds the Python bridge)")
}

let (width, height) = (640, 480)
let image = Mat(format: .bgra8, width: width, height: height)
let frame = Frame(index: 0, pts: 0, arrival: 0, image: image)
let builtIn = FilterStage(PassThrough(), acceptedFormats: [.bgra8])
let inProcess = FilterStage(try PluginFilter(element: noop, values: ParameterValues([:])), acceptedFormats: [.bgra8])
let pythonInProcess = FilterStage(try PluginFilter(element: pythonNoop, values: ParameterValues([:])), acceptedFormats: [.bgra8])
let isolatedFilter = try IsolatedPluginFilter(element: noop, values: ParameterValues([:]))
let isolated = FilterStage(isolatedFilter, acceptedFormats: [.bgra8])
var sharedFrame = frame
sharedFrame.image = try isolatedFilter.sharedInputImage(format: .bgra8, width: width, height: height)
let copyTarget = Mat(format: .bgra8, width: width, height: height)
// As `run --isolate` does: frames and the stage's output in one shared arena.
let arena = try SharedFrameArena(capacity: 256 << 20)
let arenaFilter = try IsolatedPluginFilter(element: noop, values: ParameterValues([:]), options: IsolationOptions(arena: arena))
let arenaStage = FilterStage(arenaFilter, acceptedFormats: [.bgra8])
var arenaFrame = frame
arenaFrame.image = arena.makeImage(format: .bgra8, width: width, height: height)!

var sink = 0  // keeps results observable so no call is optimised away
let fast = 200_000, slow = 2_000, batches = 15
let results = [
    try measure("built-in pass-through (FilterStage)", calls: fast, batches: batches) { sink &+= try builtIn.process(frame).index },
    try measure("plugin noop, in-process", calls: fast, batches: batches) { sink &+= try inProcess.process(frame).index },
    try measure("plugin noop, isolated, frame in its input slot", calls: slow, batches: batches) {
        sink &+= try isolated.process(sharedFrame).index
    },
    try measure("plugin noop, isolated, frame in the run arena", calls: slow, batches: batches) {
        sink &+= try arenaStage.process(arenaFrame).index
    },
    try measure("plugin noop, isolated, frame copied in", calls: slow / 2, batches: batches) {
        sink &+= try isolated.process(frame).index
    },
    measure("memcpy of one 640x480 BGRA frame (1.2 MB)", calls: slow, batches: batches) { copyTarget.copyPixels(from: image) },
    try measure("Python py-noop, in-process (numpy views)", calls: slow * 10, batches: batches) {
        sink &+= try pythonInProcess.process(frame).index
    },
]

print("CPU: \(HostInfo.cpuModel)")
print("Per-frame call cost at \(width)x\(height) bgra8, \(batches) batches (min / median ns per call)")
for r in results {
    print(r.label.padding(toLength: 48, withPad: " ", startingAt: 0)
          + String(format: "%10.1f %10.1f", r.minimum, r.median))
}
let base = results[0]
func overhead(_ r: Measurement) -> String {
    String(format: "%.3f µs (min), %.3f µs (median)", (r.minimum - base.minimum) / 1000, (r.median - base.median) / 1000)
}
print("")
print("overhead vs built-in, in-process:               " + overhead(results[1]) + "   goal < 1 µs")
print("overhead vs built-in, isolated (input slot):     " + overhead(results[2]) + "   goal < 50 µs")
print("overhead vs built-in, isolated (run arena):      " + overhead(results[3]) + "   goal < 50 µs")
print("overhead vs built-in, isolated with copy-in:    " + overhead(results[4]))
print("overhead vs built-in, Python in-process:         " + overhead(results[6]) + "   goal ≤ 20 µs")
print(String(format: "Python no-op vs C no-op, in-process:            %.2f µs vs %.3f µs (min), %.2f µs vs %.3f µs (median)",
             results[6].minimum / 1000, results[1].minimum / 1000, results[6].median / 1000, results[1].median / 1000))
print(String(format: "isolated (shared memory) / memcpy of the frame:  %.2f (median)", results[2].median / results[5].median))
print("input copies: \(arenaFilter.inputCopies) in the arena variant, \(isolatedFilter.inputCopies) in the others (only copy-in copies)")
if sink == Int.min { print(sink) }
