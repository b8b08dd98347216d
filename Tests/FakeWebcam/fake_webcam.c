// fake_webcam.c — an emulated UVC webcam for Framelab's tests (LD_PRELOAD only).
//
// No machine here has a camera, a vivid or v4l2loopback module, or CUSE, so the tests
// preload this library: it answers the system calls a V4L2 client makes for chosen
// device paths the way a USB webcam driven by uvcvideo would, and passes every other
// call through to the C library untouched.
//
// Why `syscall` is interposed: libv4l2 and libv4lconvert do not call open/ioctl/mmap;
// they call syscall(SYS_openat | SYS_ioctl | SYS_mmap | SYS_munmap | SYS_close | SYS_read)
// (see `nm -D libv4l2.so.0`: its only device entry point is `syscall`). The libc
// wrappers (open, openat, open64, ioctl, mmap, mmap64, munmap, close, read) are
// interposed as well, for clients that do not go through libv4l2.
//
// The device fd is a real eventfd (EFD_SEMAPHORE): a ticker thread signals it once per
// filled buffer, so poll, select and epoll on it behave as on a camera without being
// interposed, and a blocking DQBUF blocks in read().
//
// Environment:
//   FRAMELAB_FAKE_WEBCAM          device paths, comma separated (e.g. /dev/video0,/dev/video2)
//   FRAMELAB_FAKE_WEBCAM_FORMATS  offered formats in order: yuyv,mjpeg (default both)
//   FRAMELAB_FAKE_WEBCAM_FPS      an extra, faster frame rate offered at 320x240 and 640x480
//   FRAMELAB_FAKE_WEBCAM_FAULT    eacces | ebusy | not-capture | unplug:N | stall:N
//                                 (unplug: ENODEV after N frames; stall: no frame after N)
//   FRAMELAB_FAKE_WEBCAM_TRACE    1: log every emulated call to stderr
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>  // after stdio.h, which it needs
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVICES 8
#define MAX_OPEN 16
#define MAX_BUFFERS 32
#define MAX_FORMATS 2

// ---------------------------------------------------------------- configuration

typedef struct { uint32_t width, height; } frame_size;

enum fault { FAULT_NONE, FAULT_EACCES, FAULT_EBUSY, FAULT_NOT_CAPTURE, FAULT_UNPLUG, FAULT_STALL };

static struct {
    int device_count;
    char devices[MAX_DEVICES][64];
    int format_count;
    uint32_t formats[MAX_FORMATS];
    uint32_t fast_fps;
    enum fault fault;
    long fault_after;
    int trace;
} config;

static const frame_size yuyv_sizes[] = {{640, 480}, {320, 240}, {1280, 720}};
static const frame_size mjpeg_sizes[] = {{640, 480}, {320, 240}, {1280, 720}, {1920, 1080}};

static long (*real_syscall)(long, ...);
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load_config(void) {
    real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    const char *devices = getenv("FRAMELAB_FAKE_WEBCAM");
    if (devices) {
        char copy[512];
        snprintf(copy, sizeof copy, "%s", devices);
        char *save = NULL;
        for (char *p = strtok_r(copy, ",", &save); p && config.device_count < MAX_DEVICES;
             p = strtok_r(NULL, ",", &save))
            snprintf(config.devices[config.device_count++], 64, "%s", p);
    }
    const char *formats = getenv("FRAMELAB_FAKE_WEBCAM_FORMATS");
    if (!formats) formats = "yuyv,mjpeg";
    char copy[64];
    snprintf(copy, sizeof copy, "%s", formats);
    char *save = NULL;
    for (char *p = strtok_r(copy, ",", &save); p && config.format_count < MAX_FORMATS;
         p = strtok_r(NULL, ",", &save)) {
        if (!strcmp(p, "yuyv")) config.formats[config.format_count++] = V4L2_PIX_FMT_YUYV;
        if (!strcmp(p, "mjpeg")) config.formats[config.format_count++] = V4L2_PIX_FMT_MJPEG;
    }
    const char *fps = getenv("FRAMELAB_FAKE_WEBCAM_FPS");
    config.fast_fps = fps ? (uint32_t)strtoul(fps, NULL, 10) : 0;
    const char *fault = getenv("FRAMELAB_FAKE_WEBCAM_FAULT");
    if (fault) {
        if (!strcmp(fault, "eacces")) config.fault = FAULT_EACCES;
        else if (!strcmp(fault, "ebusy")) config.fault = FAULT_EBUSY;
        else if (!strcmp(fault, "not-capture")) config.fault = FAULT_NOT_CAPTURE;
        else if (!strncmp(fault, "unplug:", 7)) { config.fault = FAULT_UNPLUG; config.fault_after = atol(fault + 7); }
        else if (!strncmp(fault, "stall:", 6)) { config.fault = FAULT_STALL; config.fault_after = atol(fault + 6); }
    }
    config.trace = getenv("FRAMELAB_FAKE_WEBCAM_TRACE") != NULL;
}

