// framelab_detect.h's detectors and framelab_dnn.h as the bridge exports them: each call goes
// through the on-demand library's table (on_demand.hpp). A function that creates a handle
// loads the library (and fails with its message when it cannot); a function that takes a
// handle finds it loaded, since only a successful create made that handle.
#include "on_demand.hpp"

namespace {

const fl_cv_on_demand &loaded() { return *fl_bridge::on_demand_if_loaded(); }

}  // namespace

extern "C" {

fl_cascade *fl_cascade_load(const char *path, char *err, size_t err_len) {
    const fl_cv_on_demand *table = fl_bridge::on_demand(err, err_len);
    return table ? table->cascade_load(path, err, err_len) : nullptr;
}

void fl_cascade_free(fl_cascade *cascade) {
    if (cascade) loaded().cascade_free(cascade);
}

int fl_cascade_is_lbp(const fl_cascade *cascade) { return loaded().cascade_is_lbp(cascade); }

void fl_cascade_window(const fl_cascade *cascade, int32_t *width, int32_t *height) {
    loaded().cascade_window(cascade, width, height);
}

int fl_cascade_detect(fl_cascade *cascade, const fl_image *image, double scale_factor, int min_neighbors,
                      int min_width, int min_height, int max_width, int max_height,
                      fl_detection *out, int capacity, int *count, char *err, size_t err_len) {
    return loaded().cascade_detect(cascade, image, scale_factor, min_neighbors, min_width, min_height,
                                   max_width, max_height, out, capacity, count, err, err_len);
}

fl_yunet *fl_yunet_create(const char *model_path, float score_threshold, float nms_threshold, int top_k,
                          char *err, size_t err_len) {
    const fl_cv_on_demand *table = fl_bridge::on_demand(err, err_len);
    return table ? table->yunet_create(model_path, score_threshold, nms_threshold, top_k, err, err_len) : nullptr;
}

void fl_yunet_free(fl_yunet *detector) {
    if (detector) loaded().yunet_free(detector);
}

int fl_yunet_detect(fl_yunet *detector, const fl_image *image, fl_detection *out, int capacity, int *count,
                    char *err, size_t err_len) {
    return loaded().yunet_detect(detector, image, out, capacity, count, err, err_len);
}

fl_dnn *fl_dnn_load_caffe(const char *prototxt, const char *caffemodel, char *err, size_t err_len) {
    const fl_cv_on_demand *table = fl_bridge::on_demand(err, err_len);
    return table ? table->dnn_load_caffe(prototxt, caffemodel, err, err_len) : nullptr;
}

fl_dnn *fl_dnn_load_onnx(const char *path, char *err, size_t err_len) {
    const fl_cv_on_demand *table = fl_bridge::on_demand(err, err_len);
    return table ? table->dnn_load_onnx(path, err, err_len) : nullptr;
}

void fl_dnn_free(fl_dnn *net) {
    if (net) loaded().dnn_free(net);
}

int fl_dnn_set_image_input(fl_dnn *net, const fl_image *image, int width, int height, double scale,
                           const double mean[3], int swap_rb, char *err, size_t err_len) {
    return loaded().dnn_set_image_input(net, image, width, height, scale, mean, swap_rb, err, err_len);
}

int fl_dnn_set_tensor_input(fl_dnn *net, const float *data, const int32_t *shape, int dims,
                            char *err, size_t err_len) {
    return loaded().dnn_set_tensor_input(net, data, shape, dims, err, err_len);
}

int fl_dnn_forward(fl_dnn *net, char *err, size_t err_len) { return loaded().dnn_forward(net, err, err_len); }

int fl_dnn_output_count(const fl_dnn *net) { return loaded().dnn_output_count(net); }

const char *fl_dnn_output_name(const fl_dnn *net, int index) { return loaded().dnn_output_name(net, index); }

int fl_dnn_output_shape(const fl_dnn *net, int index, int32_t *shape, int capacity) {
    return loaded().dnn_output_shape(net, index, shape, capacity);
}

const float *fl_dnn_output_data(const fl_dnn *net, int index) { return loaded().dnn_output_data(net, index); }

}  // extern "C"
