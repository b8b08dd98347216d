// Camera helpers of the OpenCV bridge: orientation (rotate/mirror) and the highgui
// preview window. Like framelab_cv.cpp, nothing here lets a C++ exception escape.
#include "framelab_cv.h"
#include "bridge_errors.hpp"
#include "bridge_image.hpp"
#include "on_demand.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>


namespace {

using fl_bridge::guarded;
using fl_bridge::set_error;

// A header over an 8-bit image (orientation and preview take no float images).
bool wrap(const fl_image *image, cv::Mat &out) {
    if (image->format == FL_FORMAT_GRAYF32 || fl_bridge::cv_type(image->format) < 0) return false;
    out = fl_bridge::header(image);
    return true;
}

}  // namespace

extern "C" int fl_cv_orient(const fl_image *src, const fl_image *dst, int degrees, int mirror,
                            char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        cv::Mat in, out;
        if (src->format != dst->format || !wrap(src, in) || !wrap(dst, out)) {
            set_error(err, err_len, "orient: 8-bit images of one format only");
            return FL_CV_UNSUPPORTED;
        }
        bool swaps = degrees == 90 || degrees == 270;
        if (out.cols != (swaps ? in.rows : in.cols) || out.rows != (swaps ? in.cols : in.rows)) {
            set_error(err, err_len, "orient: destination has the wrong size");
            return FL_CV_ERROR;
        }
        void *before = out.data;
        switch (degrees) {
        case 0: in.copyTo(out); break;
        case 90: cv::rotate(in, out, cv::ROTATE_90_CLOCKWISE); break;
        case 180: cv::rotate(in, out, cv::ROTATE_180); break;
        case 270: cv::rotate(in, out, cv::ROTATE_90_COUNTERCLOCKWISE); break;
        default:
            set_error(err, err_len, "orient: degrees must be 0, 90, 180 or 270");
            return FL_CV_ERROR;
        }
        if (mirror) cv::flip(out, out, 1);
        return out.data == before ? FL_CV_OK : FL_CV_ERROR;
    });
}

extern "C" int fl_preview_show(const char *name, const fl_image *image, int wait_ms, char *err, size_t err_len) {
    const fl_cv_on_demand *io = nullptr;
    cv::Mat shown;
    int status = guarded(err, err_len, [&]() -> int {
        cv::Mat m;
        if (!wrap(image, m)) return FL_CV_UNSUPPORTED;
        io = fl_bridge::on_demand(err, err_len);
        if (!io) return FL_CV_ERROR;
        // highgui backends differ in what they do with a fourth channel, so they get BGR.
        if (m.channels() == 4) {
            static thread_local cv::Mat bgr;
            cv::cvtColor(m, bgr, cv::COLOR_BGRA2BGR);
            shown = bgr;
        } else {
            shown = m;
        }
        return FL_CV_OK;
    });
    if (status != FL_CV_OK) return status == FL_CV_UNSUPPORTED ? -3 : -2;
    return io->preview_show(name, &shown, wait_ms, err, err_len);
}

extern "C" void fl_preview_close(const char *name) {
    // Nothing to close when no window was ever shown (the library was never loaded).
    if (const fl_cv_on_demand *io = fl_bridge::on_demand_if_loaded()) io->preview_close(name);
}
