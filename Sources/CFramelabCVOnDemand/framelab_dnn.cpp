// The C++ side of framelab_dnn.h: cv::dnn::Net behind an opaque handle. As everywhere in
// the bridge, no exception crosses into Swift; load errors name the file at fault.
#include "framelab_dnn.h"
#include "parts.hpp"
#include "../CFramelabCV/bridge_errors.hpp"
#include "../CFramelabCV/bridge_image.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

struct fl_dnn {
    cv::dnn::Net net;
    // Where the net came from (ONNX: `config` empty), to load it again without fusion.
    std::string model, config;
    // The shape of the last input; empty before the first.
    std::vector<int> inputShape;
    bool fused = true;
    std::vector<std::string> outputNames;
    std::vector<cv::Mat> outputs;  // float32, continuous
    cv::Mat bgr;                   // reused conversion buffer for gray and BGRA inputs
};

namespace {

using fl_bridge::guarded;
using fl_bridge::set_error;

// "'path': why" when `path` is not a readable regular file, else empty.
std::string unreadable(const char *path) {
    struct stat st;
    if (path == nullptr || *path == 0) return "no file given";
    if (stat(path, &st) != 0) return std::string("'") + path + "': no such file";
    if (!S_ISREG(st.st_mode)) return std::string("'") + path + "': not a regular file";
    if (access(path, R_OK) != 0) return std::string("'") + path + "': not readable";
    if (st.st_size == 0) return std::string("'") + path + "': empty file";
    return "";
}

// OpenCV's message cut to its first line (protobuf and shape errors span several).
std::string first_line(const cv::Exception &e) {
    std::string m = fl_bridge::short_message(e);
    size_t nl = m.find('\n');
    return nl == std::string::npos ? m : m.substr(0, nl);
}

// Instantiates every layer now, so a weights file that lacks some layer's blobs (a truncated
// caffemodel parses as a shorter one) fails at load, not at the first frame. Returns the
// failing layer's name and OpenCV's reason, or empty.
std::string missing_weights(cv::dnn::Net &net) {
    for (const std::string &name : net.getLayerNames()) {
        try {
            net.getLayer(name);
        } catch (const cv::Exception &e) {
            return "layer '" + name + "': " + first_line(e);
        }
    }
    return "";
}

// CPU only, OpenCV's own implementation: the same results on every machine.
void use_cpu(cv::dnn::Net &net) {
    net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
}

fl_dnn *finish(cv::dnn::Net net, const std::string &model, const std::string &config) {
    use_cpu(net);
    auto *handle = new fl_dnn();
    handle->net = net;
    handle->model = model;
    handle->config = config;
    handle->outputNames = net.getUnconnectedOutLayersNames();
    return handle;
}

// Sets `blob` as the input. OpenCV 4.6 fuses BatchNorm layers into the convolutions before
// them when it first sizes the net, and fuses them again when a new input shape resizes it,
// scaling the weights twice: CenterFace's heatmap on a brick texture went from 0.04 to 0.59
// after one run at another size. So the first time the shape changes, the net is loaded
// again from its files with fusion off, which gives the same outputs at every size.
void set_input(fl_dnn *net, const cv::Mat &blob) {
    std::vector<int> shape(blob.size.p, blob.size.p + blob.dims);
    if (net->fused && !net->inputShape.empty() && shape != net->inputShape) {
        cv::dnn::Net fresh = net->config.empty() ? cv::dnn::readNetFromONNX(net->model)
                                                 : cv::dnn::readNetFromCaffe(net->config, net->model);
        fresh.enableFusion(false);
        use_cpu(fresh);
        net->net = fresh;
        net->fused = false;
    }
    net->inputShape = shape;
    net->net.setInput(blob);
}

} // namespace

