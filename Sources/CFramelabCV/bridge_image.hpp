// Internal to CFramelabCV: the one mapping from Framelab's pixel formats to OpenCV's
// types, and the zero-copy cv::Mat header over an fl_image, shared by every .cpp file.
#ifndef FRAMELAB_BRIDGE_IMAGE_HPP
#define FRAMELAB_BRIDGE_IMAGE_HPP

#include "framelab_cv.h"

#include <opencv2/core.hpp>

namespace fl_bridge {

// OpenCV's type for an FL_FORMAT_* value, or -1 for an unknown one.
inline int cv_type(int32_t format) {
    switch (format) {
    case FL_FORMAT_GRAY8: return CV_8UC1;
    case FL_FORMAT_BGR8: return CV_8UC3;
    case FL_FORMAT_BGRA8: return CV_8UC4;
    case FL_FORMAT_GRAYF32: return CV_32FC1;
    default: return -1;
    }
}

// A cv::Mat header over the caller's memory: no allocation, no copy.
inline cv::Mat header(const fl_image *image) {
    return cv::Mat(image->height, image->width, cv_type(image->format), image->data,
                   static_cast<size_t>(image->stride));
}

} // namespace fl_bridge

#endif
