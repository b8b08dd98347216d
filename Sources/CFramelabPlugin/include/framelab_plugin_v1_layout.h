/* framelab_plugin_v1_layout.h — the host's frozen copy of the ABI 1.0 description structs.
 *
 * Not for plugins (they include framelab_plugin.h only). The host reads a plugin that
 * reports abi_major 1 through these, exactly as the 1.0 header laid them out; the structs
 * the two versions share (images, values, detections) come from framelab_plugin.h, whose
 * layouts did not change. Never edit: a 1.0 plugin's memory looks like this forever.
 */
#ifndef FRAMELAB_PLUGIN_V1_LAYOUT_H
#define FRAMELAB_PLUGIN_V1_LAYOUT_H

#include "framelab_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fl_plugin_v1_param {
    const char *name;
    int32_t type;
    double minimum;
    double maximum;
    double default_number;
    const char *default_string;
    const char *choices;
    const char *description;
} fl_plugin_v1_param;

typedef struct fl_plugin_v1_element {
    int32_t kind;
    const char *name;
    const char *version;
    const char *description;
    const int32_t *formats;
    int32_t format_count;
    const fl_plugin_v1_param *params;
    int32_t param_count;
    void *user_data;
    fl_plugin_status (*create)(void *user_data, const fl_plugin_value *values,
                               void **instance, char *err, size_t err_len);
    int32_t (*output_format)(void *user_data, int32_t input_format);
    fl_plugin_status (*process)(void *instance, const fl_plugin_image *input,
                                fl_plugin_image *output, char *err, size_t err_len);
    fl_plugin_status (*detect)(void *instance, const fl_plugin_image *input,
                               fl_plugin_detection *detections, int32_t capacity, int32_t *count,
                               char *err, size_t err_len);
    void (*destroy)(void *instance);
} fl_plugin_v1_element;

typedef struct fl_plugin_v1 {
    uint32_t abi_major;
    uint32_t abi_minor;
    const char *name;
    const fl_plugin_v1_element *elements;
    int32_t element_count;
} fl_plugin_v1;

#ifdef __cplusplus
}
#endif

#endif /* FRAMELAB_PLUGIN_V1_LAYOUT_H */
