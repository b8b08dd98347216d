// Region masks and pixel counts for the official FDDB protocol (framelab_fddb.h).
//
// The drawing follows FDDB's evaluation program: an ellipse's centre goes through float and
// is rounded, its radii are truncated to integers, and its angle t (radians) becomes
// 180 - (pi - t) * 180 / pi degrees (the program converts on reading and again on drawing);
// a rectangle is drawn from (x, y) to (x + w, y + h), both corners included. Two canvases
// are kept: one face at a time is drawn on the first, each detection whose box meets the
// face's on the second, and only the boxes a region can touch are counted and cleared, so
// an image costs its regions' areas, not faces x detections x canvas.
#include "framelab_fddb.h"
#include "bridge_errors.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using fl_bridge::guarded;
using fl_bridge::set_error;

constexpr double kPi = 3.14159265358979323846;

// The program's cvPointFrom32f(cvPoint2D32f(x, y)): through float, then rounded.
int round_through_float(double value) { return cvRound(static_cast<float>(value)); }

// Why `r` cannot be drawn, or an empty string.
std::string invalid_region(const fl_fddb_region &r) {
    for (double value : r.v) {
        if (!std::isfinite(value)) return "a value is not finite";
    }
    if (r.kind == FL_FDDB_RECTANGLE) return "";
    if (r.kind != FL_FDDB_ELLIPSE) return "unknown region kind " + std::to_string(r.kind);
    const double bound = FL_FDDB_MAX_ELLIPSE_COORDINATE;
    if (r.v[0] < 0 || r.v[1] < 0) return "an ellipse radius is negative";
    if (r.v[0] > bound || r.v[1] > bound || std::fabs(r.v[3]) > bound || std::fabs(r.v[4]) > bound) {
        return "an ellipse's centre or radius is beyond +/-" + std::to_string(FL_FDDB_MAX_ELLIPSE_COORDINATE) + " pixels";
    }
    return "";
}

// A rectangle's two corners as the program rounds them, clamped to one pixel outside the
// canvas (which fills the same pixels and keeps huge values out of OpenCV's arithmetic).
void rectangle_corners(const fl_fddb_region &r, int width, int height, cv::Point &p1, cv::Point &p2) {
    const double far = 1 << 30;
    auto corner = [&](double value, int side) {
        int rounded = round_through_float(std::clamp(value, -far, far));
        return std::clamp(rounded, -1, side);
    };
    p1 = cv::Point(corner(r.v[0], width), corner(r.v[1], height));
    p2 = cv::Point(corner(r.v[0] + r.v[2], width), corner(r.v[1] + r.v[3], height));
}

void draw(cv::Mat &canvas, const fl_fddb_region &r) {
    if (r.kind == FL_FDDB_ELLIPSE) {
        const cv::Point centre(round_through_float(r.v[3]), round_through_float(r.v[4]));
        const cv::Size axes(static_cast<int>(r.v[0]), static_cast<int>(r.v[1]));
        const double read_angle = (kPi - r.v[2]) * 180 / kPi;
        cv::ellipse(canvas, centre, axes, 180 - read_angle, 0, 360, cv::Scalar(255), cv::FILLED, cv::LINE_8);
    } else {
        cv::Point p1, p2;
        rectangle_corners(r, canvas.cols, canvas.rows, p1, p2);
        cv::rectangle(canvas, p1, p2, cv::Scalar(255), cv::FILLED, cv::LINE_8);
    }
}

// The canvas pixels `r` can touch: a rectangle's corners, an ellipse's centre plus its larger
// radius and a margin for rounding (OpenCV fills a polygon whose vertices lie on the ellipse).
cv::Rect reach(const fl_fddb_region &r, int width, int height) {
    cv::Rect box;
    if (r.kind == FL_FDDB_ELLIPSE) {
        const int cx = round_through_float(r.v[3]), cy = round_through_float(r.v[4]);
        const int extent = std::max(static_cast<int>(r.v[0]), static_cast<int>(r.v[1])) + 3;
        box = cv::Rect(cx - extent, cy - extent, 2 * extent + 1, 2 * extent + 1);
    } else {
        cv::Point p1, p2;
        rectangle_corners(r, width, height, p1, p2);
        box = cv::Rect(std::min(p1.x, p2.x), std::min(p1.y, p2.y), std::abs(p2.x - p1.x) + 1, std::abs(p2.y - p1.y) + 1);
    }
    return box & cv::Rect(0, 0, width, height);
}

