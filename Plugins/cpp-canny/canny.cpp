// A Framelab filter plugin in C++ with OpenCV: Canny edges, gray8 out.
//   c++ -std=c++17 -shared -fPIC -O2 -I<sdk> canny.cpp $(pkg-config --cflags --libs opencv4) -o libcanny.so
// OpenCV works on cv::Mat headers built over the host's memory: no copy in or out.
#include <framelab_plugin.h>
#include <opencv2/imgproc.hpp>
#include <cstdio>
#include <exception>

namespace {

struct Canny {
    double low, high;
    int aperture;
    bool l2;
    cv::Mat gray;  // reused across frames of one size
};

int cvType(int32_t format) {
    switch (format) {
    case FL_PLUGIN_GRAY8: return CV_8UC1;
    case FL_PLUGIN_BGR8: return CV_8UC3;
    case FL_PLUGIN_BGRA8: return CV_8UC4;
    default: return -1;
    }
}

cv::Mat header(const fl_plugin_image *image) {
    return cv::Mat(image->height, image->width, cvType(image->format), image->data, (size_t)image->stride);
}

fl_plugin_status create(void *, const fl_plugin_value *values, void **instance, char *err, size_t err_len) {
    if (values[0].number > values[1].number) {
        std::snprintf(err, err_len, "low threshold %g is above high threshold %g", values[0].number, values[1].number);
        return FL_PLUGIN_BAD_PARAMETER;
    }
    *instance = new Canny{values[0].number, values[1].number, std::atoi(values[2].string), values[3].number != 0, {}};
    return FL_PLUGIN_OK;
}

int32_t outputFormat(void *, int32_t input) { return cvType(input) < 0 ? 0 : FL_PLUGIN_GRAY8; }

fl_plugin_status process(void *instance, const fl_plugin_image *in, fl_plugin_image *out, char *err, size_t err_len) {
    auto *self = static_cast<Canny *>(instance);
    if (cvType(in->format) < 0) {
        std::snprintf(err, err_len, "canny takes gray8, bgr8 or bgra8, got format %d", (int)in->format);
        return FL_PLUGIN_UNSUPPORTED;
    }
    try {
        cv::Mat src = header(in), dst = header(out);
        if (in->format == FL_PLUGIN_GRAY8) {
            cv::Canny(src, dst, self->low, self->high, self->aperture, self->l2);
        } else {
            cv::cvtColor(src, self->gray, in->format == FL_PLUGIN_BGR8 ? cv::COLOR_BGR2GRAY : cv::COLOR_BGRA2GRAY);
            cv::Canny(self->gray, dst, self->low, self->high, self->aperture, self->l2);
        }
        if (dst.data != out->data) {  // OpenCV reallocated: the header did not fit (never expected)
            std::snprintf(err, err_len, "OpenCV did not write into the host's buffer");
            return FL_PLUGIN_ERROR;
        }
        return FL_PLUGIN_OK;
    } catch (const std::exception &e) {
        std::snprintf(err, err_len, "%s", e.what());
        return FL_PLUGIN_ERROR;
    }
}

void destroy(void *instance) { delete static_cast<Canny *>(instance); }

const int32_t formats[] = {FL_PLUGIN_GRAY8, FL_PLUGIN_BGR8, FL_PLUGIN_BGRA8};

fl_plugin_param params[] = {
    {sizeof(fl_plugin_param), "low", FL_PARAM_FLOAT, 0, 1000, 50, nullptr, nullptr, "lower hysteresis threshold"},
    {sizeof(fl_plugin_param), "high", FL_PARAM_FLOAT, 0, 1000, 150, nullptr, nullptr, "upper hysteresis threshold"},
    {sizeof(fl_plugin_param), "aperture", FL_PARAM_ENUM, 0, 0, 0, "3", "3|5|7", "Sobel aperture size"},
    {sizeof(fl_plugin_param), "l2", FL_PARAM_BOOL, 0, 1, 0, nullptr, nullptr, "use the L2 gradient norm (more accurate, slower)"},
};

fl_plugin_element elements[1];
fl_plugin plugin;

}  // namespace

FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t, uint32_t) {
    fl_plugin_element &e = elements[0];
    e.struct_size = sizeof(fl_plugin_element);
    e.param_stride = sizeof(fl_plugin_param);
    e.kind = FL_PLUGIN_FILTER;
    e.name = "canny";
    e.version = "1.0.0";
    e.description = "Canny edge map (OpenCV), one channel";
    e.formats = formats;
    e.format_count = 3;
    e.params = params;
    e.param_count = 4;
    e.create = create;
    e.output_format = outputFormat;
    e.process = process;
    e.destroy = destroy;
    plugin = {FL_PLUGIN_ABI_MAJOR, FL_PLUGIN_ABI_MINOR, sizeof(fl_plugin), sizeof(fl_plugin_element), "cpp-canny", elements, 1};
    return &plugin;
}
