// framelab_fddb.h — region masks for the official FDDB evaluation protocol.
//
// FDDB's evaluation program (Jain and Learned-Miller, 2010) scores a detection against a
// face by the pixel intersection over union of two filled masks drawn with OpenCV on an
// image-sized canvas: ground-truth ellipses with cv::ellipse, rectangles with
// cv::rectangle. This call draws them the way that program does and counts the pixels,
// so the numbers match its own (see docs/detection.md, "The official FDDB protocol").
#ifndef FRAMELAB_FDDB_H
#define FRAMELAB_FDDB_H

#include "framelab_cv.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    FL_FDDB_ELLIPSE = 1,
    FL_FDDB_RECTANGLE = 2,
    // The largest canvas drawn (width x height), equal to ImageCodec.maxDecodedPixels:
    // two one-byte canvases of this size are allocated.
    FL_FDDB_MAX_CANVAS_PIXELS = 1 << 28,
    // The largest |coordinate| or radius of an ellipse accepted: keeps OpenCV's fixed-point
    // polygon arithmetic (16 fraction bits, shifted twice) inside 64 bits.
    FL_FDDB_MAX_ELLIPSE_COORDINATE = 1 << 23,
};

// One region. FL_FDDB_ELLIPSE: v = {major radius, minor radius, angle (radians, as FDDB's
// annotation files give it), centre x, centre y}. FL_FDDB_RECTANGLE: v = {x, y, width,
// height} of a box whose corners (x, y) and (x + width, y + height) are both filled.
typedef struct fl_fddb_region {
    int32_t kind;
    double v[5];
} fl_fddb_region;

// Draws every face and every detection filled on a width x height canvas and counts pixels:
// face_pixels[f], detection_pixels[d] and intersections[f * n_detections + d] (the pixels
// both masks cover). A pair whose enclosing boxes do not meet is not drawn and counts 0.
// Values must be finite; ellipse radii in [0, FL_FDDB_MAX_ELLIPSE_COORDINATE] and centres
// within +/- that bound (FL_CV_ERROR with a message otherwise).
int fl_fddb_overlaps(int32_t width, int32_t height,
                     const fl_fddb_region *faces, int32_t n_faces,
                     const fl_fddb_region *detections, int32_t n_detections,
                     int64_t *face_pixels, int64_t *detection_pixels, int64_t *intersections,
                     char *err, size_t err_len);

// Draws one region filled (255) on a zeroed width x height gray8 canvas the caller owns
// (`mask`, `width` bytes a row), as fl_fddb_overlaps draws it. For tests and pictures.
int fl_fddb_draw(int32_t width, int32_t height, const fl_fddb_region *region, uint8_t *mask,
                 char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
