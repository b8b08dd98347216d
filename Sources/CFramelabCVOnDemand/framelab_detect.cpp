// OpenCV's CascadeClassifier and FaceDetectorYN (objdetect) behind framelab_detect.h, in the
// on-demand library: the bridge reaches these through its table (CFramelabCV/on_demand.hpp),
// so starting framelab loads neither objdetect nor the DNN module it needs.
// As everywhere in the bridge, no exception crosses into Swift.
#include "framelab_detect.h"
#include "parts.hpp"
#include "../CFramelabCV/bridge_errors.hpp"
#include "../CFramelabCV/bridge_image.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <fstream>
#include <string>
#include <vector>

struct fl_cascade {
    cv::CascadeClassifier classifier;
    cv::Mat gray;  // reused conversion buffer for colour inputs
};

struct fl_yunet {
    cv::Ptr<cv::FaceDetectorYN> detector;
    cv::Size inputSize;
    cv::Mat bgr;
};

namespace {

cv::Mat wrap(const fl_image *image) { return fl_bridge::header(image); }

using fl_bridge::guarded;
using fl_bridge::set_error;

// A gray8 view of `image`: itself when already gray, else converted into `buffer`.
cv::Mat gray_of(const fl_image *image, cv::Mat &buffer) {
    cv::Mat m = wrap(image);
    switch (image->format) {
    case FL_FORMAT_GRAY8: return m;
    case FL_FORMAT_BGR8: cv::cvtColor(m, buffer, cv::COLOR_BGR2GRAY); return buffer;
    case FL_FORMAT_BGRA8: cv::cvtColor(m, buffer, cv::COLOR_BGRA2GRAY); return buffer;
    default: m.convertTo(buffer, CV_8U); return buffer;
    }
}

} // namespace

namespace fl_on_demand {

fl_cascade *fl_cascade_load(const char *path, char *err, size_t err_len) {
    try {
        std::ifstream probe(path);
        if (!probe.good()) {
            set_error(err, err_len, "no such file or not readable");
            return nullptr;
        }
        auto *cascade = new fl_cascade();
        bool loaded = false;
        try {
            loaded = cascade->classifier.load(path);
        } catch (const cv::Exception &) {
            loaded = false;
        }
        if (!loaded || cascade->classifier.empty()) {
            delete cascade;
            set_error(err, err_len, "not an OpenCV cascade classifier XML file");
            return nullptr;
        }
        return cascade;
    } catch (...) {
        set_error(err, err_len, fl_bridge::current_exception_message());
    }
    return nullptr;
}

void fl_cascade_free(fl_cascade *cascade) { delete cascade; }

int fl_cascade_is_lbp(const fl_cascade *cascade) {
    return cascade->classifier.getFeatureType() == 1 ? 1 : 0;  // FeatureEvaluator::LBP (internal header)
}

void fl_cascade_window(const fl_cascade *cascade, int32_t *width, int32_t *height) {
    cv::Size s = cascade->classifier.getOriginalWindowSize();
    *width = s.width;
    *height = s.height;
}

int fl_cascade_detect(fl_cascade *cascade, const fl_image *image, double scale_factor, int min_neighbors,
                      int min_width, int min_height, int max_width, int max_height,
                      fl_detection *out, int capacity, int *count, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        cv::Mat gray = gray_of(image, cascade->gray);
        std::vector<cv::Rect> objects;
        std::vector<int> neighbours;
        cascade->classifier.detectMultiScale(gray, objects, neighbours, scale_factor, min_neighbors, 0,
                                             cv::Size(min_width, min_height), cv::Size(max_width, max_height));
        *count = static_cast<int>(objects.size());
        for (int i = 0; i < *count && i < capacity; i++) {
            fl_detection d = {};
            d.x = static_cast<float>(objects[i].x);
            d.y = static_cast<float>(objects[i].y);
            d.width = static_cast<float>(objects[i].width);
            d.height = static_cast<float>(objects[i].height);
            d.score = i < static_cast<int>(neighbours.size()) ? static_cast<float>(neighbours[i]) : 0.f;
            out[i] = d;
        }
        return FL_CV_OK;
    });
}

fl_yunet *fl_yunet_create(const char *model_path, float score_threshold, float nms_threshold, int top_k,
                          char *err, size_t err_len) {
    try {
        std::ifstream probe(model_path);
        if (!probe.good()) {
            set_error(err, err_len, "no such file or not readable");
            return nullptr;
        }
        auto *yunet = new fl_yunet();
        yunet->inputSize = cv::Size(320, 320);
        yunet->detector = cv::FaceDetectorYN::create(model_path, "", yunet->inputSize, score_threshold,
                                                     nms_threshold, top_k);
        if (yunet->detector.empty()) {
            delete yunet;
            set_error(err, err_len, "FaceDetectorYN could not load the model");
            return nullptr;
        }
        return yunet;
    } catch (...) {
        set_error(err, err_len, fl_bridge::current_exception_message());
    }
    return nullptr;
}

void fl_yunet_free(fl_yunet *detector) { delete detector; }

int fl_yunet_detect(fl_yunet *detector, const fl_image *image, fl_detection *out, int capacity, int *count,
                    char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        cv::Mat m = wrap(image);
        cv::Mat bgr;
        if (image->format == FL_FORMAT_BGR8) bgr = m;
        else if (image->format == FL_FORMAT_BGRA8) { cv::cvtColor(m, detector->bgr, cv::COLOR_BGRA2BGR); bgr = detector->bgr; }
        else if (image->format == FL_FORMAT_GRAY8) { cv::cvtColor(m, detector->bgr, cv::COLOR_GRAY2BGR); bgr = detector->bgr; }
        else { set_error(err, err_len, "YuNet needs an 8-bit image"); return FL_CV_UNSUPPORTED; }
        if (bgr.size() != detector->inputSize) {
            detector->inputSize = bgr.size();
            detector->detector->setInputSize(detector->inputSize);
        }
        cv::Mat faces;
        detector->detector->detect(bgr, faces);
        *count = faces.rows;
        for (int i = 0; i < faces.rows && i < capacity; i++) {
            const float *row = faces.ptr<float>(i);
            fl_detection d = {};
            d.x = row[0]; d.y = row[1]; d.width = row[2]; d.height = row[3];
            for (int k = 0; k < 10; k++) d.points[k] = row[4 + k];
            d.score = row[14];
            out[i] = d;
        }
        return FL_CV_OK;
    });
}

void fill_detectors(fl_cv_on_demand &t) {
    t.cascade_load = fl_cascade_load;
    t.cascade_free = fl_cascade_free;
    t.cascade_is_lbp = fl_cascade_is_lbp;
    t.cascade_window = fl_cascade_window;
    t.cascade_detect = fl_cascade_detect;
    t.yunet_create = fl_yunet_create;
    t.yunet_free = fl_yunet_free;
    t.yunet_detect = fl_yunet_detect;
}

} // namespace fl_on_demand