namespace fl_on_demand {

fl_dnn *fl_dnn_load_caffe(const char *prototxt, const char *caffemodel, char *err, size_t err_len) {
    try {
        for (const char *path : {prototxt, caffemodel}) {
            std::string why = unreadable(path);
            if (!why.empty()) { set_error(err, err_len, why); return nullptr; }
        }
        cv::dnn::Net net;
        try {
            net = cv::dnn::readNetFromCaffe(prototxt, caffemodel);
        } catch (const cv::Exception &e) {
            // OpenCV parses the text file first (ReadNetParamsFromTextFileOrDie), then the weights.
            bool text = e.func.find("Text") != std::string::npos;
            set_error(err, err_len, std::string("'") + (text ? prototxt : caffemodel) + "': not a Caffe "
                      + (text ? "prototxt" : "caffemodel") + " (truncated, or another kind of file)");
            return nullptr;
        }
        if (net.empty()) {
            set_error(err, err_len, std::string("'") + prototxt + "': a Caffe prototxt with no layers");
            return nullptr;
        }
        std::string missing = missing_weights(net);
        if (!missing.empty()) {
            set_error(err, err_len, std::string("'") + caffemodel + "': lacks the weights of " + missing
                      + " (truncated, or the weights of another network)");
            return nullptr;
        }
        return finish(net, caffemodel, prototxt);
    } catch (...) {
        set_error(err, err_len, fl_bridge::current_exception_message());
    }
    return nullptr;
}

fl_dnn *fl_dnn_load_onnx(const char *path, char *err, size_t err_len) {
    try {
        std::string why = unreadable(path);
        if (!why.empty()) { set_error(err, err_len, why); return nullptr; }
        cv::dnn::Net net;
        try {
            net = cv::dnn::readNetFromONNX(path);
        } catch (const cv::Exception &e) {
            // OpenCV's reason helps when it names a layer it cannot run; its parse failures
            // ("Failed to parse ONNX model: PATH", "model_proto.has_graph()") add nothing.
            std::string reason = first_line(e);
            bool parse = reason.find(path) != std::string::npos || reason.find("model_proto") != std::string::npos;
            set_error(err, err_len, std::string("'") + path + "': not an ONNX model OpenCV can load (truncated, "
                      "or another kind of file)" + (parse ? "" : ": OpenCV: " + reason));
            return nullptr;
        }
        if (net.empty()) {
            set_error(err, err_len, std::string("'") + path + "': an ONNX model with no layers");
            return nullptr;
        }
        return finish(net, path, "");
    } catch (...) {
        set_error(err, err_len, fl_bridge::current_exception_message());
    }
    return nullptr;
}

void fl_dnn_free(fl_dnn *net) { delete net; }

int fl_dnn_set_image_input(fl_dnn *net, const fl_image *image, int width, int height, double scale,
                           const double mean[3], int swap_rb, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        if (width <= 0 || height <= 0) { set_error(err, err_len, "input size must be positive"); return FL_CV_ERROR; }
        cv::Mat m = fl_bridge::header(image), bgr;
        switch (image->format) {
        case FL_FORMAT_BGR8: bgr = m; break;
        case FL_FORMAT_BGRA8: cv::cvtColor(m, net->bgr, cv::COLOR_BGRA2BGR); bgr = net->bgr; break;
        case FL_FORMAT_GRAY8: cv::cvtColor(m, net->bgr, cv::COLOR_GRAY2BGR); bgr = net->bgr; break;
        default: set_error(err, err_len, "a network input needs an 8-bit image"); return FL_CV_UNSUPPORTED;
        }
        cv::Mat blob = cv::dnn::blobFromImage(bgr, scale, cv::Size(width, height),
                                              cv::Scalar(mean[0], mean[1], mean[2]), swap_rb != 0, false, CV_32F);
        set_input(net, blob);
        return FL_CV_OK;
    });
}

int fl_dnn_set_tensor_input(fl_dnn *net, const float *data, const int32_t *shape, int dims,
                            char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        if (dims <= 0 || dims > 8) { set_error(err, err_len, "a tensor needs 1 to 8 dimensions"); return FL_CV_ERROR; }
        std::vector<int> sizes(shape, shape + dims);
        for (int s : sizes) {
            if (s <= 0) { set_error(err, err_len, "tensor sizes must be positive"); return FL_CV_ERROR; }
        }
        // A header over the caller's floats, cloned: the net keeps its input past this call.
        cv::Mat view(dims, sizes.data(), CV_32F, const_cast<float *>(data));
        set_input(net, view.clone());
        return FL_CV_OK;
    });
}

int fl_dnn_forward(fl_dnn *net, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        std::vector<cv::Mat> outs;
        net->net.forward(outs, net->outputNames);
        for (cv::Mat &o : outs) {
            if (o.type() != CV_32F) o.convertTo(o, CV_32F);
            if (!o.isContinuous()) o = o.clone();
        }
        net->outputs = std::move(outs);
        return FL_CV_OK;
    });
}

int fl_dnn_output_count(const fl_dnn *net) { return static_cast<int>(net->outputNames.size()); }

const char *fl_dnn_output_name(const fl_dnn *net, int index) {
    if (index < 0 || index >= static_cast<int>(net->outputNames.size())) return "";
    return net->outputNames[index].c_str();
}

int fl_dnn_output_shape(const fl_dnn *net, int index, int32_t *shape, int capacity) {
    if (index < 0 || index >= static_cast<int>(net->outputs.size())) return 0;
    const cv::Mat &o = net->outputs[index];
    for (int d = 0; d < o.dims && d < capacity; d++) shape[d] = o.size[d];
    return o.dims;
}

const float *fl_dnn_output_data(const fl_dnn *net, int index) {
    if (index < 0 || index >= static_cast<int>(net->outputs.size())) return nullptr;
    return net->outputs[index].ptr<float>();
}

void fill_dnn(fl_cv_on_demand &t) {
    t.dnn_load_caffe = fl_dnn_load_caffe;
    t.dnn_load_onnx = fl_dnn_load_onnx;
    t.dnn_free = fl_dnn_free;
    t.dnn_set_image_input = fl_dnn_set_image_input;
    t.dnn_set_tensor_input = fl_dnn_set_tensor_input;
    t.dnn_forward = fl_dnn_forward;
    t.dnn_output_count = fl_dnn_output_count;
    t.dnn_output_name = fl_dnn_output_name;
    t.dnn_output_shape = fl_dnn_output_shape;
    t.dnn_output_data = fl_dnn_output_data;
}

} // namespace fl_on_demand
