// The C++ side of the OpenCV bridge. Every entry point catches cv::Exception (and any
// other C++ exception) so nothing unwinds into Swift; failures become status codes.
#include "framelab_cv.h"
#include "bridge_errors.hpp"
#include "bridge_image.hpp"
#include "on_demand.hpp"

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdlib>
#include <cstring>
#include <string>

struct fl_cvmat {
    cv::Mat mat;
};

// Videos and writers live in libFramelabCVOnDemand.so (on_demand.hpp); these hold its handle.
struct fl_video {
    void *handle;
    cv::Mat decoded;
    fl_video_info info;
};

struct fl_video_writer {
    void *handle;
    cv::Size size;
    cv::Mat bgr;
};

namespace {

using fl_bridge::guarded;
using fl_bridge::header;
using fl_bridge::set_error;

// Set once at load time, before any OpenCV call (OpenCV's own settings, not the process's):
// - Framelab reports every failure in one line of its own, so OpenCV's console chatter is
//   silenced; OPENCV_LOG_LEVEL brings it back. FFmpeg's is silenced by the programs at
//   start-up (VideoLogs.quiet() in FramelabCV), since that takes an environment variable.
// - OpenCV's own thread pool (TBB on Debian) is off: Framelab runs its own threads, its
//   benchmarks compare one-thread OpenCV, and TBB workers still running while the process
//   exits crashed it intermittently. FRAMELAB_OPENCV_THREADS=N turns the pool back on.
struct QuietLibraries {
    QuietLibraries() {
        if (!std::getenv("OPENCV_LOG_LEVEL")) {
            cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        }
        const char *threads = std::getenv("FRAMELAB_OPENCV_THREADS");
        cv::setNumThreads(threads ? std::atoi(threads) : 1);
    }
};
const QuietLibraries quiet_libraries;


int32_t fl_format(int type) {
    switch (type) {
    case CV_8UC1: return FL_FORMAT_GRAY8;
    case CV_8UC3: return FL_FORMAT_BGR8;
    case CV_8UC4: return FL_FORMAT_BGRA8;
    case CV_32FC1: return FL_FORMAT_GRAYF32;
    default: return 0;
    }
}


// Converts `src` (any supported layout) into `dst` of the wanted format.
int convert_mat(const cv::Mat &src, cv::Mat &dst, int32_t src_format, int32_t dst_format,
                char *err, size_t err_len) {
    if (src_format == dst_format) {
        src.copyTo(dst);
        return FL_CV_OK;
    }
    auto is_float = [](int32_t f) { return f == FL_FORMAT_GRAYF32; };
    if (is_float(src_format) || is_float(dst_format)) {
        // Float images are gray only: go through gray8 for colour ends.
        cv::Mat gray;
        if (is_float(src_format)) {
            src.convertTo(gray, CV_8U);
            return convert_mat(gray, dst, FL_FORMAT_GRAY8, dst_format, err, err_len);
        }
        if (src_format != FL_FORMAT_GRAY8) {
            convert_mat(src, gray, src_format, FL_FORMAT_GRAY8, err, err_len);
        } else {
            gray = src;
        }
        gray.convertTo(dst, CV_32F);
        return FL_CV_OK;
    }
    int code = -1;
    switch (src_format * 10 + dst_format) {
    case FL_FORMAT_GRAY8 * 10 + FL_FORMAT_BGR8: code = cv::COLOR_GRAY2BGR; break;
    case FL_FORMAT_GRAY8 * 10 + FL_FORMAT_BGRA8: code = cv::COLOR_GRAY2BGRA; break;
    case FL_FORMAT_BGR8 * 10 + FL_FORMAT_GRAY8: code = cv::COLOR_BGR2GRAY; break;
    case FL_FORMAT_BGR8 * 10 + FL_FORMAT_BGRA8: code = cv::COLOR_BGR2BGRA; break;
    case FL_FORMAT_BGRA8 * 10 + FL_FORMAT_GRAY8: code = cv::COLOR_BGRA2GRAY; break;
    case FL_FORMAT_BGRA8 * 10 + FL_FORMAT_BGR8: code = cv::COLOR_BGRA2BGR; break;
    }
    if (code < 0) {
        set_error(err, err_len, "no conversion between these formats");
        return FL_CV_UNSUPPORTED;
    }
    cv::cvtColor(src, dst, code);
    return FL_CV_OK;
}

// Formats of decoded files: imread gives gray, BGR or BGRA (IMREAD_UNCHANGED, 8-bit).
int32_t decoded_format(const cv::Mat &m) { return fl_format(m.type()); }

int finish_decode(cv::Mat &decoded, int32_t format, fl_cvmat **out, char *err, size_t err_len) {
    if (decoded.depth() != CV_8U) {
        // 16-bit PNGs and the like: scale to 8 bits.
        cv::Mat eight;
        double scale = decoded.depth() == CV_16U ? 1.0 / 257.0 : 1.0;
        decoded.convertTo(eight, CV_8U, scale);
        decoded = eight;
    }
    int32_t from = decoded_format(decoded);
    if (from == 0) {
        set_error(err, err_len, "unsupported channel count " + std::to_string(decoded.channels()));
        return FL_CV_UNSUPPORTED;
    }
    auto *result = new fl_cvmat();
    int status = convert_mat(decoded, result->mat, from, format, err, err_len);
    if (status != FL_CV_OK) {
        delete result;
        return status;
    }
    *out = result;
    return FL_CV_OK;
}

} // namespace

