/// The C++ project of `plugins new --lang cpp`: one source file, the plugin header copied
/// into include/, a Makefile. C++17 (positional initialisers: designated ones are C++20),
/// clean under -Wall -Wextra -pedantic; no exception crosses into the host.
extension PluginSkeleton {
    static func cpp(_ names: PluginSkeletonNames, kind: PluginSkeletonKind, header: String) -> PluginSkeleton {
        let source = "\(names.element).cpp"
        let body = kind == .filter ? cppFilter(names) : cppDetector(names)
        let does = kind == .filter ? PluginSkeletonText.filterDoes : PluginSkeletonText.detectorDoes
        let layout = """
            Files: `\(source)` (the element), `include/framelab_plugin.h` (the plugin ABI, copied from
            the Framelab that wrote this project, so it builds anywhere), `Makefile`.
            `make CXXFLAGS="-O2 -Wall -Wextra -pedantic -Werror"` treats warnings as errors. To use
            OpenCV, add `$(shell pkg-config --cflags --libs opencv4)` to the Makefile's command and
            wrap the images in `cv::Mat` headers (Framelab's docs/plugins.md, section 4).
            """
        return PluginSkeleton(
            files: [(source, PluginSkeletonText.cHeader(names, kind: kind, file: source) + body),
                    ("Makefile", makefile(names, source: source, compiler: "CXX", flags: "CXXFLAGS", standard: "-std=c++17")),
                    ("README.md", readme(names: names, kind: kind, language: "C++17", does: does, build: "make",
                                         library: names.library, layout: layout)),
                    (".gitignore", "*.so\n")],
            copies: [(header, "include/framelab_plugin.h")],
            buildCommand: "make", library: names.library)
    }

