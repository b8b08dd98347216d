// The on-demand library's calls into imgcodecs, videoio and highgui (the table of
// CFramelabCV/on_demand.hpp). Conversions between Framelab's formats stay in the bridge.
#include "../CFramelabCV/bridge_errors.hpp"
#include "parts.hpp"

#include <opencv2/core.hpp>
#include <opencv2/highgui.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include <cctype>
#include <climits>
#include <string>

namespace fl_on_demand {

using fl_bridge::guarded;
using fl_bridge::set_error;

namespace {

struct Video {
    cv::VideoCapture capture;
};

struct Writer {
    cv::VideoWriter writer;
};

}  // namespace

int decode_file(const char *path, cv::Mat *decoded, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        *decoded = cv::imread(path, cv::IMREAD_UNCHANGED);
        if (decoded->empty()) {
            set_error(err, err_len, "not a readable image (unknown format or corrupt data)");
            return FL_CV_ERROR;
        }
        return FL_CV_OK;
    });
}

int decode_bytes(const void *bytes, size_t count, cv::Mat *decoded, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        if (count > static_cast<size_t>(INT_MAX)) {  // a cv::Mat row holds at most INT_MAX bytes
            set_error(err, err_len, "encoded image larger than 2 GB");
            return FL_CV_UNSUPPORTED;
        }
        cv::Mat buffer(1, static_cast<int>(count), CV_8UC1, const_cast<void *>(bytes));
        *decoded = cv::imdecode(buffer, cv::IMREAD_UNCHANGED);
        if (decoded->empty()) {
            set_error(err, err_len, "not a decodable image (corrupt data)");
            return FL_CV_ERROR;
        }
        return FL_CV_OK;
    });
}

int encode_file(const char *path, const cv::Mat *image, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        if (!cv::imwrite(path, *image)) {
            set_error(err, err_len, "could not write (unknown extension or unwritable path)");
            return FL_CV_ERROR;
        }
        return FL_CV_OK;
    });
}

void *video_open(const char *path, fl_video_info *info, char *err, size_t err_len) {
    try {
        auto *video = new Video();
        // FFmpeg only: it reports frame counts and times reliably, and fails cleanly.
        if (!video->capture.open(path, cv::CAP_FFMPEG)) {
            delete video;
            set_error(err, err_len, "not a readable video (unknown container or corrupt data)");
            return nullptr;
        }
        info->fps = video->capture.get(cv::CAP_PROP_FPS);
        double count = video->capture.get(cv::CAP_PROP_FRAME_COUNT);
        // A cast of a double outside int64_t's range is undefined: containers can claim anything.
        info->frame_count = count > 0 && count < 9.0e18 ? static_cast<int64_t>(count) : -1;
        info->width = static_cast<int32_t>(video->capture.get(cv::CAP_PROP_FRAME_WIDTH));
        info->height = static_cast<int32_t>(video->capture.get(cv::CAP_PROP_FRAME_HEIGHT));
        return video;
    } catch (...) {
        set_error(err, err_len, fl_bridge::current_exception_message());
    }
    return nullptr;
}

int video_read(void *handle, cv::Mat *decoded, double *pts_ms, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        auto *video = static_cast<Video *>(handle);
        if (!video->capture.grab()) return FL_CV_END;
        *pts_ms = video->capture.get(cv::CAP_PROP_POS_MSEC);
        if (!video->capture.retrieve(*decoded) || decoded->empty()) {
            set_error(err, err_len, "frame could not be decoded");
            return FL_CV_ERROR;
        }
        return FL_CV_OK;
    });
}

void video_close(void *handle) { delete static_cast<Video *>(handle); }

void *writer_open(const char *path, double fps, int32_t width, int32_t height, char *err, size_t err_len) {
    try {
        std::string p(path);
        size_t dot = p.find_last_of('.');
        std::string ext = dot == std::string::npos ? std::string() : p.substr(dot + 1);
        for (auto &c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        // A codec every Debian OpenCV build writes for the container.
        int fourcc = cv::VideoWriter::fourcc('M', 'J', 'P', 'G');
        if (ext == "mp4" || ext == "m4v" || ext == "mov") fourcc = cv::VideoWriter::fourcc('m', 'p', '4', 'v');
        auto *writer = new Writer();
        if (!writer->writer.open(p, cv::CAP_FFMPEG, fourcc, fps > 0 ? fps : 30.0, cv::Size(width, height), true)) {
            delete writer;
            set_error(err, err_len, "could not open a video writer (unknown extension or unwritable path)");
            return nullptr;
        }
        return writer;
    } catch (...) {
        set_error(err, err_len, fl_bridge::current_exception_message());
    }
    return nullptr;
}

int writer_write(void *handle, const cv::Mat *bgr, char *err, size_t err_len) {
    return guarded(err, err_len, [&]() -> int {
        static_cast<Writer *>(handle)->writer.write(*bgr);
        return FL_CV_OK;
    });
}

void writer_close(void *handle) { delete static_cast<Writer *>(handle); }

int preview_show(const char *name, const cv::Mat *image, int wait_ms, char *err, size_t err_len) {
    int key = -1;
    int status = guarded(err, err_len, [&]() -> int {
        // GUI_NORMAL: no toolbar (the Qt backend adds one otherwise).
        cv::namedWindow(name, cv::WINDOW_AUTOSIZE | cv::WINDOW_GUI_NORMAL);
        cv::imshow(name, *image);
        key = cv::waitKey(wait_ms > 0 ? wait_ms : 1);
        return FL_CV_OK;
    });
    return status == FL_CV_OK ? key : -2;
}

void preview_close(const char *name) {
    try {
        cv::destroyWindow(name);
        cv::waitKey(1);
    } catch (...) {
    }
}

void fill_codecs_video_window(fl_cv_on_demand &t) {
    t.decode_file = decode_file;
    t.decode_bytes = decode_bytes;
    t.encode_file = encode_file;
    t.video_open = video_open;
    t.video_read = video_read;
    t.video_close = video_close;
    t.writer_open = writer_open;
    t.writer_write = writer_write;
    t.writer_close = writer_close;
    t.preview_show = preview_show;
    t.preview_close = preview_close;
}

}  // namespace fl_on_demand
