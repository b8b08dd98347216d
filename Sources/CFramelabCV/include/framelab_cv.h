// framelab_cv.h — the C surface of Framelab's OpenCV bridge.
//
// Swift imports this header as plain C; the C++ behind it (framelab_cv.cpp) is the only
// code in Framelab that includes OpenCV. Images cross as fl_image: a header over memory
// the caller owns, so OpenCV reads and writes the caller's pixels without copying.
#ifndef FRAMELAB_CV_H
#define FRAMELAB_CV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Pixel formats; values match Swift's PixelFormat raw values.
enum {
    FL_FORMAT_GRAY8 = 1,
    FL_FORMAT_BGR8 = 2,
    FL_FORMAT_BGRA8 = 3,
    FL_FORMAT_GRAYF32 = 4,
};

// Status codes returned by every call that can fail; a message goes to `err`.
enum {
    FL_CV_OK = 0,
    FL_CV_ERROR = -1,        // OpenCV raised or the call failed
    FL_CV_UNSUPPORTED = -2,  // the format or conversion is not supported
    FL_CV_END = 1,           // a stream has no more frames
};

typedef struct fl_image {
    int32_t format;   // FL_FORMAT_*
    int32_t width;
    int32_t height;
    int64_t stride;   // bytes between row starts
    void *data;       // pixel (0, 0); owned by the caller
} fl_image;

// An image whose pixels OpenCV allocated (decoded files, video frames).
// Read its header with fl_cvmat_image; free it with fl_cvmat_release.
typedef struct fl_cvmat fl_cvmat;
fl_image fl_cvmat_image(const fl_cvmat *mat);
void fl_cvmat_release(fl_cvmat *mat);

// The data pointer of a cv::Mat header built over `image`: equal to image->data
// when the bridge is zero-copy (used by tests to prove it).
const void *fl_cv_header_data(const fl_image *image);

// Fills a rectangle of `image` through a cv::Mat header over its memory (cv::Mat::setTo).
int fl_cv_fill_rect(const fl_image *image, int x, int y, int width, int height,
                    const double value[4], char *err, size_t err_len);

// Converts between pixel formats (cvtColor / convertTo); dst must have the same size.
// GrayF32 is 0…255 in value, so gray8 <-> grayf32 is a plain type change.
int fl_cv_convert(const fl_image *src, const fl_image *dst, char *err, size_t err_len);

// Draws text (Hershey simplex) into `image`, for frame numbers and overlays.
int fl_cv_put_text(const fl_image *image, const char *text, int x, int y, double scale,
                   const double color[4], int thickness, char *err, size_t err_len);

// Decodes an image file into a new image of `format` (FL_CV_ERROR names why).
int fl_cv_decode_file(const char *path, int32_t format, fl_cvmat **out, char *err, size_t err_len);

// Decodes image bytes held in memory (for example an MJPEG frame).
int fl_cv_decode_bytes(const void *bytes, size_t count, int32_t format, fl_cvmat **out,
                       char *err, size_t err_len);

// Encodes `image` to a file; the codec follows the extension (.png, .jpg, .bmp, …).
int fl_cv_encode_file(const char *path, const fl_image *image, char *err, size_t err_len);

// Video decoding (videoio).
typedef struct fl_video fl_video;
typedef struct fl_video_info {
    double fps;            // 0 when the container does not say
    int64_t frame_count;   // -1 when unknown
    int32_t width;
    int32_t height;
} fl_video_info;

fl_video *fl_video_open(const char *path, char *err, size_t err_len);
fl_video_info fl_video_get_info(const fl_video *video);
// Reads the next frame converted to `format`. Returns FL_CV_OK with *out set and
// *pts_ms the frame's presentation time, FL_CV_END at the end, FL_CV_ERROR on failure.
int fl_video_read(fl_video *video, int32_t format, fl_cvmat **out, double *pts_ms,
                  char *err, size_t err_len);
void fl_video_close(fl_video *video);

// Video encoding (videoio): the container and codec follow the extension.
typedef struct fl_video_writer fl_video_writer;
fl_video_writer *fl_video_writer_open(const char *path, double fps, int32_t width, int32_t height,
                                      char *err, size_t err_len);
int fl_video_writer_write(fl_video_writer *writer, const fl_image *image, char *err, size_t err_len);
void fl_video_writer_close(fl_video_writer *writer);

// Camera helpers (framelab_cv_camera.cpp).
// Rotates `src` clockwise by 0, 90, 180 or 270 degrees, then mirrors it left-right when
// `mirror` is non-zero, into `dst` (same format; sides swapped for 90 and 270).
int fl_cv_orient(const fl_image *src, const fl_image *dst, int degrees, int mirror,
                 char *err, size_t err_len);

// A preview window (highgui). Shows `image` in the window `name` (created on first use)
// and pumps the window's events for `wait_ms`; returns the key pressed, -1 for none,
// -2 on failure (message in err; no display, …), -3 for a format it cannot show.
int fl_preview_show(const char *name, const fl_image *image, int wait_ms, char *err, size_t err_len);
// Closes the window `name` (no-op when it is not open).
void fl_preview_close(const char *name);

#ifdef __cplusplus
}
#endif

#endif
