// framelab_cv_draw.h — drawing on frames (detection overlays): rectangles and circles.
//
// Each call draws with OpenCV on a header over caller-owned memory (see fl_image in
// framelab_cv.h) and returns FL_CV_OK or an error status with a message in `err`.
// Shapes partly or wholly outside the image are clipped, never an error.
#ifndef FRAMELAB_CV_DRAW_H
#define FRAMELAB_CV_DRAW_H

#include "framelab_cv.h"

#ifdef __cplusplus
extern "C" {
#endif

// cv::rectangle outline from (x, y) to (x + width - 1, y + height - 1); color in the
// image's channel order (B, G, R[, A]).
int fl_cv_draw_rect(const fl_image *image, int x, int y, int width, int height,
                    const double color[4], int thickness, char *err, size_t err_len);

// cv::circle; thickness < 0 fills it.
int fl_cv_draw_circle(const fl_image *image, int cx, int cy, int radius,
                      const double color[4], int thickness, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