    /// The guard every callback runs its body in, the element table's layout comments and
    /// the entry point: what the filter and the detector share.
    private static let cppGuard = #"""
        // Every call from the host runs its body through here: an exception must never cross
        // into C, so it becomes FL_PLUGIN_ERROR with its message.
        template <typename Body>
        fl_plugin_status guarded(char *err, size_t err_len, Body body) {
            try {
                return body();
            } catch (const std::exception &e) {
                std::snprintf(err, err_len, "%s", e.what());
            } catch (...) {
                std::snprintf(err, err_len, "unknown C++ exception");
            }
            return FL_PLUGIN_ERROR;
        }
        """#

    private static func cppEntry(_ n: PluginSkeletonNames) -> String {
        #"""
        // abi_major, abi_minor, struct_size, element_stride, name, elements, element_count
        const fl_plugin plugin = {FL_PLUGIN_ABI_MAJOR, FL_PLUGIN_ABI_MINOR, sizeof(fl_plugin), sizeof(fl_plugin_element),
                                  "\#(n.element)", elements, static_cast<int32_t>(std::size(elements))};

        } // namespace

        // The one symbol Framelab looks up.
        FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t, uint32_t) { return &plugin; }

        """#
    }

    private static func cppFilter(_ n: PluginSkeletonNames) -> String {
        #"""
        #include <framelab_plugin.h>

        #include <algorithm>
        #include <cstdio>
        #include <exception>
        #include <iterator>

        namespace {

        /// One instance: the parameter values it was created with.
        struct Filter {
            int offset;
        };

        \#(cppGuard)

        fl_plugin_status create(void *, const fl_plugin_value *values, void **instance, char *err, size_t err_len) {
            return guarded(err, err_len, [&]() -> fl_plugin_status {
                // The host has checked the value is an integer in -255..255.
                *instance = new Filter{static_cast<int>(values[0].number)};
                return FL_PLUGIN_OK;
            });
        }

        fl_plugin_status process(void *instance, const fl_plugin_image *in, fl_plugin_image *out, char *err,
                                 size_t err_len) {
            return guarded(err, err_len, [&]() -> fl_plugin_status {
                const auto &self = *static_cast<const Filter *>(instance);
                int channels = 0;
                switch (in->format) {
                case FL_PLUGIN_GRAY8: channels = 1; break;
                case FL_PLUGIN_BGR8: channels = 3; break;
                case FL_PLUGIN_BGRA8: channels = 4; break;
                default:
                    std::snprintf(err, err_len, "\#(n.element) takes gray8, bgr8 or bgra8, got format %d", int(in->format));
                    return FL_PLUGIN_UNSUPPORTED;
                }
                // The host hands an output image of the input's size and format: write every sample.
                for (int32_t y = 0; y < in->height; y++) {
                    const auto *src = static_cast<const uint8_t *>(in->data) + y * in->stride;
                    auto *dst = static_cast<uint8_t *>(out->data) + y * out->stride;
                    for (int32_t x = 0; x < in->width * channels; x++) {
                        const bool alpha = channels == 4 && x % 4 == 3; // alpha stays
                        dst[x] = alpha ? src[x] : static_cast<uint8_t>(std::clamp(src[x] + self.offset, 0, 255));
                    }
                }
                return FL_PLUGIN_OK;
            });
        }

        void destroy(void *instance) { delete static_cast<Filter *>(instance); }

        const int32_t formats[] = {FL_PLUGIN_GRAY8, FL_PLUGIN_BGR8, FL_PLUGIN_BGRA8};

        // C++17 has no designated initialisers: fields in framelab_plugin.h's order.
        // struct_size, name, type, minimum, maximum, default_number, default_string, choices, description
        const fl_plugin_param params[] = {
            {sizeof(fl_plugin_param), "offset", FL_PARAM_INT, -255, 255, 40, nullptr, nullptr, "added to every colour channel, clamped to 0..255"},
        };

        // struct_size, kind, name, version, description, formats, format_count, param_stride, params,
        // param_count, user_data, create, output_format, process, detect, destroy, and ABI 2's
        // optional process_frame, detect_frame, set_parameter
        const fl_plugin_element elements[] = {
            {sizeof(fl_plugin_element), FL_PLUGIN_FILTER, "\#(n.element)", "0.1.0",
             "adds an offset to every colour channel (brighter or darker), alpha kept",
             formats, static_cast<int32_t>(std::size(formats)), sizeof(fl_plugin_param), params, static_cast<int32_t>(std::size(params)), nullptr,
             create, nullptr, process, nullptr, destroy, nullptr, nullptr, nullptr},
        };

        \#(cppEntry(n))
        """#
    }

    private static func cppDetector(_ n: PluginSkeletonNames) -> String {
        #"""
        #include <framelab_plugin.h>

        #include <algorithm>
        #include <cstdio>
        #include <exception>
        #include <iterator>

        namespace {

        /// One instance: the parameter values it was created with.
        struct Detector {
            double size;
        };

        \#(cppGuard)

        fl_plugin_status create(void *, const fl_plugin_value *values, void **instance, char *err, size_t err_len) {
            return guarded(err, err_len, [&]() -> fl_plugin_status {
                *instance = new Detector{values[0].number}; // the host has checked it is in 0.05..1
                return FL_PLUGIN_OK;
            });
        }

        // One box: the centred square whose side is `size` times the shorter image side; its
        // score is the square's mean gray level, 0..1. Replace with a real search.
        fl_plugin_status detect(void *instance, const fl_plugin_image *in, fl_plugin_detection *detections,
                                int32_t capacity, int32_t *count, char *err, size_t err_len) {
            return guarded(err, err_len, [&]() -> fl_plugin_status {
                const auto &self = *static_cast<const Detector *>(instance);
                *count = 0;
                if (in->format != FL_PLUGIN_GRAY8) {
                    // The host converts colour frames to gray8, the one format declared below.
                    std::snprintf(err, err_len, "\#(n.element) takes gray8, got format %d", int(in->format));
                    return FL_PLUGIN_UNSUPPORTED;
                }
                if (capacity < 1 || in->width < 1 || in->height < 1) return FL_PLUGIN_OK;
                const int32_t side = std::max(1, static_cast<int32_t>(self.size * std::min(in->width, in->height)));
                const int32_t left = (in->width - side) / 2, top = (in->height - side) / 2;
                uint64_t sum = 0;
                for (int32_t y = top; y < top + side; y++) {
                    const auto *row = static_cast<const uint8_t *>(in->data) + y * in->stride;
                    for (int32_t x = left; x < left + side; x++) sum += row[x];
                }
                fl_plugin_detection box{};
                box.x = static_cast<float>(left);
                box.y = static_cast<float>(top);
                box.width = box.height = static_cast<float>(side);
                box.score = static_cast<float>(static_cast<double>(sum) / (static_cast<double>(side) * side * 255.0));
                detections[0] = box;
                *count = 1;
                return FL_PLUGIN_OK;
            });
        }

        void destroy(void *instance) { delete static_cast<Detector *>(instance); }

        const int32_t formats[] = {FL_PLUGIN_GRAY8};

        // C++17 has no designated initialisers: fields in framelab_plugin.h's order.
        // struct_size, name, type, minimum, maximum, default_number, default_string, choices, description
        const fl_plugin_param params[] = {
            {sizeof(fl_plugin_param), "size", FL_PARAM_FLOAT, 0.05, 1, 0.5, nullptr, nullptr, "the box's side as a share of the shorter image side"},
        };

        // struct_size, kind, name, version, description, formats, format_count, param_stride, params,
        // param_count, user_data, create, output_format, process, detect, destroy, and ABI 2's
        // optional process_frame, detect_frame, set_parameter
        const fl_plugin_element elements[] = {
            {sizeof(fl_plugin_element), FL_PLUGIN_DETECTOR, "\#(n.element)", "0.1.0",
             "one centred square box scored by its mean brightness (a skeleton to replace)",
             formats, static_cast<int32_t>(std::size(formats)), sizeof(fl_plugin_param), params, static_cast<int32_t>(std::size(params)), nullptr,
             create, nullptr, nullptr, detect, destroy, nullptr, nullptr, nullptr},
        };

        \#(cppEntry(n))
        """#
    }
}
