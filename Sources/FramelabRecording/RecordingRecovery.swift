import CHDF5
import FramelabCore
#if canImport(Glibc)
import Glibc
#endif

/// `framelab recover`: makes a file a killed writer left behind readable by every HDF5
/// reader again. A writer killed in SWMR mode leaves the file marked "open for writing"
/// (plain h5py, pandas and h5ls then refuse it until `h5clear -s`) and its run marked
/// `running`. Opening the file for recording repairs both; this says what it found.
public enum RecordingRecovery {
    public struct Report: Sendable {
        public var path: String
        /// The file was marked "open for writing" (a plain read-only open failed).
        public var clearedWriteMarks: Bool
        /// Runs left `running`, now `interrupted`.
        public var interruptedRuns: [String]
        /// For those runs: table name → rows at its end that were counted but never written.
        public var unwrittenRowsCut: [String: [String: Int]]
        public var nothingToDo: Bool { !clearedWriteMarks && interruptedRuns.isEmpty }
    }

    /// Repairs `path` in place. A file another Framelab is writing is refused (its
    /// writer lock is held), as is anything that is not a Framelab recording.
    public static func recover(path: String) throws -> Report {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FramelabError(.io, "cannot recover HDF5 file '\(path)': \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FramelabError(.badInput, "cannot recover '\(path)': not a regular file")
        }
        let strictOpenFails = !opensPlainly(path)
        let file = try RecordingFile(path: path)
        let interrupted = file.interruptedOnOpen
        let cut = file.unwrittenRowsCutOnOpen
        file.close()
        guard opensPlainly(path) else {
            throw FramelabError(.io, "cannot recover HDF5 file '\(path)': it still does not open read-only after repair")
        }
        return Report(path: path, clearedWriteMarks: strictOpenFails, interruptedRuns: interrupted, unwrittenRowsCut: cut)
    }

    /// True when a plain read-only open succeeds, as it must for h5py without `swmr=True`.
    public static func opensPlainly(_ path: String) -> Bool {
        HDF5.locked {
            guard let handle = try? H5File.open(path, .strictRead) else {
                _ = HDF5.takeErrorMessage()
                return false
            }
            _ = handle.close()
            return true
        }
    }
}
