import CFramelabCV

/// OpenCV's own thread pool, used inside single calls (cvtColor, detectMultiScale split rows).
///
/// Framelab starts with it at 1 (see framelab_cv.cpp: FRAMELAB_OPENCV_THREADS overrides),
/// because Framelab parallelises itself and its benchmarks compare one-thread OpenCV.
public enum OpenCVThreads {
    /// Threads OpenCV may use per call.
    public static var count: Int {
        get { Int(fl_cv_get_num_threads()) }
        set { fl_cv_set_num_threads(Int32(newValue)) }
    }
}
