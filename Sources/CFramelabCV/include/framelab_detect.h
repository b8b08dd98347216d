// framelab_detect.h — the C surface of OpenCV's face detectors (objdetect):
// CascadeClassifier (Haar and LBP XML files) and FaceDetectorYN (YuNet ONNX models).
// Images cross as fl_image (see framelab_cv.h); results are written to caller arrays.
#ifndef FRAMELAB_DETECT_H
#define FRAMELAB_DETECT_H

#include "framelab_cv.h"

#ifdef __cplusplus
extern "C" {
#endif

// One detection as OpenCV reports it. For cascades `score` is the number of raw
// windows merged into the box (OpenCV's numDetections); for YuNet the face score.
// `points` holds YuNet's five landmarks as x,y pairs (right eye, left eye, nose tip,
// right mouth corner, left mouth corner); zero for cascades.
typedef struct fl_detection {
    float x, y, width, height;
    float score;
    float points[10];
} fl_detection;

typedef struct fl_cascade fl_cascade;

// Loads a cascade XML; nil with a message when the file is missing or not a cascade.
fl_cascade *fl_cascade_load(const char *path, char *err, size_t err_len);
void fl_cascade_free(fl_cascade *cascade);
// True when the cascade's features are LBP (false: Haar).
int fl_cascade_is_lbp(const fl_cascade *cascade);
// The cascade's training window size.
void fl_cascade_window(const fl_cascade *cascade, int32_t *width, int32_t *height);

// cv::CascadeClassifier::detectMultiScale on a gray8 image (other formats are converted
// to gray first). max_width/max_height of 0 mean "no limit". Writes at most `capacity`
// detections to `out` and their total count to `*count`.
int fl_cascade_detect(fl_cascade *cascade, const fl_image *image, double scale_factor, int min_neighbors,
                      int min_width, int min_height, int max_width, int max_height,
                      fl_detection *out, int capacity, int *count, char *err, size_t err_len);

typedef struct fl_yunet fl_yunet;
// Creates a FaceDetectorYN from an ONNX model; nil with a message on failure.
fl_yunet *fl_yunet_create(const char *model_path, float score_threshold, float nms_threshold, int top_k,
                          char *err, size_t err_len);
void fl_yunet_free(fl_yunet *detector);
// Runs YuNet on a BGR8 or BGRA8 image (its input size follows the image).
int fl_yunet_detect(fl_yunet *detector, const fl_image *image, fl_detection *out, int capacity, int *count,
                    char *err, size_t err_len);

// Bilinear resize (cv::resize, INTER_LINEAR or INTER_AREA when shrinking); dst's size is the target.
int fl_cv_resize(const fl_image *src, const fl_image *dst, char *err, size_t err_len);

// Threads OpenCV may use inside one call (cv::setNumThreads); benchmarks use 1.
void fl_cv_set_num_threads(int threads);
int fl_cv_get_num_threads(void);

#ifdef __cplusplus
}
#endif

#endif
