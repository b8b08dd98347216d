// A Framelab detector plugin in C++ with OpenCV: frontal faces with the LBP cascade
// from Debian's opencv-data, reported as boxes with a score (the number of neighbouring
// raw detections that merged into the box, OpenCV's rejectLevels/levelWeights aside).
//   c++ -std=c++17 -shared -fPIC -O2 -I<sdk> lbp_face.cpp $(pkg-config --cflags --libs opencv4) -o liblbp-face.so
#include <framelab_plugin.h>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <cstdio>
#include <exception>
#include <vector>

namespace {

struct Detector {
    cv::CascadeClassifier cascade;
    double scale;
    int neighbours;
    int minSize;
    cv::Mat gray;
};

fl_plugin_status create(void *, const fl_plugin_value *values, void **instance, char *err, size_t err_len) {
    auto *d = new Detector{};
    d->scale = values[0].number;
    d->neighbours = (int)values[1].number;
    d->minSize = (int)values[2].number;
    const char *path = values[3].string;
    try {
        if (!d->cascade.load(path)) {
            std::snprintf(err, err_len, "cannot load cascade '%s' (install opencv-data)", path);
            delete d;
            return FL_PLUGIN_BAD_PARAMETER;
        }
    } catch (const std::exception &e) {
        std::snprintf(err, err_len, "cascade '%s': %s", path, e.what());
        delete d;
        return FL_PLUGIN_BAD_PARAMETER;
    }
    *instance = d;
    return FL_PLUGIN_OK;
}

fl_plugin_status detect(void *instance, const fl_plugin_image *in, fl_plugin_detection *out, int32_t capacity,
                        int32_t *count, char *err, size_t err_len) {
    auto *self = static_cast<Detector *>(instance);
    int type = in->format == FL_PLUGIN_GRAY8 ? CV_8UC1 : in->format == FL_PLUGIN_BGR8 ? CV_8UC3 : in->format == FL_PLUGIN_BGRA8 ? CV_8UC4 : -1;
    if (type < 0) {
        std::snprintf(err, err_len, "lbp-face takes gray8, bgr8 or bgra8, got format %d", (int)in->format);
        return FL_PLUGIN_UNSUPPORTED;
    }
    try {
        cv::Mat src(in->height, in->width, type, in->data, (size_t)in->stride);
        // Gray input is used in place; colour is converted into a buffer this instance owns.
        // (Never keep a header over host memory across calls: it is gone by the next frame.)
        cv::Mat gray = src;
        if (type != CV_8UC1) {
            cv::cvtColor(src, self->gray, type == CV_8UC3 ? cv::COLOR_BGR2GRAY : cv::COLOR_BGRA2GRAY);
            gray = self->gray;
        }
        std::vector<cv::Rect> faces;
        std::vector<int> neighbours;
        cv::Size minSize(self->minSize, self->minSize);
        self->cascade.detectMultiScale(gray, faces, neighbours, self->scale, self->neighbours, 0, minSize);
        int32_t n = 0;
        for (size_t i = 0; i < faces.size() && n < capacity; i++, n++) {
            fl_plugin_detection &d = out[n];
            d = fl_plugin_detection{};
            d.x = (float)faces[i].x;
            d.y = (float)faces[i].y;
            d.width = (float)faces[i].width;
            d.height = (float)faces[i].height;
            d.score = (float)(i < neighbours.size() ? neighbours[i] : 0);
        }
        *count = n;
        return FL_PLUGIN_OK;
    } catch (const std::exception &e) {
        std::snprintf(err, err_len, "%s", e.what());
        return FL_PLUGIN_ERROR;
    }
}

void destroy(void *instance) { delete static_cast<Detector *>(instance); }

const int32_t formats[] = {FL_PLUGIN_GRAY8, FL_PLUGIN_BGR8, FL_PLUGIN_BGRA8};

fl_plugin_param params[] = {
    {sizeof(fl_plugin_param), "scale", FL_PARAM_FLOAT, 1.01, 2.0, 1.1, nullptr, nullptr, "image pyramid step between scales"},
    {sizeof(fl_plugin_param), "neighbours", FL_PARAM_INT, 0, 50, 3, nullptr, nullptr, "raw detections needed to keep a box"},
    {sizeof(fl_plugin_param), "min-size", FL_PARAM_INT, 8, 4096, 24, nullptr, nullptr, "smallest face side in pixels"},
    {sizeof(fl_plugin_param), "cascade", FL_PARAM_STRING, 0, 0, 0, "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml",
     nullptr, "cascade XML file"},
};

fl_plugin_element elements[1];
fl_plugin plugin;

}  // namespace

FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t, uint32_t) {
    fl_plugin_element &e = elements[0];
    e.struct_size = sizeof(fl_plugin_element);
    e.param_stride = sizeof(fl_plugin_param);
    e.kind = FL_PLUGIN_DETECTOR;
    e.name = "lbp-face";
    e.version = "1.0.0";
    e.description = "frontal faces with OpenCV's LBP cascade; score = merged neighbours";
    e.formats = formats;
    e.format_count = 3;
    e.params = params;
    e.param_count = 4;
    e.create = create;
    e.detect = detect;
    e.destroy = destroy;
    plugin = {FL_PLUGIN_ABI_MAJOR, FL_PLUGIN_ABI_MINOR, sizeof(fl_plugin), sizeof(fl_plugin_element), "cpp-lbp-face", elements, 1};
    return &plugin;
}
