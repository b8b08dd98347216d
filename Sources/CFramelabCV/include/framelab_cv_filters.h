// framelab_cv_filters.h — OpenCV reference operations for Framelab's built-in filters.
//
// Each call runs one OpenCV function on headers over caller-owned memory (see fl_image
// in framelab_cv.h), returns FL_CV_OK or an error status with a message in `err`.
#ifndef FRAMELAB_CV_FILTERS_H
#define FRAMELAB_CV_FILTERS_H

#include "framelab_cv.h"

#ifdef __cplusplus
extern "C" {
#endif


// cv::transform with a rows x (cols + 1) matrix in the image's channel order (B, G, R[, A]);
// `matrix` holds channels x (channels + 1) doubles, the last column being the bias.
int fl_cv_transform(const fl_image *src, const fl_image *dst, const double *matrix,
                    char *err, size_t err_len);

// cv::LUT with one 256-entry table per channel: table[i * channels + c].
int fl_cv_lut(const fl_image *src, const fl_image *dst, const uint8_t *table,
              char *err, size_t err_len);

// cv::warpAffine, bilinear, constant-zero border; `m` (2x3, row-major) maps source pixel
// centres to destination pixel centres (OpenCV's convention: centres at integers).
int fl_cv_warp_affine(const fl_image *src, const fl_image *dst, const double m[6],
                      char *err, size_t err_len);

// cv::GaussianBlur with a (2 radius + 1)-square kernel, sigma in both axes, replicated border.
int fl_cv_gaussian_blur(const fl_image *src, const fl_image *dst, int radius, double sigma,
                        char *err, size_t err_len);

// cv::resize to dst's size for the resize filter: `method` 0 is INTER_LANCZOS4 (8 taps, not widened when shrinking),
// 1 is INTER_AREA (pixel-area averaging when shrinking).
int fl_cv_resize_filter(const fl_image *src, const fl_image *dst, int method, char *err, size_t err_len);

// cv::blendLinear: dst = fg * m + bg * (1 - m), m = mask / 255 (mask is gray8).
int fl_cv_blend_mask(const fl_image *fg, const fl_image *bg, const fl_image *mask,
                     const fl_image *dst, char *err, size_t err_len);

// Premultiplied source-over with OpenCV arithmetic: dst = top + bottom * (255 - top alpha) / 255.
int fl_cv_source_over(const fl_image *top, const fl_image *bottom, const fl_image *dst,
                      char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
