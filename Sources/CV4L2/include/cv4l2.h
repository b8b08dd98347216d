// cv4l2.h — what Swift needs from V4L2 that it cannot import directly.
//
// VIDIOC_* request codes are function-like macros (_IOWR) and v4l2_ioctl is variadic;
// Swift imports neither. This header names the requests as an enum and offers
// non-variadic wrappers over libv4l2 and libv4lconvert. The structs and plain
// constants of linux/videodev2.h import as they are.
#ifndef CV4L2_H
#define CV4L2_H

#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

typedef enum fl_v4l2_request {
    FL_VIDIOC_QUERYCAP,
    FL_VIDIOC_ENUM_FMT,
    FL_VIDIOC_ENUM_FRAMESIZES,
    FL_VIDIOC_ENUM_FRAMEINTERVALS,
    FL_VIDIOC_G_FMT,
    FL_VIDIOC_S_FMT,
    FL_VIDIOC_TRY_FMT,
    FL_VIDIOC_G_PARM,
    FL_VIDIOC_S_PARM,
    FL_VIDIOC_REQBUFS,
    FL_VIDIOC_QUERYBUF,
    FL_VIDIOC_QBUF,
    FL_VIDIOC_DQBUF,
    FL_VIDIOC_STREAMON,
    FL_VIDIOC_STREAMOFF,
} fl_v4l2_request;

// v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC); -1 with errno on failure.
int fl_v4l2_open(const char *path);
// v4l2_ioctl with the request's code, retried on EINTR; -1 with errno on failure.
int fl_v4l2_ioctl(int fd, fl_v4l2_request request, void *arg);
void *fl_v4l2_mmap(int fd, size_t length, int64_t offset);  // NULL with errno on failure
int fl_v4l2_munmap(void *start, size_t length);
int fl_v4l2_close(int fd);
// Waits up to timeout_ms for a frame: 1 ready, 0 timed out, -1 with errno; *hangup is
// set when the device reported an error or hang-up (unplugged).
int fl_v4l2_wait(int fd, int timeout_ms, int *hangup);

// libv4lconvert: native formats (YUYV, MJPEG, …) to BGR24.
typedef struct v4lconvert_data fl_v4l2_converter;
fl_v4l2_converter *fl_v4l2_converter_create(int fd);
void fl_v4l2_converter_destroy(fl_v4l2_converter *converter);
// Converts `src` (bytes of `src_format`) to BGR24 rows of `dst_stride` in `dst`.
// Returns bytes written or -1; the library's message goes to `err`.
int fl_v4l2_convert_to_bgr24(fl_v4l2_converter *converter, const struct v4l2_format *src_format,
                             const void *src, size_t src_size, void *dst, size_t dst_size,
                             char *err, size_t err_len);

#endif
