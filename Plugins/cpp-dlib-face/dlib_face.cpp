// A Framelab detector plugin around a real third-party library: dlib 19.24 (Debian's
// libdlib-dev), with two elements —
//   dlib-hog   dlib::get_frontal_face_detector() (HOG, compiled into the headers)
//   dlib-mmod  dlib's MMOD CNN, read from mmod_human_face_detector.dat
// Scores are dlib's detection_confidence. No exception leaves this file: create and
// detect turn each into a status and a one-line message (dlib's can span lines); the
// host prefixes it with the element's name and file.
// Built by scripts/build-plugins.sh; the CNN wants OpenBLAS (the reference BLAS is ~4x slower).
#include "dlib_detectors.hpp"
#include "../shared/plugin_support.hpp"
#include <dlfcn.h>
#include <cmath>
#include <exception>
#include <string>

namespace {

using dlib_face::FaceFinder;
using framelab_plugin_support::fail;

enum Kind { HOG, MMOD };

struct Instance {
    std::unique_ptr<FaceFinder> finder;
    const char *name;
};

const char *const kAccuracy = "low|high";

/// `accuracy` names a preset for `upsample` (low: 0, faces from about 80 px, as both dlib
/// detectors scan; high: 1, from about 40 px; measured on astronaut.png scaled down), as
/// Framelab's own detectors have accuracy=low|high. The plugin ABI passes every value
/// without saying which were typed, so upsample's default is -1, "from accuracy", and any
/// other value overrides the preset. dlib-hog defaults to high (tens of ms a frame);
/// dlib-mmod to low, because upsampling multiplies its time and memory by 4 (512x512:
/// ~1 s and 0.4 GB at 0, 1.2 GB at 1) and a 1280x886 photo upsampled once would pass 4 GB.
int upsample_levels(const fl_plugin_value &accuracy, const fl_plugin_value &upsample) {
    if (upsample.number >= 0) return (int)upsample.number;
    return std::string(accuracy.string ? accuracy.string : "") == "low" ? 0 : 1;
}

// Parameters: the same three knobs for both, and mmod's model file first.
#define DLIB_FACE_COMMON_PARAMS(default_accuracy)                                                                    \
    {sizeof(fl_plugin_param), "accuracy", FL_PARAM_ENUM, 0, 0, 0, default_accuracy, kAccuracy,                       \
     "preset for upsample: low = 0 (faces from about 80 px), high = 1 (from about 40 px)"},                         \
    {sizeof(fl_plugin_param), "upsample", FL_PARAM_INT, -1, 3, -1, nullptr, nullptr,                                 \
     "times the image is doubled before the search (smaller faces, ~4x the time each); -1 = from accuracy"},         \
    {sizeof(fl_plugin_param), "adjust-threshold", FL_PARAM_FLOAT, -10, 10, 0, nullptr, nullptr,                      \
     "added to dlib's detection threshold: below 0 reports more (and weaker) faces"}

const fl_plugin_param hog_params[] = {DLIB_FACE_COMMON_PARAMS("high")};

std::string mmod_default_model;   // set by the entry point, before the host reads params
fl_plugin_param mmod_params[] = {
    {sizeof(fl_plugin_param), "model", FL_PARAM_STRING, 0, 0, 0, nullptr, nullptr,
     "dlib MMOD network file (default: mmod_human_face_detector.dat in $FRAMELAB_MODELS or Datasets/models)"},
    DLIB_FACE_COMMON_PARAMS("low"),
};

const Kind kinds[] = {HOG, MMOD};

std::string mmod_description;   // names the BLAS in use, found when the host loads the plugin

}  // namespace

// Declared without dlib's headers, only to take its address: the library whose
// cblas_sgemm this plugin (and libdlib, in the same dlopen group) is bound to.
extern "C" void cblas_sgemm();

namespace {

/// The BLAS dlib's CNN runs on: libblas.so.3 is whatever Debian's alternatives chose (and
/// the host may have loaded it before us, through OpenCV). OpenBLAS says so through
/// openblas_get_config; the reference BLAS makes dlib-mmod several times slower.
std::string blas_in_use() {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&cblas_sgemm), &info) == 0 || info.dli_fname == nullptr) return "unknown BLAS";
    std::string found = info.dli_fname;
    if (void *h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD)) {
        auto config = reinterpret_cast<const char *(*)()>(dlsym(h, "openblas_get_config"));
        if (config != nullptr) {
            std::string text = config();   // "OpenBLAS 0.3.21 DYNAMIC_ARCH …": keep name and version
            size_t end = text.find(' ', text.find(' ') + 1);
            found = text.substr(0, end);
        } else {
            found += " (not OpenBLAS: slow)";
        }
        dlclose(h);
    }
    return found;
}

