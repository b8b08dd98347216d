/* framelab_plugin.h — the Framelab plugin ABI, version 1.0.
 *
 * A plugin is a shared library (cc -shared -fPIC) that includes only this header and
 * exports one function, framelab_plugin_entry, returning a description of one or more
 * elements. An element is a filter (image in, image out) or a detector (image in,
 * boxes out). The host checks the ABI version, validates the description and test-runs
 * every element on a synthetic frame before accepting it.
 *
 * Rules:
 *  - Everything the description points to (strings, arrays) must stay valid while the
 *    library is loaded; static storage is the usual choice.
 *  - Images cross as fl_plugin_image: a header over memory the host owns. The plugin
 *    reads input->data and writes output->data; it never frees them.
 *  - Every call that can fail returns an fl_plugin_status and, on failure, writes a
 *    one-line, NUL-terminated message into err (at most err_len bytes, truncated).
 *  - One instance is used by one thread at a time; different instances may run in
 *    parallel. create/destroy bracket an instance's life.
 *
 * ABI versioning: a host accepts a plugin whose major version equals its own and whose
 * minor version is not newer than its own. Minor versions only append fields.
 */
#ifndef FRAMELAB_PLUGIN_H
#define FRAMELAB_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FL_PLUGIN_ABI_MAJOR 1
#define FL_PLUGIN_ABI_MINOR 0

/* The one exported symbol, and its name as a string for dlsym. */
#define FL_PLUGIN_ENTRY_NAME "framelab_plugin_entry"

/* Pixel formats (same numbers as Framelab's PixelFormat). Rows are `stride` bytes apart. */
enum {
    FL_PLUGIN_GRAY8 = 1,   /* one uint8 per pixel */
    FL_PLUGIN_BGR8 = 2,    /* three uint8: blue, green, red */
    FL_PLUGIN_BGRA8 = 3,   /* four uint8: blue, green, red, alpha */
    FL_PLUGIN_GRAYF32 = 4, /* one float per pixel, 0…255 */
};

/* Status codes. UNSUPPORTED ("I do not take this format") is distinct from ERROR
 * ("I take it, but processing this frame failed"). */
typedef int32_t fl_plugin_status;
enum {
    FL_PLUGIN_OK = 0,
    FL_PLUGIN_ERROR = -1,
    FL_PLUGIN_UNSUPPORTED = -2,
    FL_PLUGIN_BAD_PARAMETER = -3,
};

/* Element kinds. */
enum {
    FL_PLUGIN_FILTER = 1,
    FL_PLUGIN_DETECTOR = 2,
};

/* Parameter types, as Core Image's filter attributes describe them. */
enum {
    FL_PARAM_FLOAT = 1,
    FL_PARAM_INT = 2,
    FL_PARAM_BOOL = 3,
    FL_PARAM_ENUM = 4,   /* one of `choices` */
    FL_PARAM_STRING = 5,
};

/* An image header over someone else's memory (mirrors Framelab's fl_image). */
typedef struct fl_plugin_image {
    int32_t format;  /* FL_PLUGIN_GRAY8 … */
    int32_t width;
    int32_t height;
    int64_t stride;  /* bytes between row starts, >= width * bytes per pixel */
    void *data;      /* pixel (0, 0) */
} fl_plugin_image;

/* One parameter. For FLOAT and INT, [minimum, maximum] is the accepted range
 * (use -INFINITY/INFINITY for "unbounded"); BOOL ranges are ignored. The default is
 * default_number for FLOAT/INT/BOOL (0 or 1), default_string for ENUM/STRING. */
typedef struct fl_plugin_param {
    const char *name;           /* letters, digits, '_' or '-'; unique in the element */
    int32_t type;               /* FL_PARAM_* */
    double minimum;
    double maximum;
    double default_number;
    const char *default_string;
    const char *choices;        /* ENUM only: "fast|accurate|both" */
    const char *description;    /* one line */
} fl_plugin_param;

/* A parameter value handed to create(), one per parameter, in description order:
 * number for FLOAT/INT/BOOL, string for ENUM/STRING (valid during the call only). */
typedef struct fl_plugin_value {
    double number;
    const char *string;
} fl_plugin_value;

/* A detection: a box in pixels, a score, and optional landmarks (see `landmarks`). */
typedef struct fl_plugin_point {
    float x;
    float y;
} fl_plugin_point;

enum {
    FL_DETECTION_HAS_EYES = 1,   /* left_eye and right_eye are set */
    FL_DETECTION_HAS_MOUTH = 2,  /* mouth is set */
};

typedef struct fl_plugin_detection {
    float x, y, width, height;
    float score;                 /* higher is more confident; any scale */
    uint32_t landmarks;          /* FL_DETECTION_HAS_* bits */
    fl_plugin_point left_eye;    /* the person's left eye (on the image's right for a frontal face), as FaceDetection.leftEye */
    fl_plugin_point right_eye;
    fl_plugin_point mouth;
} fl_plugin_detection;

typedef struct fl_plugin_element {
    int32_t kind;                /* FL_PLUGIN_FILTER or FL_PLUGIN_DETECTOR */
    const char *name;            /* as typed after --filter; letters, digits, '_', '-', '.' */
    const char *version;         /* the element's own version, e.g. "1.2.0" */
    const char *description;     /* one line */
    const int32_t *formats;      /* accepted input formats */
    int32_t format_count;
    const fl_plugin_param *params;
    int32_t param_count;
    void *user_data;             /* passed to create() unchanged */

    /* Creates an instance from `values` (param_count of them). Returns FL_PLUGIN_OK and
     * sets *instance, or FL_PLUGIN_BAD_PARAMETER / FL_PLUGIN_ERROR with a message. */
    fl_plugin_status (*create)(void *user_data, const fl_plugin_value *values,
                               void **instance, char *err, size_t err_len);

    /* Filters: the output format for an input format, or 0 when it is not accepted.
     * NULL means "the same as the input". */
    int32_t (*output_format)(void *user_data, int32_t input_format);

    /* Filters: processes one frame. The host passes an output header over a buffer of
     * the negotiated format and the input's size. The plugin either writes that buffer,
     * or points *output at memory it owns (valid until its next call), or at the input
     * itself to pass the frame through unchanged. */
    fl_plugin_status (*process)(void *instance, const fl_plugin_image *input,
                                fl_plugin_image *output, char *err, size_t err_len);

    /* Detectors: finds objects. Writes at most `capacity` detections and sets *count. */
    fl_plugin_status (*detect)(void *instance, const fl_plugin_image *input,
                               fl_plugin_detection *detections, int32_t capacity, int32_t *count,
                               char *err, size_t err_len);

    void (*destroy)(void *instance);
} fl_plugin_element;

/* What framelab_plugin_entry returns. */
typedef struct fl_plugin {
    uint32_t abi_major;          /* FL_PLUGIN_ABI_MAJOR the plugin was built against */
    uint32_t abi_minor;
    const char *name;            /* the library's name, for messages */
    const fl_plugin_element *elements;
    int32_t element_count;
} fl_plugin;

/* The entry point every plugin exports. The host passes its own ABI version; a plugin
 * may return NULL when it cannot serve that host. */
typedef const fl_plugin *(*fl_plugin_entry_fn)(uint32_t host_abi_major, uint32_t host_abi_minor);

#ifdef __cplusplus
#define FL_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))
#else
#define FL_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
}
#endif

#endif /* FRAMELAB_PLUGIN_H */