// Pixels set in both canvases inside `area`.
int64_t count_both(const cv::Mat &a, const cv::Mat &b, const cv::Rect &area) {
    int64_t count = 0;
    for (int y = area.y; y < area.y + area.height; y++) {
        const uint8_t *pa = a.ptr<uint8_t>(y) + area.x;
        const uint8_t *pb = b.ptr<uint8_t>(y) + area.x;
        for (int x = 0; x < area.width; x++) count += (pa[x] != 0) & (pb[x] != 0);
    }
    return count;
}

std::string check_canvas(int32_t width, int32_t height) {
    if (width < 1 || height < 1) {
        return "canvas " + std::to_string(width) + "x" + std::to_string(height) + " is empty";
    }
    if (static_cast<int64_t>(width) * height > FL_FDDB_MAX_CANVAS_PIXELS) {
        return "canvas " + std::to_string(width) + "x" + std::to_string(height) + " has more than " +
               std::to_string(FL_FDDB_MAX_CANVAS_PIXELS) + " pixels";
    }
    return "";
}

} // namespace

extern "C" int fl_fddb_overlaps(int32_t width, int32_t height,
                                const fl_fddb_region *faces, int32_t n_faces,
                                const fl_fddb_region *detections, int32_t n_detections,
                                int64_t *face_pixels, int64_t *detection_pixels, int64_t *intersections,
                                char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        std::string why = check_canvas(width, height);
        if (why.empty() && (n_faces < 0 || n_detections < 0)) why = "negative region count";
        for (int32_t i = 0; why.empty() && i < n_faces; i++) {
            std::string bad = invalid_region(faces[i]);
            if (!bad.empty()) why = "face " + std::to_string(i) + ": " + bad;
        }
        for (int32_t i = 0; why.empty() && i < n_detections; i++) {
            std::string bad = invalid_region(detections[i]);
            if (!bad.empty()) why = "detection " + std::to_string(i) + ": " + bad;
        }
        if (!why.empty()) {
            set_error(err, err_len, why);
            return static_cast<int>(FL_CV_ERROR);
        }

        cv::Mat face_canvas = cv::Mat::zeros(height, width, CV_8U);
        cv::Mat detection_canvas = cv::Mat::zeros(height, width, CV_8U);
        std::vector<cv::Rect> detection_reach(n_detections);
        for (int32_t d = 0; d < n_detections; d++) {
            detection_reach[d] = reach(detections[d], width, height);
            draw(detection_canvas, detections[d]);
            cv::Mat touched = detection_canvas(detection_reach[d]);
            detection_pixels[d] = touched.empty() ? 0 : cv::countNonZero(touched);
            touched.setTo(0);
        }
        for (int32_t f = 0; f < n_faces; f++) {
            const cv::Rect face_reach = reach(faces[f], width, height);
            draw(face_canvas, faces[f]);
            cv::Mat face_touched = face_canvas(face_reach);
            face_pixels[f] = face_touched.empty() ? 0 : cv::countNonZero(face_touched);
            for (int32_t d = 0; d < n_detections; d++) {
                const cv::Rect both = face_reach & detection_reach[d];
                int64_t &count = intersections[static_cast<int64_t>(f) * n_detections + d];
                count = 0;
                if (both.empty() || face_pixels[f] == 0 || detection_pixels[d] == 0) continue;
                draw(detection_canvas, detections[d]);
                count = count_both(face_canvas, detection_canvas, both);
                detection_canvas(detection_reach[d]).setTo(0);
            }
            face_touched.setTo(0);
        }
        return static_cast<int>(FL_CV_OK);
    });
}

extern "C" int fl_fddb_draw(int32_t width, int32_t height, const fl_fddb_region *region, uint8_t *mask,
                            char *err, size_t err_len) {
    return guarded(err, err_len, [&] {
        std::string why = check_canvas(width, height);
        if (why.empty()) why = invalid_region(*region);
        if (!why.empty()) {
            set_error(err, err_len, why);
            return static_cast<int>(FL_CV_ERROR);
        }
        cv::Mat canvas(height, width, CV_8U, mask);
        draw(canvas, *region);
        return static_cast<int>(FL_CV_OK);
    });
}
