// dlib-hog: dlib's frontal face detector (HOG + linear filters, built into the headers).
#include "dlib_detectors.hpp"
#include "dlib_image.hpp"
#include <dlib/image_processing/frontal_face_detector.h>

namespace dlib_face {
namespace {

/// Largest upsampled image HOG scans: 64 megapixels (a 4K frame upsampled once fits).
constexpr int64_t kHogMaxPixels = 64'000'000;

class HogFinder final : public FaceFinder {
public:
    HogFinder(int upsample, double adjust_threshold)
        : detector_(dlib::get_frontal_face_detector()), upsample_(upsample), threshold_(adjust_threshold) {}

    std::vector<Face> find(const fl_plugin_image &in) override {
        check_upsampled_size(in, upsample_, kHogMaxPixels);
        std::vector<dlib::rect_detection> found;
        // HOG works on gray or colour (per pixel, the channel with the strongest gradient).
        if (in.format == FL_PLUGIN_GRAY8) {
            copy_gray(in, gray_);
            upsample_image(gray_, upsample_);
            detector_(gray_, found, threshold_);
        } else {
            copy_bgr(in, rgb_);
            upsample_image(rgb_, upsample_);
            detector_(rgb_, found, threshold_);
        }
        std::vector<Face> faces;
        for (const auto &d : found) faces.push_back(face_in_input(d.rect, upsample_, d.detection_confidence));
        return faces;
    }

private:
    dlib::frontal_face_detector detector_;
    int upsample_;
    double threshold_;
    dlib::matrix<unsigned char> gray_;   // kept across frames: no allocation per frame
    dlib::matrix<dlib::rgb_pixel> rgb_;
};

}  // namespace

std::unique_ptr<FaceFinder> make_hog_finder(int upsample, double adjust_threshold) {
    return std::make_unique<HogFinder>(upsample, adjust_threshold);
}

}  // namespace dlib_face