static void ensure_config(void) { pthread_once(&once, load_config); }

static void trace(const char *fmt, ...) {
    if (!config.trace) return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = sizeof line - 2;
    line[n++] = '\n';
    real_syscall(SYS_write, 2, line, n);
}

// ---------------------------------------------------------------- per-open state

typedef struct {
    void *memory;
    size_t length;       // page-rounded allocation
    uint32_t bytesused;
    uint32_t sequence;
    struct timeval timestamp;
    int state;           // 0 dequeued, 1 queued (waiting for a frame), 2 done (filled)
    uint64_t order;      // fill order, so DQBUF returns the oldest filled buffer
} buffer;

typedef struct {
    int used;
    int fd;
    int device;
    uint32_t pixelformat, width, height;
    uint32_t interval_num, interval_den;
    int buffer_count;
    buffer buffers[MAX_BUFFERS];
    int streaming, unplugged, stop;
    long produced;       // frames handed out since STREAMON (sequence numbers)
    long lifetime;       // frames produced since open: faults count these, so a restart does not heal them
    uint64_t fill_order, queue_order;
    pthread_t ticker;
    unsigned char *jpeg_scratch;
    unsigned long jpeg_scratch_size;
    unsigned char *rgb_row;
} camera;

static camera cameras[MAX_OPEN];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static camera *camera_for_fd(int fd) {
    if (fd < 0) return NULL;
    for (int i = 0; i < MAX_OPEN; i++)
        if (cameras[i].used && cameras[i].fd == fd) return &cameras[i];
    return NULL;
}

static int device_index(const char *path) {
    if (!path) return -1;
    ensure_config();
    for (int i = 0; i < config.device_count; i++)
        if (!strcmp(config.devices[i], path)) return i;
    return -1;
}

static const frame_size *sizes_for(uint32_t pixelformat, int *count) {
    if (pixelformat == V4L2_PIX_FMT_MJPEG) { *count = 4; return mjpeg_sizes; }
    *count = 3;
    return yuyv_sizes;
}

static int offers(uint32_t pixelformat) {
    for (int i = 0; i < config.format_count; i++) if (config.formats[i] == pixelformat) return 1;
    return 0;
}

// Frame rates offered for a format and size, fastest first (as uvcvideo lists them).
static int rates_for(uint32_t pixelformat, uint32_t width, uint32_t height, uint32_t rates[4]) {
    (void)height;
    int n = 0;
    if (config.fast_fps > 30 && width <= 640) rates[n++] = config.fast_fps;
    if (pixelformat == V4L2_PIX_FMT_YUYV && width >= 1280) {
        rates[n++] = 10;  // USB 2 bandwidth: uncompressed 720p is slow on real webcams
        return n;
    }
    rates[n++] = 30;
    rates[n++] = 15;
    return n;
}

static uint32_t size_image(uint32_t pixelformat, uint32_t w, uint32_t h) {
    (void)pixelformat;
    return w * h * 2;  // YUYV exactly; MJPEG's worst case, as uvcvideo reports it
}

// Closest offered size (by area difference), like uvc_v4l2_try_format.
static void fit_format(struct v4l2_pix_format *pix) {
    if (!offers(pix->pixelformat)) pix->pixelformat = config.formats[0];
    int count;
    const frame_size *sizes = sizes_for(pix->pixelformat, &count);
    long best = -1;
    frame_size chosen = sizes[0];
    for (int i = 0; i < count; i++) {
        long dw = (long)sizes[i].width - pix->width, dh = (long)sizes[i].height - pix->height;
        long d = labs(dw) * 4 + labs(dh) * 4 + labs((long)sizes[i].width * sizes[i].height - (long)pix->width * pix->height) / 64;
        if (best < 0 || d < best) { best = d; chosen = sizes[i]; }
    }
    pix->width = chosen.width;
    pix->height = chosen.height;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = pix->pixelformat == V4L2_PIX_FMT_YUYV ? pix->width * 2 : 0;
    pix->sizeimage = size_image(pix->pixelformat, pix->width, pix->height);
    pix->colorspace = V4L2_COLORSPACE_SRGB;
    pix->priv = 0;
}

