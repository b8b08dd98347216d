/* A plugin built against the frozen ABI 1.0 header (Tests/PluginABI/v1/framelab_plugin.h),
 * as plugins compiled before ABI 2 were: the ABI 2 host must still load and run it.
 * Three elements, so a host that walked the element array with the 2.0 struct's size
 * would misread every element after the first. */
#include <framelab_plugin.h>
#include <stdlib.h>
#include <string.h>

#if FL_PLUGIN_ABI_MAJOR != 1
#error "build against Tests/PluginABI/v1 (the frozen 1.0 header)"
#endif

typedef struct offset { int delta; } offset;

/* user_data: +1 brightens, -1 darkens, by the `amount` parameter. */
static fl_plugin_status create(void *user_data, const fl_plugin_value *values, void **instance, char *err, size_t n) {
    (void)err; (void)n;
    offset *self = malloc(sizeof *self);
    if (!self) return FL_PLUGIN_ERROR;
    self->delta = *(const int *)user_data * (int)values[0].number;
    *instance = self;
    return FL_PLUGIN_OK;
}

static fl_plugin_status process(void *instance, const fl_plugin_image *in, fl_plugin_image *out, char *err, size_t n) {
    (void)err; (void)n;
    const offset *self = instance;
    for (int32_t y = 0; y < in->height; y++) {
        const uint8_t *s = (const uint8_t *)in->data + y * in->stride;
        uint8_t *d = (uint8_t *)out->data + y * out->stride;
        for (int32_t x = 0; x < in->width; x++) {
            int v = s[x] + self->delta;
            d[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    }
    return FL_PLUGIN_OK;
}

static fl_plugin_status box_create(void *user_data, const fl_plugin_value *values, void **instance, char *err, size_t n) {
    (void)user_data; (void)values; (void)err; (void)n;
    *instance = NULL;
    return FL_PLUGIN_OK;
}

static fl_plugin_status box_detect(void *instance, const fl_plugin_image *in, fl_plugin_detection *found,
                                   int32_t capacity, int32_t *count, char *err, size_t n) {
    (void)instance; (void)in; (void)err; (void)n;
    if (capacity < 1) { *count = 0; return FL_PLUGIN_OK; }
    memset(found, 0, sizeof *found);
    found->x = 1; found->y = 2; found->width = 3; found->height = 4; found->score = 0.5f;
    *count = 1;
    return FL_PLUGIN_OK;
}

static void destroy(void *instance) { free(instance); }

static const int brighter = 1, darker = -1;
static const int32_t gray[] = {FL_PLUGIN_GRAY8};

static const fl_plugin_param brighten_params[] = {
    {.name = "amount", .type = FL_PARAM_INT, .minimum = 0, .maximum = 255, .default_number = 10,
     .description = "added to every pixel"},
};
static const fl_plugin_param darken_params[] = {
    {.name = "amount", .type = FL_PARAM_INT, .minimum = 0, .maximum = 100, .default_number = 3,
     .description = "taken from every pixel"},
    {.name = "note", .type = FL_PARAM_STRING, .default_string = "unused", .description = "a second parameter"},
};

static const fl_plugin_element elements[] = {
    {.kind = FL_PLUGIN_FILTER, .name = "v1-brighten", .version = "1.0.1", .description = "adds amount to every pixel",
     .formats = gray, .format_count = 1, .params = brighten_params, .param_count = 1, .user_data = (void *)&brighter,
     .create = create, .process = process, .destroy = destroy},
    {.kind = FL_PLUGIN_FILTER, .name = "v1-darken", .version = "1.0.2", .description = "takes amount from every pixel",
     .formats = gray, .format_count = 1, .params = darken_params, .param_count = 2, .user_data = (void *)&darker,
     .create = create, .process = process, .destroy = destroy},
    {.kind = FL_PLUGIN_DETECTOR, .name = "v1-box", .version = "1.0.3", .description = "one fixed box",
     .formats = gray, .format_count = 1, .create = box_create, .detect = box_detect, .destroy = destroy},
};

static const fl_plugin plugin = {
    .abi_major = FL_PLUGIN_ABI_MAJOR, .abi_minor = FL_PLUGIN_ABI_MINOR, .name = "abi-1.0",
    .elements = elements, .element_count = 3,
};

FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t host_major, uint32_t host_minor) {
    (void)host_major; (void)host_minor;
    return &plugin;
}
