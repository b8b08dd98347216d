// framelab_dnn.h — the C surface of OpenCV's dnn module, kept generic: load a network from
// files (Caffe prototxt + caffemodel, or ONNX), give it one input (an image made into a
// blob, or a float tensor), run it forward, read every output as a float tensor.
// Detectors decode the tensors in Swift; nothing here knows a particular network.
//
// A network is not thread-safe: one fl_dnn per thread. Every net runs on OpenCV's own CPU
// backend and target (no OpenCL, CUDA or Inference Engine, whatever the build offers), so
// results do not depend on the machine's accelerators.
#ifndef FRAMELAB_DNN_H
#define FRAMELAB_DNN_H

#include "framelab_cv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fl_dnn fl_dnn;

// Loads a Caffe network: `prototxt` (text) and `caffemodel` (binary weights). NULL with a
// one-line message naming the file when a file is missing, truncated or of another kind.
fl_dnn *fl_dnn_load_caffe(const char *prototxt, const char *caffemodel, char *err, size_t err_len);
// Loads an ONNX network; NULL with a one-line message naming the file on failure.
fl_dnn *fl_dnn_load_onnx(const char *path, char *err, size_t err_len);
void fl_dnn_free(fl_dnn *net);

// Sets the input to cv::dnn::blobFromImage(image, scale, (width, height), mean, swap_rb):
// an NCHW float blob of the image resized to width x height, ((pixel - mean) * scale),
// channels B,G,R (R,G,B with swap_rb). Gray and BGRA images are made BGR first.
int fl_dnn_set_image_input(fl_dnn *net, const fl_image *image, int width, int height, double scale,
                           const double mean[3], int swap_rb, char *err, size_t err_len);

// Sets the input to a float tensor of `dims` dimensions (copied; shape[i] > 0).
int fl_dnn_set_tensor_input(fl_dnn *net, const float *data, const int32_t *shape, int dims,
                            char *err, size_t err_len);

// Runs the network forward to all its unconnected outputs, kept until the next forward.
int fl_dnn_forward(fl_dnn *net, char *err, size_t err_len);

// The outputs of the last forward, in the network's order of unconnected outputs.
int fl_dnn_output_count(const fl_dnn *net);
// The output's layer name (valid while the net lives).
const char *fl_dnn_output_name(const fl_dnn *net, int index);
// The output's shape: writes up to `capacity` sizes to `shape`, returns the number of
// dimensions (0 when there is no such output).
int fl_dnn_output_shape(const fl_dnn *net, int index, int32_t *shape, int capacity);
// The output's values, row-major, float32 (valid until the next forward or free).
const float *fl_dnn_output_data(const fl_dnn *net, int index);

#ifdef __cplusplus
}
#endif

#endif