fl_plugin_status create(void *user_data, const fl_plugin_value *values, void **instance, char *err, size_t err_len) {
    Kind kind = *static_cast<const Kind *>(user_data);
    const char *name = kind == HOG ? "dlib-hog" : "dlib-mmod";
    *instance = nullptr;
    // The host checks ranges; checked again because values reach dlib as shifts and sizes.
    const fl_plugin_value *knobs = kind == HOG ? values : values + 1;
    if (!(knobs[1].number >= -1 && knobs[1].number <= 3) || !std::isfinite(knobs[2].number)) {
        fail(err, err_len, "upsample must be -1…3 and adjust-threshold finite");
        return FL_PLUGIN_BAD_PARAMETER;
    }
    int upsample = upsample_levels(knobs[0], knobs[1]);
    try {
        auto made = std::make_unique<Instance>(Instance{nullptr, name});
        made->finder = kind == HOG ? dlib_face::make_hog_finder(upsample, knobs[2].number)
                                   : dlib_face::make_mmod_finder(values[0].string ? values[0].string : "", upsample,
                                                                 knobs[2].number);
        *instance = made.release();
        return FL_PLUGIN_OK;
    } catch (const dlib_face::BadParameter &e) {
        fail(err, err_len, "%s", e.what());
        return FL_PLUGIN_BAD_PARAMETER;
    } catch (const std::exception &e) {
        fail(err, err_len, "%s", e.what());
    } catch (...) {
        fail(err, err_len, "unknown C++ exception while loading");
    }
    return FL_PLUGIN_ERROR;
}

fl_plugin_status detect(void *instance, const fl_plugin_image *in, fl_plugin_detection *out, int32_t capacity,
                        int32_t *count, char *err, size_t err_len) {
    auto *self = static_cast<Instance *>(instance);
    *count = 0;
    if (in->format != FL_PLUGIN_BGR8 && in->format != FL_PLUGIN_GRAY8) {
        fail(err, err_len, "%s takes gray8 or bgr8, got format %d", self->name, (int)in->format);
        return FL_PLUGIN_UNSUPPORTED;
    }
    try {
        int32_t n = 0;
        for (const auto &f : self->finder->find(*in)) {
            if (n == capacity) break;
            fl_plugin_detection &d = out[n++];
            d = fl_plugin_detection{};
            d.x = (float)f.x;
            d.y = (float)f.y;
            d.width = (float)f.width;
            d.height = (float)f.height;
            d.score = (float)f.score;
        }
        *count = n;
        return FL_PLUGIN_OK;
    } catch (const std::exception &e) {
        fail(err, err_len, "%s", e.what());
    } catch (...) {
        fail(err, err_len, "unknown C++ exception");
    }
    return FL_PLUGIN_ERROR;
}

void destroy(void *instance) { delete static_cast<Instance *>(instance); }

// HOG takes gray as it is; the CNN needs colour (the host converts gray frames to bgr8).
const int32_t hog_formats[] = {FL_PLUGIN_BGR8, FL_PLUGIN_GRAY8};
const int32_t mmod_formats[] = {FL_PLUGIN_BGR8};

fl_plugin_element elements[2];
fl_plugin plugin;

}  // namespace

FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t, uint32_t) {
    if (mmod_default_model.empty()) {
        mmod_default_model = framelab_plugin_support::models_directory((const void *)&create) + "/mmod_human_face_detector.dat";
        mmod_params[0].default_string = mmod_default_model.c_str();
    }
    fl_plugin_element &hog = elements[0];
    hog.struct_size = sizeof(fl_plugin_element);
    hog.param_stride = sizeof(fl_plugin_param);
    hog.kind = FL_PLUGIN_DETECTOR;
    hog.name = "dlib-hog";
    hog.version = "19.24";
    hog.description = "dlib's HOG frontal face detector (built into libdlib-dev); score = dlib's detection confidence";
    hog.formats = hog_formats;
    hog.format_count = 2;
    hog.params = hog_params;
    hog.param_count = sizeof hog_params / sizeof hog_params[0];
    hog.user_data = (void *)&kinds[HOG];
    hog.create = create;
    hog.detect = detect;
    hog.destroy = destroy;

    fl_plugin_element &mmod = elements[1];
    mmod = hog;
    mmod.name = "dlib-mmod";
    if (mmod_description.empty())
        mmod_description = "dlib's MMOD CNN face detector (mmod_human_face_detector.dat); score = dlib's detection "
                           "confidence; BLAS: " + blas_in_use();
    mmod.description = mmod_description.c_str();
    mmod.formats = mmod_formats;
    mmod.format_count = 1;
    mmod.params = mmod_params;
    mmod.param_count = sizeof mmod_params / sizeof mmod_params[0];
    mmod.user_data = (void *)&kinds[MMOD];
    plugin = {FL_PLUGIN_ABI_MAJOR, FL_PLUGIN_ABI_MINOR, sizeof(fl_plugin), sizeof(fl_plugin_element), "cpp-dlib-face", elements, 2};
    return &plugin;
}
