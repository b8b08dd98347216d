import Foundation
import FramelabTestSupport
import Testing

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT stop `run` after the frame in progress with the
/// record kept (exit 128 + the signal); a second signal stops at once, even in a plugin
/// that hangs, leaving a file plain h5py opens; a hung isolated worker is killed when the
/// run is asked to stop (issue: SIGQUIT did not stop a run, SIGINT twice did not stop a
/// hung in-process plugin, SIGINT did not stop a run whose isolated plugin hung).
@Suite struct SignalTests {
    /// Starts `framelab arguments`, waits until its run has flushed `rows` frames.
    static func start(_ arguments: [String], out: String, rows: Int = 3) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.framelabBinary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let seen = try TestSupport.waitForRows(rows, table: "frames", in: out, timeoutSeconds: 120)
        if seen.status != 0 { kill(process.processIdentifier, SIGKILL) }
        try #require(seen.status == 0, "\(seen.stderr)")
        return process
    }

    /// Waits up to `seconds` for the process to end; kills it (and fails) otherwise.
    static func wait(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }
        return true
    }

    /// The run's status and frame count, read with plain h5py (no swmr=True).
    static func plainRead(_ out: String, run: String) throws -> String {
        let py = try TestSupport.python("""
            import sys, h5py
            r = h5py.File(sys.argv[1], "r")["runs"][sys.argv[2]]
            print(r.attrs["status"], len(r["frames"]))
            """, arguments: [out, run])
        #expect(py.status == 0, "\(py.stderr)")
        return py.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129)), (SIGQUIT, Int32(131))])
    func eachStopSignalEndsTheRunWithItsCodeAndKeepsTheRecord(signal: Int32, code: Int32) throws {
        let dir = try TestSupport.makeTemporaryDirectory("signals")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("s.h5").path
        let process = try Self.start(["run", "--source", "synthetic:64x48@100", "--out", out, "--run-id", "s", "--quiet"], out: out)
        kill(process.processIdentifier, signal)
        #expect(Self.wait(process, seconds: 30), "the run did not stop")
        #expect(process.terminationReason == .exit && process.terminationStatus == code)
        let fields = try Self.plainRead(out, run: "s").split(separator: " ")
        #expect(fields.first == "interrupted" && (Int(fields.last ?? "") ?? 0) >= 3, "\(fields)")
    }

    @Test func aSecondSIGINTStopsAHungInProcessPluginAtOnce() throws {
        let dir = try TestSupport.makeTemporaryDirectory("signals")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plugin = try PluginBuilder.broken("HANG_ON_FRAMES", in: dir)
        let out = dir.appendingPathComponent("h.h5").path
        // The first calls pass (the trial's among them), call 5 never returns.
        let process = try Self.start(["run", "--source", "synthetic:64x48@200", "--policy", "keep-all", "--plugin-path", plugin,
                                      "--filter", "broken", "--out", out, "--run-id", "h", "--quiet"], out: out, rows: 2)
        kill(process.processIdentifier, SIGINT)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(process.isRunning, "the hung plugin should hold the run after one SIGINT")
        kill(process.processIdentifier, SIGINT)
        #expect(Self.wait(process, seconds: 10), "a second SIGINT did not stop the run")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let fields = try Self.plainRead(out, run: "h").split(separator: " ")
        #expect(fields.first == "interrupted" && (Int(fields.last ?? "") ?? 0) >= 2, "\(fields)")
    }

    @Test func aHungIsolatedWorkerIsKilledWhenTheRunIsAskedToStop() throws {
        let dir = try TestSupport.makeTemporaryDirectory("signals")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plugin = try PluginBuilder.broken("HANG_ON_FRAMES", in: dir)
        let out = dir.appendingPathComponent("w.h5").path
        let process = try Self.start(["run", "--source", "synthetic:64x48@200", "--policy", "keep-all", "--plugin-path", plugin,
                                      "--filter", "broken", "--isolate", "--plugin-timeout", "600000",
                                      "--out", out, "--run-id", "w", "--quiet"], out: out, rows: 3)
        kill(process.processIdentifier, SIGINT)
        // One signal: the worker is killed after the grace period, its frame fails, the run ends.
        #expect(Self.wait(process, seconds: 20), "SIGINT did not stop a run whose isolated plugin hangs")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let fields = try Self.plainRead(out, run: "w").split(separator: " ")
        #expect(fields.first == "interrupted" && (Int(fields.last ?? "") ?? 0) >= 3, "\(fields)")
    }
}
