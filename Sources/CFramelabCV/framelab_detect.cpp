// The rest of framelab_detect.h that needs only imgproc (resize, OpenCV's thread count);
// the detectors themselves are in the on-demand library (CFramelabCVOnDemand).
#include "framelab_detect.h"
#include "bridge_errors.hpp"
#include "bridge_image.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

using fl_bridge::guarded;
using fl_bridge::header;
using fl_bridge::set_error;

extern "C" {

int fl_cv_resize(const fl_image *src, const fl_image *dst, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        if (src->format != dst->format) { set_error(err, err_len, "resize: formats differ"); return FL_CV_ERROR; }
        cv::Mat in = header(src), out = header(dst);
        bool shrinking = dst->width < src->width && dst->height < src->height;
        cv::resize(in, out, out.size(), 0, 0, shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
        return FL_CV_OK;
    });
}

void fl_cv_set_num_threads(int threads) { cv::setNumThreads(threads); }
int fl_cv_get_num_threads(void) { return cv::getNumThreads(); }

} // extern "C"
