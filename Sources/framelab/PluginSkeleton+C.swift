/// The C project of `plugins new --lang c`: one source file, the plugin header copied into
/// include/, a Makefile. C11, clean under -Wall -Wextra -pedantic.
extension PluginSkeleton {
    static func c(_ names: PluginSkeletonNames, kind: PluginSkeletonKind, header: String) -> PluginSkeleton {
        let source = "\(names.element).c"
        let body = kind == .filter ? cFilter(names) : cDetector(names)
        let does = kind == .filter ? PluginSkeletonText.filterDoes : PluginSkeletonText.detectorDoes
        let layout = """
            Files: `\(source)` (the element), `include/framelab_plugin.h` (the plugin ABI, copied from
            the Framelab that wrote this project, so it builds anywhere), `Makefile`.
            `make CFLAGS="-O2 -Wall -Wextra -pedantic -Werror"` treats warnings as errors.
            """
        return PluginSkeleton(
            files: [(source, PluginSkeletonText.cHeader(names, kind: kind, file: source) + body),
                    ("Makefile", makefile(names, source: source, compiler: "CC", flags: "CFLAGS", standard: "-std=c11")),
                    ("README.md", readme(names: names, kind: kind, language: "C", does: does, build: "make",
                                         library: names.library, layout: layout)),
                    (".gitignore", "*.so\n")],
            copies: [(header, "include/framelab_plugin.h")],
            buildCommand: "make", library: names.library)
    }

