// Framelab's images to dlib's, and boxes found on an upsampled image back to the input's
// pixels. Pixels are copied (dlib wants its own image types, and rgb_pixel is r, g, b
// where Framelab's bgr8 is b, g, r); the copy is tiny next to either detector.
#pragma once
#include "dlib_detectors.hpp"
#include <dlib/image_transforms.h>
#include <dlib/matrix.h>
#include <dlib/pixel.h>
#include <cstdint>
#include <string>

namespace dlib_face {

/// bgr8 into r, g, b pixels.
inline void copy_bgr(const fl_plugin_image &in, dlib::matrix<dlib::rgb_pixel> &out) {
    out.set_size(in.height, in.width);
    for (int32_t y = 0; y < in.height; y++) {
        const uint8_t *row = static_cast<const uint8_t *>(in.data) + (int64_t)y * in.stride;
        for (int32_t x = 0; x < in.width; x++) out(y, x) = dlib::rgb_pixel(row[3 * x + 2], row[3 * x + 1], row[3 * x]);
    }
}

inline void copy_gray(const fl_plugin_image &in, dlib::matrix<unsigned char> &out) {
    out.set_size(in.height, in.width);
    for (int32_t y = 0; y < in.height; y++) {
        const uint8_t *row = static_cast<const uint8_t *>(in.data) + (int64_t)y * in.stride;
        for (int32_t x = 0; x < in.width; x++) out(y, x) = row[x];
    }
}

/// Refuses an upsampling that would make the image larger than `max_pixels`: each level
/// doubles both sides, and the detectors' memory grows with the area (MMOD's by ~100
/// bytes a pixel), so a big frame with upsample=3 must be an error, not an OOM kill.
inline void check_upsampled_size(const fl_plugin_image &in, int upsample, int64_t max_pixels) {
    int64_t w = (int64_t)in.width << upsample, h = (int64_t)in.height << upsample;
    if (w * h > max_pixels) {
        throw std::runtime_error("upsample=" + std::to_string(upsample) + " would make this " + std::to_string(in.width) +
                           "x" + std::to_string(in.height) + " image " + std::to_string(w) + "x" + std::to_string(h) +
                           ", more than the " + std::to_string(max_pixels / 1000000) +
                           "-megapixel limit; use a lower upsample");
    }
}

/// Doubles `img` `levels` times (dlib's pyramid_up, the way dlib's examples find small faces).
template <typename Image>
void upsample_image(Image &img, int levels) {
    for (int i = 0; i < levels; i++) dlib::pyramid_up(img);
}

/// A box found on the image upsampled `levels` times, in the input image's pixels.
inline Face face_in_input(const dlib::rectangle &found, int levels, double score) {
    dlib::drectangle r = dlib::pyramid_down<2>().rect_down(dlib::drectangle(found), (unsigned)levels);
    return Face{r.left(), r.top(), r.width(), r.height(), score};
}

}  // namespace dlib_face
