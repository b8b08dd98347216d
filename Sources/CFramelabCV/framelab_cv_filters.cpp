// OpenCV reference operations for the built-in filters (see framelab_cv_filters.h).
// As in framelab_cv.cpp, no C++ exception crosses into Swift.
#include "framelab_cv_filters.h"
#include "bridge_errors.hpp"
#include "bridge_image.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

// A header over the caller's memory; throws on an unknown format.
cv::Mat over(const fl_image *image) {
    if (fl_bridge::cv_type(image->format) < 0) {
        throw std::runtime_error("unknown pixel format " + std::to_string(image->format));
    }
    return fl_bridge::header(image);
}

using fl_bridge::guarded;
using fl_bridge::set_error;

// Checks that OpenCV wrote into the caller's memory rather than a fresh buffer.
int same_buffer(const cv::Mat &out, const void *before, char *err, size_t err_len) {
    if (out.data == before) return FL_CV_OK;
    set_error(err, err_len, "OpenCV reallocated the destination (shape mismatch)");
    return FL_CV_ERROR;
}

} // namespace

extern "C" {


int fl_cv_transform(const fl_image *src, const fl_image *dst, const double *matrix,
                    char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        cv::Mat in = over(src), out = over(dst);
        int cn = in.channels();
        cv::Mat m(cn, cn + 1, CV_64F, const_cast<double *>(matrix));
        void *before = out.data;
        cv::transform(in, out, m);
        return same_buffer(out, before, err, err_len);
    });
}

int fl_cv_lut(const fl_image *src, const fl_image *dst, const uint8_t *table, char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        cv::Mat in = over(src), out = over(dst);
        cv::Mat lut(1, 256, CV_8UC(in.channels()), const_cast<uint8_t *>(table));
        void *before = out.data;
        cv::LUT(in, lut, out);
        return same_buffer(out, before, err, err_len);
    });
}

int fl_cv_warp_affine(const fl_image *src, const fl_image *dst, const double m[6], char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        cv::Mat in = over(src), out = over(dst);
        cv::Mat matrix(2, 3, CV_64F, const_cast<double *>(m));
        void *before = out.data;
        cv::warpAffine(in, out, matrix, out.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
        return same_buffer(out, before, err, err_len);
    });
}

int fl_cv_gaussian_blur(const fl_image *src, const fl_image *dst, int radius, double sigma,
                        char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        cv::Mat in = over(src), out = over(dst);
        void *before = out.data;
        cv::GaussianBlur(in, out, cv::Size(2 * radius + 1, 2 * radius + 1), sigma, sigma, cv::BORDER_REPLICATE);
        return same_buffer(out, before, err, err_len);
    });
}

int fl_cv_resize_filter(const fl_image *src, const fl_image *dst, int method, char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        cv::Mat in = over(src), out = over(dst);
        void *before = out.data;
        cv::resize(in, out, out.size(), 0, 0, method == 1 ? cv::INTER_AREA : cv::INTER_LANCZOS4);
        return same_buffer(out, before, err, err_len);
    });
}

int fl_cv_blend_mask(const fl_image *fg, const fl_image *bg, const fl_image *mask, const fl_image *dst,
                     char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        cv::Mat f = over(fg), b = over(bg), m = over(mask), out = over(dst);
        cv::Mat w1, w2;
        m.convertTo(w1, CV_32F, 1.0 / 255);
        cv::subtract(cv::Scalar::all(1.0), w1, w2);
        void *before = out.data;
        cv::blendLinear(f, b, w1, w2, out);
        return same_buffer(out, before, err, err_len);
    });
}

int fl_cv_source_over(const fl_image *top, const fl_image *bottom, const fl_image *dst,
                      char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        cv::Mat t = over(top), b = over(bottom), out = over(dst);
        cv::Mat alpha, keep;
        cv::extractChannel(t, alpha, 3);
        cv::subtract(cv::Scalar::all(255), alpha, keep);
        std::vector<cv::Mat> planes(b.channels(), keep);
        cv::Mat keepAll, scaled, topPart;
        cv::merge(planes, keepAll);
        cv::multiply(b, keepAll, scaled, 1.0 / 255);
        if (b.channels() == 3) cv::cvtColor(t, topPart, cv::COLOR_BGRA2BGR); else topPart = t;
        void *before = out.data;
        cv::add(topPart, scaled, out);
        return same_buffer(out, before, err, err_len);
    });
}

} // extern "C"
