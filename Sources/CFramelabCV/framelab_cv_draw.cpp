// Drawing for detection overlays (see framelab_cv_draw.h). No C++ exception crosses into Swift.
#include "framelab_cv_draw.h"
#include "bridge_errors.hpp"
#include "bridge_image.hpp"

#include <opencv2/imgproc.hpp>

using fl_bridge::guarded;

namespace {
cv::Scalar scalar(const double c[4]) { return cv::Scalar(c[0], c[1], c[2], c[3]); }
}

int fl_cv_draw_rect(const fl_image *image, int x, int y, int width, int height,
                    const double color[4], int thickness, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        cv::Mat m = fl_bridge::header(image);
        cv::rectangle(m, cv::Rect(x, y, width, height), scalar(color), thickness, cv::LINE_8);
        return FL_CV_OK;
    });
}

int fl_cv_draw_circle(const fl_image *image, int cx, int cy, int radius,
                      const double color[4], int thickness, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        cv::Mat m = fl_bridge::header(image);
        cv::circle(m, cv::Point(cx, cy), radius, scalar(color), thickness, cv::LINE_AA);
        return FL_CV_OK;
    });
}