// ---------------------------------------------------------------- the picture

// 75% colour bars (white, yellow, cyan, green, magenta, red, blue, black), scrolled by
// four pixels a frame; the second device shows them in reverse order.
static const unsigned char bars_rgb[8][3] = {
    {191, 191, 191}, {191, 191, 0}, {0, 191, 191}, {0, 191, 0},
    {191, 0, 191}, {191, 0, 0}, {0, 0, 191}, {0, 0, 0},
};

static int bar_at(const camera *c, uint32_t x, long frame) {
    int bar = (int)(((x + (uint64_t)frame * 4) % c->width) * 8 / c->width);
    return c->device % 2 ? 7 - bar : bar;
}

static unsigned char clamp_byte(double v) { return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5); }

static void rgb_to_yuv(const unsigned char rgb[3], unsigned char yuv[3]) {
    // BT.601 full range (JFIF), which libv4lconvert assumes for YUYV, like most webcams' MJPEG.
    double r = rgb[0], g = rgb[1], b = rgb[2];
    yuv[0] = clamp_byte(0.299 * r + 0.587 * g + 0.114 * b);
    yuv[1] = clamp_byte(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
    yuv[2] = clamp_byte(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
}

static uint32_t render_yuyv(const camera *c, unsigned char *out, long frame) {
    unsigned char yuv[8][3];
    for (int i = 0; i < 8; i++) rgb_to_yuv(bars_rgb[i], yuv[i]);
    unsigned char *row0 = out;
    for (uint32_t x = 0; x < c->width; x += 2) {
        const unsigned char *a = yuv[bar_at(c, x, frame)], *b = yuv[bar_at(c, x + 1, frame)];
        unsigned char *p = row0 + x * 2;
        p[0] = a[0];
        p[1] = (unsigned char)((a[1] + b[1]) / 2);
        p[2] = b[0];
        p[3] = (unsigned char)((a[2] + b[2]) / 2);
    }
    for (uint32_t y = 1; y < c->height; y++) memcpy(out + y * c->width * 2, row0, c->width * 2);
    return c->width * c->height * 2;
}

static uint32_t render_mjpeg(camera *c, unsigned char *out, size_t capacity, long frame) {
    for (uint32_t x = 0; x < c->width; x++) memcpy(c->rgb_row + 3 * x, bars_rgb[bar_at(c, x, frame)], 3);
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    cinfo.err = jpeg_std_error(&jerr);
    jpeg_create_compress(&cinfo);
    // A reused scratch buffer: libjpeg grows it only if a frame ever exceeds it.
    jpeg_mem_dest(&cinfo, &c->jpeg_scratch, &c->jpeg_scratch_size);
    cinfo.image_width = c->width;
    cinfo.image_height = c->height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, 85, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = c->rgb_row;
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    // jpeg_mem_dest leaves the written size in jpeg_scratch_size; keep the capacity.
    unsigned long written = c->jpeg_scratch_size;
    jpeg_destroy_compress(&cinfo);
    c->jpeg_scratch_size = (unsigned long)c->width * c->height * 3;
    if (written > capacity) written = capacity;
    memcpy(out, c->jpeg_scratch, written);
    return (uint32_t)written;
}

// ---------------------------------------------------------------- streaming

static void signal_fd(int fd, uint64_t count) { real_syscall(SYS_write, fd, &count, sizeof count); }

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// Produces one frame per interval into the oldest queued buffer; with none queued the
// frame is lost (its sequence number is skipped), as on a real device.
static void *ticker_main(void *arg) {
    camera *c = arg;
    uint64_t start = now_ns();
    for (long tick = 0;; tick++) {
        uint64_t due = start + (uint64_t)tick * 1000000000ull * c->interval_num / c->interval_den;
        struct timespec ts = {(time_t)(due / 1000000000ull), (long)(due % 1000000000ull)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        pthread_mutex_lock(&lock);
        if (c->stop) { pthread_mutex_unlock(&lock); return NULL; }
        if (config.fault == FAULT_UNPLUG && c->lifetime >= config.fault_after) {
            c->unplugged = 1;
            trace("fake-webcam: unplugged after %ld frames", c->produced);
            signal_fd(c->fd, 1u << 20);  // wake pollers and blocked readers
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        if (config.fault == FAULT_STALL && c->lifetime >= config.fault_after) {
            pthread_mutex_unlock(&lock);
            continue;
        }
        buffer *target = NULL;
        for (int i = 0; i < c->buffer_count; i++) {
            buffer *b = &c->buffers[i];
            if (b->state == 1 && (!target || b->order < target->order)) target = b;
        }
        long sequence = c->produced++;
        c->lifetime++;
        if (target) {
            target->bytesused = c->pixelformat == V4L2_PIX_FMT_MJPEG
                ? render_mjpeg(c, target->memory, target->length, sequence)
                : render_yuyv(c, target->memory, sequence);
            target->sequence = (uint32_t)sequence;
            target->timestamp.tv_sec = (time_t)(due / 1000000000ull);
            target->timestamp.tv_usec = (suseconds_t)(due % 1000000000ull / 1000);
            target->state = 2;
            target->order = c->fill_order++;
            signal_fd(c->fd, 1);
        }
        pthread_mutex_unlock(&lock);
    }
}

static void stop_streaming(camera *c) {
    if (!c->streaming) return;
    c->stop = 1;
    pthread_mutex_unlock(&lock);
    pthread_join(c->ticker, NULL);
    pthread_mutex_lock(&lock);
    c->streaming = 0;
    for (int i = 0; i < c->buffer_count; i++) c->buffers[i].state = 0;
    // Drain the eventfd so a later STREAMON starts with no stale frames.
    uint64_t value;
    int flags = (int)real_syscall(SYS_fcntl, c->fd, F_GETFL);
    real_syscall(SYS_fcntl, c->fd, F_SETFL, flags | O_NONBLOCK);
    real_syscall(SYS_read, c->fd, &value, sizeof value);
    while (real_syscall(SYS_read, c->fd, &value, sizeof value) > 0) {}
    real_syscall(SYS_fcntl, c->fd, F_SETFL, flags);
}

static void free_buffers(camera *c) {
    for (int i = 0; i < c->buffer_count; i++)
        real_syscall(SYS_munmap, c->buffers[i].memory, c->buffers[i].length);
    c->buffer_count = 0;
}

// ---------------------------------------------------------------- ioctls

static int fail(int error) { errno = error; return -1; }

static double fabs_d(double v) { return v < 0 ? -v : v; }

static int query_buffer(camera *c, struct v4l2_buffer *buf) {
    if (buf->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || buf->index >= (uint32_t)c->buffer_count) return fail(EINVAL);
    buffer *b = &c->buffers[buf->index];
    uint32_t index = buf->index;
    memset(buf, 0, sizeof *buf);
    buf->index = index;
    buf->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buf->memory = V4L2_MEMORY_MMAP;
    buf->m.offset = index * (uint32_t)b->length;
    buf->length = size_image(c->pixelformat, c->width, c->height);
    buf->field = V4L2_FIELD_NONE;
    buf->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_SOE
        | (b->state == 1 ? V4L2_BUF_FLAG_QUEUED : 0) | (b->state == 2 ? V4L2_BUF_FLAG_DONE : 0);
    buf->bytesused = b->state == 2 ? b->bytesused : 0;
    buf->sequence = b->sequence;
    buf->timestamp = b->timestamp;
    return 0;
}

// Called with `lock` held; DQBUF may release it while waiting.
static int camera_ioctl(camera *c, unsigned long request, void *arg, int nonblocking) {
    if (c->unplugged) return fail(ENODEV);
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *cap = arg;
        memset(cap, 0, sizeof *cap);
        snprintf((char *)cap->driver, sizeof cap->driver, "uvcvideo");
        snprintf((char *)cap->card, sizeof cap->card, "Framelab Emulated Webcam %u", (unsigned)(c->device + 1) % 10u);
        snprintf((char *)cap->bus_info, sizeof cap->bus_info, "usb-0000:00:14.0-%d", c->device + 1);
        cap->version = (6u << 16) | (1u << 8);
        cap->device_caps = config.fault == FAULT_NOT_CAPTURE
            ? V4L2_CAP_META_CAPTURE | V4L2_CAP_STREAMING
            : V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | V4L2_CAP_EXT_PIX_FORMAT;
        cap->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_META_CAPTURE | V4L2_CAP_STREAMING
            | V4L2_CAP_EXT_PIX_FORMAT | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *d = arg;
        if (d->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || d->index >= (uint32_t)config.format_count) return fail(EINVAL);
        uint32_t index = d->index, type = d->type;
        memset(d, 0, sizeof *d);
        d->index = index;
        d->type = type;
        d->pixelformat = config.formats[index];
        if (d->pixelformat == V4L2_PIX_FMT_MJPEG) {
            d->flags = V4L2_FMT_FLAG_COMPRESSED;
            snprintf((char *)d->description, sizeof d->description, "Motion-JPEG");
        } else {
            snprintf((char *)d->description, sizeof d->description, "YUYV 4:2:2");
        }
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *s = arg;
        if (!offers(s->pixel_format)) return fail(EINVAL);
        int count;
        const frame_size *sizes = sizes_for(s->pixel_format, &count);
        if (s->index >= (uint32_t)count) return fail(EINVAL);
        s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        s->discrete.width = sizes[s->index].width;
        s->discrete.height = sizes[s->index].height;
        return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *f = arg;
        if (!offers(f->pixel_format)) return fail(EINVAL);
        int count, found = 0;
        const frame_size *sizes = sizes_for(f->pixel_format, &count);
        for (int i = 0; i < count; i++) found |= sizes[i].width == f->width && sizes[i].height == f->height;
        uint32_t rates[4];
        int n = rates_for(f->pixel_format, f->width, f->height, rates);
        if (!found || f->index >= (uint32_t)n) return fail(EINVAL);
        f->type = V4L2_FRMIVAL_TYPE_DISCRETE;
        f->discrete.numerator = 1;
        f->discrete.denominator = rates[f->index];
        return 0;
    }
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        if (request == VIDIOC_G_FMT) {
            memset(&f->fmt.pix, 0, sizeof f->fmt.pix);
            f->fmt.pix.pixelformat = c->pixelformat;
            f->fmt.pix.width = c->width;
            f->fmt.pix.height = c->height;
            fit_format(&f->fmt.pix);
            return 0;
        }
        if (request == VIDIOC_S_FMT && (config.fault == FAULT_EBUSY || c->buffer_count > 0)) return fail(EBUSY);
        fit_format(&f->fmt.pix);
        if (request == VIDIOC_S_FMT) {
            c->pixelformat = f->fmt.pix.pixelformat;
            c->width = f->fmt.pix.width;
            c->height = f->fmt.pix.height;
            uint32_t rates[4];
            rates_for(c->pixelformat, c->width, c->height, rates);
            c->interval_num = 1;
            c->interval_den = rates[0];
        }
        return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *p = arg;
        if (p->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
        if (request == VIDIOC_S_PARM) {
            struct v4l2_fract want = p->parm.capture.timeperframe;
            double wanted_fps = want.numerator ? (double)want.denominator / want.numerator : 30;
            uint32_t rates[4];
            int n = rates_for(c->pixelformat, c->width, c->height, rates);
            uint32_t best = rates[0];
            for (int i = 1; i < n; i++)
                if (fabs_d(rates[i] - wanted_fps) < fabs_d(best - wanted_fps)) best = rates[i];
            c->interval_num = 1;
            c->interval_den = best;
        }
        memset(&p->parm, 0, sizeof p->parm);
        p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        p->parm.capture.timeperframe.numerator = c->interval_num;
        p->parm.capture.timeperframe.denominator = c->interval_den;
        p->parm.capture.readbuffers = 0;
        return 0;
    }
    case VIDIOC_ENUMINPUT: {
        struct v4l2_input *in = arg;
        if (in->index != 0) return fail(EINVAL);
        memset(in, 0, sizeof *in);
        snprintf((char *)in->name, sizeof in->name, "Camera 1");
        in->type = V4L2_INPUT_TYPE_CAMERA;
        return 0;
    }
    case VIDIOC_G_INPUT: *(int *)arg = 0; return 0;
    case VIDIOC_S_INPUT: return *(int *)arg == 0 ? 0 : fail(EINVAL);
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *r = arg;
        if (r->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || r->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
        if (config.fault == FAULT_EBUSY) return fail(EBUSY);
        if (c->streaming) return fail(EBUSY);
        free_buffers(c);
        if (r->count == 0) return 0;
        uint32_t count = r->count > MAX_BUFFERS ? MAX_BUFFERS : r->count;
        size_t page = 4096, length = (size_image(c->pixelformat, c->width, c->height) + page - 1) / page * page;
        for (uint32_t i = 0; i < count; i++) {
            void *m = (void *)real_syscall(SYS_mmap, NULL, length, PROT_READ | PROT_WRITE,
                                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m == MAP_FAILED) { free_buffers(c); return fail(ENOMEM); }
            c->buffers[i] = (buffer){.memory = m, .length = length};
            c->buffer_count = (int)i + 1;
        }
        r->count = count;
        r->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
        return 0;
    }
    case VIDIOC_QUERYBUF: return query_buffer(c, arg);
    case VIDIOC_QBUF: {
        struct v4l2_buffer *buf = arg;
        if (buf->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || buf->memory != V4L2_MEMORY_MMAP
            || buf->index >= (uint32_t)c->buffer_count || c->buffers[buf->index].state != 0) return fail(EINVAL);
        c->buffers[buf->index].state = 1;
        c->buffers[buf->index].order = c->queue_order++;  // frames fill buffers in queue order
        return query_buffer(c, buf);
    }
    case VIDIOC_DQBUF: {
        struct v4l2_buffer *buf = arg;
        if (buf->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || buf->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
        if (!c->streaming) return fail(EINVAL);
        int fd = c->fd;
        pthread_mutex_unlock(&lock);
        uint64_t value;
        long got;
        // The eventfd carries the open's O_NONBLOCK: a blocking open waits here for a frame.
        (void)nonblocking;
        got = real_syscall(SYS_read, fd, &value, sizeof value);
        pthread_mutex_lock(&lock);
        if (c->unplugged) return fail(ENODEV);
        if (got < 0) return fail(errno == EAGAIN ? EAGAIN : errno);
        buffer *done = NULL;
        for (int i = 0; i < c->buffer_count; i++) {
            buffer *b = &c->buffers[i];
            if (b->state == 2 && (!done || b->order < done->order)) done = b;
        }
        if (!done) return fail(EAGAIN);
        buf->index = (uint32_t)(done - c->buffers);
        query_buffer(c, buf);  // reports bytesused, sequence and timestamp of the filled buffer
        done->state = 0;
        buf->flags &= ~(uint32_t)V4L2_BUF_FLAG_DONE;
        return 0;
    }
    case VIDIOC_STREAMON: {
        if (c->buffer_count == 0) return fail(EINVAL);
        if (c->streaming) return 0;
        c->stop = 0;
        c->produced = 0;
        if (!c->rgb_row) c->rgb_row = malloc(1920 * 3);
        if (!c->jpeg_scratch) {
            c->jpeg_scratch_size = 1920ul * 1080 * 3;
            c->jpeg_scratch = malloc(c->jpeg_scratch_size);
        }
        c->jpeg_scratch_size = (unsigned long)c->width * c->height * 3;
        c->streaming = 1;
        pthread_create(&c->ticker, NULL, ticker_main, c);
        return 0;
    }
    case VIDIOC_STREAMOFF:
        stop_streaming(c);
        return 0;
    default:
        return fail(ENOTTY);
    }
}

// ---------------------------------------------------------------- entry points

static int fake_open(const char *path, int flags) {
    int device = device_index(path);
    if (config.fault == FAULT_EACCES) return fail(EACCES);
    pthread_mutex_lock(&lock);
    camera *c = NULL;
    for (int i = 0; i < MAX_OPEN; i++) if (!cameras[i].used) { c = &cameras[i]; break; }
    if (!c) { pthread_mutex_unlock(&lock); return fail(EMFILE); }
    int fd = (int)real_syscall(SYS_eventfd2, 0, EFD_SEMAPHORE | EFD_CLOEXEC | (flags & O_NONBLOCK ? EFD_NONBLOCK : 0));
    if (fd < 0) { pthread_mutex_unlock(&lock); return -1; }
    *c = (camera){.used = 1, .fd = fd, .device = device};
    c->pixelformat = config.formats[0];
    c->width = 640;
    c->height = 480;
    c->interval_num = 1;
    c->interval_den = 30;
    pthread_mutex_unlock(&lock);
    trace("fake-webcam: open %s -> fd %d", path, fd);
    return fd;
}

static int fake_close(camera *c) {
    pthread_mutex_lock(&lock);
    stop_streaming(c);
    free_buffers(c);
    free(c->jpeg_scratch);
    free(c->rgb_row);
    int fd = c->fd;
    c->used = 0;
    pthread_mutex_unlock(&lock);
    trace("fake-webcam: close fd %d", fd);
    return (int)real_syscall(SYS_close, fd);
}

static long fake_ioctl(camera *c, unsigned long request, void *arg) {
    pthread_mutex_lock(&lock);
    int flags = (int)real_syscall(SYS_fcntl, c->fd, F_GETFL);
    int result = camera_ioctl(c, request, arg, flags >= 0 && (flags & O_NONBLOCK));
    int saved = errno;
    pthread_mutex_unlock(&lock);
    trace("fake-webcam: ioctl fd %d 0x%lx -> %d%s%s", c->fd, request, result,
          result ? " " : "", result ? strerror(saved) : "");
    errno = saved;
    return result;
}

static void *fake_mmap(camera *c, size_t length, off_t offset) {
    pthread_mutex_lock(&lock);
    void *result = MAP_FAILED;
    int error = EINVAL;
    if (c->unplugged) error = ENODEV;
    for (int i = 0; i < c->buffer_count && !c->unplugged; i++)
        if ((off_t)(i * c->buffers[i].length) == offset && length <= c->buffers[i].length) result = c->buffers[i].memory;
    pthread_mutex_unlock(&lock);
    if (result == MAP_FAILED) errno = error;
    return result;
}

// munmap of a buffer's memory keeps it alive: the emulator owns it until REQBUFS(0) or close.
static int is_buffer_memory(void *addr) {
    int found = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_OPEN; i++)
        for (int j = 0; cameras[i].used && j < cameras[i].buffer_count; j++)
            found |= cameras[i].buffers[j].memory == addr;
    pthread_mutex_unlock(&lock);
    return found;
}

static camera *lookup(int fd) {
    pthread_mutex_lock(&lock);
    camera *c = camera_for_fd(fd);
    pthread_mutex_unlock(&lock);
    return c;
}

long syscall(long number, ...) {
    ensure_config();
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    camera *c;
    switch (number) {
    case SYS_openat:
        if (device_index((const char *)a[1]) >= 0) return fake_open((const char *)a[1], (int)a[2]);
        break;
    case SYS_open:
        if (device_index((const char *)a[0]) >= 0) return fake_open((const char *)a[0], (int)a[1]);
        break;
    case SYS_ioctl:
        if ((c = lookup((int)a[0]))) return fake_ioctl(c, (unsigned long)a[1], (void *)a[2]);
        break;
    case SYS_mmap:
        if ((c = lookup((int)a[4]))) return (long)fake_mmap(c, (size_t)a[1], (off_t)a[5]);
        break;
    case SYS_munmap:
        if (is_buffer_memory((void *)a[0])) return 0;
        break;
    case SYS_close:
        if ((c = lookup((int)a[0]))) return fake_close(c);
        break;
    case SYS_read:
        if (lookup((int)a[0])) { errno = EINVAL; return -1; }  // no V4L2_CAP_READWRITE
        break;
    }
    return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

// The libc wrappers, for clients that call them directly.
int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = va_arg(ap, mode_t);
    va_end(ap);
    if (device_index(path) >= 0) return fake_open(path, flags);
    return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
int openat(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = va_arg(ap, mode_t);
    va_end(ap);
    if (device_index(path) >= 0) return fake_open(path, flags);
    return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));
int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return (int)syscall(SYS_ioctl, fd, request, arg);
}
void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
    return (void *)syscall(SYS_mmap, addr, length, prot, flags, fd, offset);
}
void *mmap64(void *addr, size_t length, int prot, int flags, int fd, off_t offset) __attribute__((alias("mmap")));
int munmap(void *addr, size_t length) { return (int)syscall(SYS_munmap, addr, length); }
int close(int fd) { return (int)syscall(SYS_close, fd); }
ssize_t read(int fd, void *buf, size_t count) { return (ssize_t)syscall(SYS_read, fd, buf, count); }