    /// A Makefile building `lib<name>.so` from one source with the copied header;
    /// `flags` (CFLAGS/CXXFLAGS) can be overridden on the command line, the rest cannot.
    static func makefile(_ names: PluginSkeletonNames, source: String, compiler: String, flags: String, standard: String) -> String {
        #"""
        # Builds \#(names.library) with nothing but include/framelab_plugin.h: run `make`.
        \#(flags) ?= -O2 -Wall -Wextra -pedantic

        \#(names.library): \#(source) include/framelab_plugin.h
        \#t$(\#(compiler)) \#(standard) -shared -fPIC $(\#(flags)) -Iinclude \#(source) -o $@

        clean:
        \#trm -f \#(names.library)

        .PHONY: clean

        """#
    }

    private static func cFilter(_ n: PluginSkeletonNames) -> String {
        #"""
        #include <framelab_plugin.h>
        #include <stdio.h>
        #include <stdlib.h>

        /* One instance: the parameter values it was created with. */
        typedef struct state {
            int offset;
        } state;

        static fl_plugin_status create(void *user_data, const fl_plugin_value *values, void **instance,
                                       char *err, size_t err_len) {
            state *self = malloc(sizeof *self);
            (void)user_data;
            if (!self) {
                snprintf(err, err_len, "out of memory");
                return FL_PLUGIN_ERROR;
            }
            self->offset = (int)values[0].number; /* the host has checked it is an integer in -255..255 */
            *instance = self;
            return FL_PLUGIN_OK;
        }

        static fl_plugin_status process(void *instance, const fl_plugin_image *in, fl_plugin_image *out,
                                        char *err, size_t err_len) {
            const state *self = instance;
            int channels;
            switch (in->format) {
            case FL_PLUGIN_GRAY8: channels = 1; break;
            case FL_PLUGIN_BGR8: channels = 3; break;
            case FL_PLUGIN_BGRA8: channels = 4; break;
            default:
                snprintf(err, err_len, "\#(n.element) takes gray8, bgr8 or bgra8, got format %d", (int)in->format);
                return FL_PLUGIN_UNSUPPORTED;
            }
            /* The host hands an output image of the input's size and format: write every sample. */
            for (int32_t y = 0; y < in->height; y++) {
                const uint8_t *src = (const uint8_t *)in->data + y * in->stride;
                uint8_t *dst = (uint8_t *)out->data + y * out->stride;
                for (int32_t x = 0; x < in->width * channels; x++) {
                    int v = channels == 4 && x % 4 == 3 ? src[x] : src[x] + self->offset; /* alpha stays */
                    dst[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
                }
            }
            return FL_PLUGIN_OK;
        }

        static void destroy(void *instance) { free(instance); }

        static const int32_t formats[] = {FL_PLUGIN_GRAY8, FL_PLUGIN_BGR8, FL_PLUGIN_BGRA8};

        static const fl_plugin_param params[] = {
            {.struct_size = sizeof(fl_plugin_param), .name = "offset", .type = FL_PARAM_INT, .minimum = -255, .maximum = 255, .default_number = 40,
             .description = "added to every colour channel, clamped to 0..255"},
        };

        static const fl_plugin_element elements[] = {
            {.struct_size = sizeof(fl_plugin_element), .kind = FL_PLUGIN_FILTER, .name = "\#(n.element)", .version = "0.1.0",
             .description = "adds an offset to every colour channel (brighter or darker), alpha kept",
             .formats = formats, .format_count = sizeof formats / sizeof formats[0],
             .param_stride = sizeof(fl_plugin_param), .params = params, .param_count = sizeof params / sizeof params[0],
             .create = create, .process = process, .destroy = destroy},
        };

        \#(cPluginAndEntry(n))
        """#
    }

    private static func cDetector(_ n: PluginSkeletonNames) -> String {
        #"""
        #include <framelab_plugin.h>
        #include <stdio.h>
        #include <stdlib.h>

        /* One instance: the parameter values it was created with. */
        typedef struct state {
            double size;
        } state;

        static fl_plugin_status create(void *user_data, const fl_plugin_value *values, void **instance,
                                       char *err, size_t err_len) {
            state *self = malloc(sizeof *self);
            (void)user_data;
            if (!self) {
                snprintf(err, err_len, "out of memory");
                return FL_PLUGIN_ERROR;
            }
            self->size = values[0].number; /* the host has checked it is in 0.05..1 */
            *instance = self;
            return FL_PLUGIN_OK;
        }

        /* One box: the centred square whose side is `size` times the shorter image side;
         * its score is the square's mean gray level, 0..1. Replace with a real search. */
        static fl_plugin_status detect(void *instance, const fl_plugin_image *in, fl_plugin_detection *detections,
                                       int32_t capacity, int32_t *count, char *err, size_t err_len) {
            const state *self = instance;
            *count = 0;
            if (in->format != FL_PLUGIN_GRAY8) {
                /* The host converts colour frames to gray8, the one format declared below. */
                snprintf(err, err_len, "\#(n.element) takes gray8, got format %d", (int)in->format);
                return FL_PLUGIN_UNSUPPORTED;
            }
            if (capacity < 1 || in->width < 1 || in->height < 1) return FL_PLUGIN_OK;
            int32_t side = (int32_t)(self->size * (in->width < in->height ? in->width : in->height));
            if (side < 1) side = 1;
            int32_t left = (in->width - side) / 2, top = (in->height - side) / 2;
            uint64_t sum = 0;
            for (int32_t y = top; y < top + side; y++) {
                const uint8_t *row = (const uint8_t *)in->data + y * in->stride;
                for (int32_t x = left; x < left + side; x++) sum += row[x];
            }
            fl_plugin_detection box = {0};
            box.x = (float)left;
            box.y = (float)top;
            box.width = box.height = (float)side;
            box.score = (float)((double)sum / ((double)side * side * 255.0));
            detections[0] = box;
            *count = 1;
            return FL_PLUGIN_OK;
        }

        static void destroy(void *instance) { free(instance); }

        static const int32_t formats[] = {FL_PLUGIN_GRAY8};

        static const fl_plugin_param params[] = {
            {.struct_size = sizeof(fl_plugin_param), .name = "size", .type = FL_PARAM_FLOAT, .minimum = 0.05, .maximum = 1, .default_number = 0.5,
             .description = "the box's side as a share of the shorter image side"},
        };

        static const fl_plugin_element elements[] = {
            {.struct_size = sizeof(fl_plugin_element), .kind = FL_PLUGIN_DETECTOR, .name = "\#(n.element)", .version = "0.1.0",
             .description = "one centred square box scored by its mean brightness (a skeleton to replace)",
             .formats = formats, .format_count = sizeof formats / sizeof formats[0],
             .param_stride = sizeof(fl_plugin_param), .params = params, .param_count = sizeof params / sizeof params[0],
             .create = create, .detect = detect, .destroy = destroy},
        };

        \#(cPluginAndEntry(n))
        """#
    }

    private static func cPluginAndEntry(_ n: PluginSkeletonNames) -> String {
        #"""
        static const fl_plugin plugin = {
            .abi_major = FL_PLUGIN_ABI_MAJOR, .abi_minor = FL_PLUGIN_ABI_MINOR,
            .struct_size = sizeof(fl_plugin), .element_stride = sizeof(fl_plugin_element), .name = "\#(n.element)",
            .elements = elements, .element_count = sizeof elements / sizeof elements[0],
        };

        /* The one symbol Framelab looks up. */
        FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t host_major, uint32_t host_minor) {
            (void)host_major;
            (void)host_minor;
            return &plugin;
        }

        """#
    }
}

/// Text the skeletons of every language share.
enum PluginSkeletonText {
    static let filterDoes = "The filter adds `offset` (an integer parameter, -255…255, default 40) to every colour channel, clamped to 0…255; alpha is kept. Replace it with your own."
    static let detectorDoes = "The detector returns one box, the centred square whose side is `size` (a float parameter, 0.05…1, default 0.5) times the shorter image side, scored by its mean gray level (0…1). Replace it with a real search."

    /// The comment a C or C++ source starts with.
    static func cHeader(_ n: PluginSkeletonNames, kind: PluginSkeletonKind, file: String) -> String {
        """
        /* \(file): the Framelab \(kind.rawValue) `\(n.element)`, written by `framelab plugins new`.
         * Build: make    Check: framelab plugins check ./\(n.library)
         * The contract is include/framelab_plugin.h. */

        """
    }
}
