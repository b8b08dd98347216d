// The two dlib face detectors behind the plugin's elements, as one small interface, so the
// ABI layer (dlib_face.cpp) never sees a dlib type and the heavy DNN templates stay in
// mmod_detector.cpp.
#pragma once
#include <framelab_plugin.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlib_face {

/// A face in the input image's pixels (dlib's inclusive rectangles already converted).
struct Face {
    double x, y, width, height, score;
};

/// A bad parameter value, such as a model file that is missing or not what it should be.
/// Other exceptions mean processing failed.
struct BadParameter : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

class FaceFinder {
public:
    virtual ~FaceFinder() = default;
    /// Faces in `image`, which is gray8 or bgr8 (the formats the elements declare).
    virtual std::vector<Face> find(const fl_plugin_image &image) = 0;
};

/// dlib::get_frontal_face_detector(): HOG features, five linear filters (frontal, left,
/// right, and tilted), compiled into dlib's headers. Score: dlib's detection_confidence.
std::unique_ptr<FaceFinder> make_hog_finder(int upsample, double adjust_threshold);

/// dlib's MMOD CNN face detector read from `model` (mmod_human_face_detector.dat).
/// Throws BadParameter naming the file when it cannot be read as that network.
std::unique_ptr<FaceFinder> make_mmod_finder(const std::string &model, int upsample, double adjust_threshold);

}  // namespace dlib_face