extern "C" {

fl_image fl_cvmat_image(const fl_cvmat *mat) {
    fl_image image;
    image.format = fl_format(mat->mat.type());
    image.width = mat->mat.cols;
    image.height = mat->mat.rows;
    image.stride = static_cast<int64_t>(mat->mat.step[0]);
    image.data = mat->mat.data;
    return image;
}

void fl_cvmat_release(fl_cvmat *mat) { delete mat; }

const void *fl_cv_header_data(const fl_image *image) {
    try {
        return header(image).data;
    } catch (...) {
        return nullptr;
    }
}

int fl_cv_fill_rect(const fl_image *image, int x, int y, int width, int height,
                    const double value[4], char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        cv::Mat m = header(image);
        m(cv::Rect(x, y, width, height)).setTo(cv::Scalar(value[0], value[1], value[2], value[3]));
        return FL_CV_OK;
    });
}

int fl_cv_convert(const fl_image *src, const fl_image *dst, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        if (src->width != dst->width || src->height != dst->height) {
            set_error(err, err_len, "convert: sizes differ");
            return FL_CV_ERROR;
        }
        cv::Mat in = header(src);
        cv::Mat out = header(dst);
        void *before = out.data;
        int status = convert_mat(in, out, src->format, dst->format, err, err_len);
        if (status == FL_CV_OK && out.data != before) {
            // OpenCV reallocated: the destination header did not match; should not happen.
            set_error(err, err_len, "convert: destination was reallocated");
            return FL_CV_ERROR;
        }
        return status;
    });
}

int fl_cv_put_text(const fl_image *image, const char *text, int x, int y, double scale,
                   const double color[4], int thickness, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        cv::Mat m = header(image);
        cv::putText(m, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale,
                    cv::Scalar(color[0], color[1], color[2], color[3]), thickness, cv::LINE_AA);
        return FL_CV_OK;
    });
}

int fl_cv_decode_file(const char *path, int32_t format, fl_cvmat **out, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        const fl_cv_on_demand *io = fl_bridge::on_demand(err, err_len);
        if (!io) return FL_CV_ERROR;
        cv::Mat decoded;
        int status = io->decode_file(path, &decoded, err, err_len);
        return status == FL_CV_OK ? finish_decode(decoded, format, out, err, err_len) : status;
    });
}

int fl_cv_decode_bytes(const void *bytes, size_t count, int32_t format, fl_cvmat **out,
                       char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        const fl_cv_on_demand *io = fl_bridge::on_demand(err, err_len);
        if (!io) return FL_CV_ERROR;
        cv::Mat decoded;
        int status = io->decode_bytes(bytes, count, &decoded, err, err_len);
        return status == FL_CV_OK ? finish_decode(decoded, format, out, err, err_len) : status;
    });
}

int fl_cv_encode_file(const char *path, const fl_image *image, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        const fl_cv_on_demand *io = fl_bridge::on_demand(err, err_len);
        if (!io) return FL_CV_ERROR;
        cv::Mat m = header(image);
        if (image->format == FL_FORMAT_GRAYF32) {
            cv::Mat eight;
            m.convertTo(eight, CV_8U);
            m = eight;
        }
        return io->encode_file(path, &m, err, err_len);
    });
}

fl_video *fl_video_open(const char *path, char *err, size_t err_len) {
    try {
        const fl_cv_on_demand *io = fl_bridge::on_demand(err, err_len);
        if (!io) return nullptr;
        auto *video = new fl_video();
        video->handle = io->video_open(path, &video->info, err, err_len);
        if (!video->handle) {
            delete video;
            return nullptr;
        }
        return video;
    } catch (...) {
        set_error(err, err_len, fl_bridge::current_exception_message());
    }
    return nullptr;
}

fl_video_info fl_video_get_info(const fl_video *video) { return video->info; }

int fl_video_read(fl_video *video, int32_t format, fl_cvmat **out, double *pts_ms,
                  char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        // A video exists only once the library is loaded, so this never loads it.
        int status = fl_bridge::on_demand(err, err_len)->video_read(video->handle, &video->decoded, pts_ms, err, err_len);
        return status == FL_CV_OK ? finish_decode(video->decoded, format, out, err, err_len) : status;
    });
}

void fl_video_close(fl_video *video) {
    if (!video) return;
    if (const fl_cv_on_demand *io = fl_bridge::on_demand_if_loaded()) io->video_close(video->handle);
    delete video;
}

fl_video_writer *fl_video_writer_open(const char *path, double fps, int32_t width, int32_t height,
                                      char *err, size_t err_len) {
    try {
        const fl_cv_on_demand *io = fl_bridge::on_demand(err, err_len);
        if (!io) return nullptr;
        auto *writer = new fl_video_writer();
        writer->size = cv::Size(width, height);
        writer->handle = io->writer_open(path, fps, width, height, err, err_len);
        if (!writer->handle) {
            delete writer;
            return nullptr;
        }
        return writer;
    } catch (...) {
        set_error(err, err_len, fl_bridge::current_exception_message());
    }
    return nullptr;
}

int fl_video_writer_write(fl_video_writer *writer, const fl_image *image, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        if (image->width != writer->size.width || image->height != writer->size.height) {
            set_error(err, err_len, "frame size differs from the video's");
            return FL_CV_ERROR;
        }
        cv::Mat m = header(image);
        int status = convert_mat(m, writer->bgr, image->format, FL_FORMAT_BGR8, err, err_len);
        if (status != FL_CV_OK) return status;
        return fl_bridge::on_demand(err, err_len)->writer_write(writer->handle, &writer->bgr, err, err_len);
    });
}

void fl_video_writer_close(fl_video_writer *writer) {
    if (!writer) return;
    if (const fl_cv_on_demand *io = fl_bridge::on_demand_if_loaded()) io->writer_close(writer->handle);
    delete writer;
}

} // extern "C"
