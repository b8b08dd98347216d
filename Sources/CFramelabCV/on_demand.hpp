// Internal to CFramelabCV and CFramelabCVOnDemand: the table through which the bridge reaches
// the OpenCV modules it loads only when first needed: image codecs, video I/O, the preview
// window (imgcodecs, videoio, highgui), the cascade and YuNet face detectors (objdetect) and
// the DNN networks (dnn).
//
// Why a second library: imgcodecs, videoio and highgui pull in about 250 shared libraries
// (GDAL, FFmpeg, GStreamer, Qt, VTK…), objdetect and dnn another 20 with protobuf. Linked into
// framelab, their loading and constructors cost every start, `framelab --version` included
// (0.36 s and 107 MB before the split, on a Zen 3 under load). They live in
// libFramelabCVOnDemand.so instead, which the bridge dlopens the first time a file is decoded
// or encoded, a video opened, a window shown or a detector or network loaded
// (on_demand_loader.cpp).
//
// Both sides are built from this package with one compiler, so the table passes C++ types
// (cv::Mat); FL_CV_ON_DEMAND_VERSION changes whenever the table does, and the loader refuses
// a library of another version. Every function catches every exception.
#ifndef FRAMELAB_CV_ON_DEMAND_HPP
#define FRAMELAB_CV_ON_DEMAND_HPP

#include "framelab_cv.h"
#include "framelab_detect.h"
#include "framelab_dnn.h"

#include <opencv2/core.hpp>

#include <cstddef>
#include <cstdint>

#define FL_CV_ON_DEMAND_VERSION 1
#define FL_CV_ON_DEMAND_SYMBOL "fl_cv_on_demand_table"

struct fl_cv_on_demand {
    uint32_t version;  // FL_CV_ON_DEMAND_VERSION of the library
    // The file's or the bytes' pixels as OpenCV decodes them (IMREAD_UNCHANGED): 8 or 16
    // bits, 1, 3 or 4 channels. FL_CV_ERROR with a message when nothing decodes.
    int (*decode_file)(const char *path, cv::Mat *decoded, char *err, size_t err_len);
    int (*decode_bytes)(const void *bytes, size_t count, cv::Mat *decoded, char *err, size_t err_len);
    // Writes an 8-bit image; the codec follows the extension.
    int (*encode_file)(const char *path, const cv::Mat *image, char *err, size_t err_len);
    // A video through FFmpeg: an opaque handle, or null with a message.
    void *(*video_open)(const char *path, fl_video_info *info, char *err, size_t err_len);
    // FL_CV_OK with the next frame in *decoded, FL_CV_END at the end, FL_CV_ERROR.
    int (*video_read)(void *video, cv::Mat *decoded, double *pts_ms, char *err, size_t err_len);
    void (*video_close)(void *video);
    // A writer of BGR frames of `width`x`height`; container and codec follow the extension.
    void *(*writer_open)(const char *path, double fps, int32_t width, int32_t height, char *err, size_t err_len);
    int (*writer_write)(void *writer, const cv::Mat *bgr, char *err, size_t err_len);
    void (*writer_close)(void *writer);
    // Shows a gray or BGR image in the window `name`; the key pressed, -1 for none, or
    // -2 with a message.
    int (*preview_show)(const char *name, const cv::Mat *image, int wait_ms, char *err, size_t err_len);
    void (*preview_close)(const char *name);

    // framelab_detect.h's detectors and framelab_dnn.h, with the public signatures.
    decltype(&fl_cascade_load) cascade_load;
    decltype(&fl_cascade_free) cascade_free;
    decltype(&fl_cascade_is_lbp) cascade_is_lbp;
    decltype(&fl_cascade_window) cascade_window;
    decltype(&fl_cascade_detect) cascade_detect;
    decltype(&fl_yunet_create) yunet_create;
    decltype(&fl_yunet_free) yunet_free;
    decltype(&fl_yunet_detect) yunet_detect;
    decltype(&fl_dnn_load_caffe) dnn_load_caffe;
    decltype(&fl_dnn_load_onnx) dnn_load_onnx;
    decltype(&fl_dnn_free) dnn_free;
    decltype(&fl_dnn_set_image_input) dnn_set_image_input;
    decltype(&fl_dnn_set_tensor_input) dnn_set_tensor_input;
    decltype(&fl_dnn_forward) dnn_forward;
    decltype(&fl_dnn_output_count) dnn_output_count;
    decltype(&fl_dnn_output_name) dnn_output_name;
    decltype(&fl_dnn_output_shape) dnn_output_shape;
    decltype(&fl_dnn_output_data) dnn_output_data;
};

extern "C" typedef const fl_cv_on_demand *(*fl_cv_on_demand_function)(void);

namespace fl_bridge {
// The loaded table (loading the library on first use), or null with the reason in err
// (the same reason on every call).
const fl_cv_on_demand *on_demand(char *err, size_t err_len);
// The table if the library is already loaded; never loads it. Functions that take a handle
// only an earlier on_demand() call can have made use this one.
const fl_cv_on_demand *on_demand_if_loaded();
}  // namespace fl_bridge

#endif
