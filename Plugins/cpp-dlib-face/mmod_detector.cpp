// dlib-mmod: dlib's max-margin object detection CNN for faces, read from
// mmod_human_face_detector.dat. The network type below must match the one the file was
// trained and saved with (dlib's published face detector architecture), or reading fails.
#include "dlib_detectors.hpp"
#include "dlib_image.hpp"
#include <dlib/dnn.h>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dlib_face {
namespace {

using namespace dlib;

template <long filters, typename SUBNET> using con5d = con<filters, 5, 5, 2, 2, SUBNET>;
template <long filters, typename SUBNET> using con5 = con<filters, 5, 5, 1, 1, SUBNET>;
template <typename SUBNET>
using downsampler = relu<affine<con5d<32, relu<affine<con5d<32, relu<affine<con5d<16, SUBNET>>>>>>>>>;
template <typename SUBNET> using rcon5 = relu<affine<con5<45, SUBNET>>>;
using MmodNet = loss_mmod<con<1, 9, 9, 1, 1, rcon5<rcon5<rcon5<downsampler<input_rgb_image_pyramid<pyramid_down<6>>>>>>>>;

/// Largest (upsampled) image the CNN runs on: 4 megapixels. dlib keeps every layer's
/// output, about 1 KB a pixel (measured: 0.4 GB for 512x512, 1.2 GB for 1024x1024), so
/// ~4 GB there; a 1080p frame fits at upsample 0, not at 1.
constexpr int64_t kMmodMaxPixels = 4'000'000;

class MmodFinder final : public FaceFinder {
public:
    MmodFinder(const std::string &model, int upsample, double adjust_threshold)
        : upsample_(upsample), threshold_(adjust_threshold) {
        // dlib's own message for a missing file is fine, but errno says why in plain words.
        if (FILE *f = std::fopen(model.c_str(), "rb")) {
            std::fclose(f);
        } else {
            throw BadParameter("cannot open model '" + model + "': " + std::strerror(errno));
        }
        try {
            deserialize(model) >> net_;
        } catch (const std::exception &e) {
            // serialization_error for a truncated file or another kind of .dat, bad_alloc
            // for garbage that claims huge sizes.
            std::string why = e.what();
            why.erase(why.find_last_not_of(" \n") + 1);
            throw BadParameter("model '" + model + "' is not a complete dlib MMOD face detector network (dlib: " + why + ")");
        }
    }

    std::vector<Face> find(const fl_plugin_image &in) override {
        check_upsampled_size(in, upsample_, kMmodMaxPixels);
        copy_bgr(in, rgb_);
        upsample_image(rgb_, upsample_);
        std::vector<Face> faces;
        for (const mmod_rect &d : net_.process(rgb_, threshold_))
            faces.push_back(face_in_input(d.rect, upsample_, d.detection_confidence));
        return faces;
    }

private:
    MmodNet net_;
    int upsample_;
    double threshold_;
    matrix<rgb_pixel> rgb_;   // kept across frames
};

}  // namespace

std::unique_ptr<FaceFinder> make_mmod_finder(const std::string &model, int upsample, double adjust_threshold) {
    return std::make_unique<MmodFinder>(model, upsample, adjust_threshold);
}

}  // namespace dlib_face
