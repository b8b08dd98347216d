#if canImport(Glibc)
import Glibc
#endif

/// Framelab times one core per detector or filter call and scales with its own workers
/// (`--workers`), so the thread pools third-party libraries start on their own are held to
/// one thread, unless the user sets them: OpenBLAS (dlib's MMOD network; loaded with
/// OpenCV before `main`, so it is told through its own call) and any OpenMP runtime loaded
/// later (it reads OMP_NUM_THREADS as it loads). An OpenMP runtime already loaded with
/// OpenCV has read its environment before this; the libfacedetection plugin sets its thread
/// count per call instead (`threads`, default 1). OpenCV's pool is set per command
/// (`OpenCVThreads`).
enum LibraryThreads {
    static func limitToOne() {
        setenv("OMP_NUM_THREADS", "1", 0)
        // The program's own handle looks the symbol up in every library loaded with it.
        guard getenv("OPENBLAS_NUM_THREADS") == nil, let program = dlopen(nil, RTLD_NOW),
              let symbol = dlsym(program, "openblas_set_num_threads") else { return }
        typealias SetThreads = @convention(c) (Int32) -> Void
        unsafeBitCast(symbol, to: SetThreads.self)(1)
    }
}
