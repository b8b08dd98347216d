import Foundation

/// Helpers shared by Framelab's test targets: scratch folders, the package root, the
/// built `framelab` binary and the venv's Python.
public enum TestSupport {
    /// The package root, found from this file's path (Tests/FramelabTestSupport/…).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A new empty folder under the system's temporary directory.
    public static func makeTemporaryDirectory(_ label: String = "framelab-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The Python that has h5py: $FRAMELAB_PYTHON, else the package's .venv.
    public static var python: String {
        ProcessInfo.processInfo.environment["FRAMELAB_PYTHON"]
            ?? packageRoot.appendingPathComponent(".venv/bin/python").path
    }

    /// The `framelab` executable: $FRAMELAB_BIN, else next to the test bundle.
    public static var framelabBinary: String {
        if let bin = ProcessInfo.processInfo.environment["FRAMELAB_BIN"] { return bin }
        // Test bundles and executables share the build products folder.
        var dir = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("framelab")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            dir.deleteLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/release/framelab").path
    }

    public struct ProcessResult: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        /// True when the process was ended by a signal.
        public let signalled: Bool
    }

    /// Runs a program to completion and captures its output.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil,
                           environment: [String: String]? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so neither fills up and blocks the child.
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errData.isSet { usleep(1000) }
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData.get(), as: UTF8.self),
                             signalled: process.terminationReason == .uncaughtSignal)
    }

    /// Runs `framelab` with the given arguments.
    @discardableResult
    public static func framelab(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        try run(framelabBinary, arguments, environment: environment)
    }

    /// Runs a Python snippet with the venv's Python (h5py available); returns its stdout.
    public static func python(_ script: String, arguments: [String] = []) throws -> ProcessResult {
        try run(python, ["-c", script] + arguments)
    }

    /// Reads an HDF5 file while another process writes it (SWMR, h5py) until the first run's
    /// `table` holds at least `rows` rows; prints that count and exits 0, or exits non-zero
    /// naming what never arrived after `timeoutSeconds`. For kill-the-writer tests.
    public static func waitForRows(_ rows: Int, table: String, in path: String,
                                   timeoutSeconds: Int) throws -> ProcessResult {
        try self.python("""
            import sys, time, h5py
            table, wanted = sys.argv[2], int(sys.argv[3])
            deadline = time.monotonic() + \(timeoutSeconds)
            while time.monotonic() < deadline:
                try:
                    with h5py.File(sys.argv[1], "r", swmr=True) as f:
                        runs = list(f["runs"].keys())
                        if runs and table in f["runs"][runs[0]] and len(f["runs"][runs[0]][table]) >= wanted:
                            print(len(f["runs"][runs[0]][table])); sys.exit(0)
                except (OSError, KeyError):
                    pass
                time.sleep(0.1)
            sys.exit(f"the writer never flushed {wanted} rows of {table}")
            """, arguments: [path, table, String(rows)])
    }

    /// What `killFramelabAfterRows` saw: the SWMR watcher's result, whether the writer
    /// ended by the signal, and how many rows the watcher counted before the kill.
    public struct KilledWriter {
        public let watch: ProcessResult
        public let endedBySignal: Bool
        public var seen: Int { Int(watch.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Int.max }
    }

    /// Starts `framelab arguments` (output discarded), waits until `table` of the run it
    /// writes into `path` holds `rows` rows (`waitForRows`), then SIGKILLs it.
    public static func killFramelabAfterRows(_ arguments: [String], rows: Int, table: String, in path: String,
                                             timeoutSeconds: Int) throws -> KilledWriter {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: framelabBinary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed on every way out, so a watcher that fails to start leaves no writer running.
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        let watch = try waitForRows(rows, table: table, in: path, timeoutSeconds: timeoutSeconds)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return KilledWriter(watch: watch, endedBySignal: process.terminationReason == .uncaughtSignal)
    }
}

/// A Data box written by one thread and read by another.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return data != nil }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data ?? Data() }
}
