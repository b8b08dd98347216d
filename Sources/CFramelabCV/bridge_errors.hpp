// Internal to CFramelabCV: how every extern "C" entry point reports failure. Nothing may
// unwind into Swift, so each body runs inside `guarded`, which turns any C++ exception into
// FL_CV_ERROR and a one-line message (OpenCV's own text without its file/line preamble).
#ifndef FRAMELAB_BRIDGE_ERRORS_HPP
#define FRAMELAB_BRIDGE_ERRORS_HPP

#include "framelab_cv.h"

#include <opencv2/core.hpp>

#include <cstdio>
#include <exception>
#include <string>

namespace fl_bridge {

// Copies `message` into the caller's buffer (truncated, always terminated).
inline void set_error(char *err, size_t err_len, const std::string &message) {
    if (err && err_len) std::snprintf(err, err_len, "%s", message.c_str());
}

// OpenCV's message without the "OpenCV(4.6.0) file:line: error: (-215:...) in function" part.
inline std::string short_message(const cv::Exception &e) {
    return e.err.empty() ? std::string(e.what()) : e.err;
}

// The one-line message for any exception in flight; call only inside a catch block.
inline std::string current_exception_message() {
    try {
        throw;
    } catch (const cv::Exception &e) {
        return "OpenCV: " + short_message(e);
    } catch (const std::exception &e) {
        return e.what();
    } catch (...) {
        return "unknown C++ exception";
    }
}

// Runs `body` (returning an FL_CV_* status), turning exceptions into FL_CV_ERROR.
template <typename Body> int guarded(char *err, size_t err_len, Body body) {
    try {
        return body();
    } catch (...) {
        set_error(err, err_len, current_exception_message());
    }
    return FL_CV_ERROR;
}

} // namespace fl_bridge

#endif
