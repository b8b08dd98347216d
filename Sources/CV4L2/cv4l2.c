// cv4l2.c — thin wrappers over libv4l2/libv4lconvert for Swift (see cv4l2.h).
#include "cv4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <libv4lconvert.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static unsigned long request_code(fl_v4l2_request request) {
    switch (request) {
    case FL_VIDIOC_QUERYCAP: return VIDIOC_QUERYCAP;
    case FL_VIDIOC_ENUM_FMT: return VIDIOC_ENUM_FMT;
    case FL_VIDIOC_ENUM_FRAMESIZES: return VIDIOC_ENUM_FRAMESIZES;
    case FL_VIDIOC_ENUM_FRAMEINTERVALS: return VIDIOC_ENUM_FRAMEINTERVALS;
    case FL_VIDIOC_G_FMT: return VIDIOC_G_FMT;
    case FL_VIDIOC_S_FMT: return VIDIOC_S_FMT;
    case FL_VIDIOC_TRY_FMT: return VIDIOC_TRY_FMT;
    case FL_VIDIOC_G_PARM: return VIDIOC_G_PARM;
    case FL_VIDIOC_S_PARM: return VIDIOC_S_PARM;
    case FL_VIDIOC_REQBUFS: return VIDIOC_REQBUFS;
    case FL_VIDIOC_QUERYBUF: return VIDIOC_QUERYBUF;
    case FL_VIDIOC_QBUF: return VIDIOC_QBUF;
    case FL_VIDIOC_DQBUF: return VIDIOC_DQBUF;
    case FL_VIDIOC_STREAMON: return VIDIOC_STREAMON;
    case FL_VIDIOC_STREAMOFF: return VIDIOC_STREAMOFF;
    }
    return 0;
}

int fl_v4l2_open(const char *path) { return v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC); }

int fl_v4l2_ioctl(int fd, fl_v4l2_request request, void *arg) {
    int result;
    do result = v4l2_ioctl(fd, request_code(request), arg);
    while (result == -1 && errno == EINTR);
    return result;
}

void *fl_v4l2_mmap(int fd, size_t length, int64_t offset) {
    void *p = v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (int64_t)offset);
    return p == MAP_FAILED ? NULL : p;
}

int fl_v4l2_munmap(void *start, size_t length) { return v4l2_munmap(start, length); }

int fl_v4l2_close(int fd) { return v4l2_close(fd); }

int fl_v4l2_wait(int fd, int timeout_ms, int *hangup) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int result;
    do result = poll(&p, 1, timeout_ms);
    while (result == -1 && errno == EINTR);
    *hangup = result > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0;
    return result;
}

fl_v4l2_converter *fl_v4l2_converter_create(int fd) { return v4lconvert_create(fd); }

void fl_v4l2_converter_destroy(fl_v4l2_converter *converter) { v4lconvert_destroy(converter); }

int fl_v4l2_convert_to_bgr24(fl_v4l2_converter *converter, const struct v4l2_format *src_format,
                             const void *src, size_t src_size, void *dst, size_t dst_size,
                             char *err, size_t err_len) {
    struct v4l2_format native = *src_format, dest = *src_format;
    dest.fmt.pix.pixelformat = V4L2_PIX_FMT_BGR24;
    dest.fmt.pix.bytesperline = dest.fmt.pix.width * 3;
    dest.fmt.pix.sizeimage = dest.fmt.pix.bytesperline * dest.fmt.pix.height;
    int n = v4lconvert_convert(converter, &native, &dest, (unsigned char *)src, (int)src_size,
                               (unsigned char *)dst, (int)dst_size);
    if (n < 0 && err && err_len) snprintf(err, err_len, "%s", v4lconvert_get_error_message(converter));
    return n;
}
