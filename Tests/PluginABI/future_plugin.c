/* An ABI 2 plugin from a simulated future minor version: its plugin, element and
 * parameter structs are each LARGER than the current header's (fields appended at the
 * end, filled with junk), declared through struct_size and the strides. The current host
 * must walk the arrays by the plugin's strides and ignore the appended fields. */
#include <framelab_plugin.h>
#include <stdlib.h>

typedef struct future_param {
    fl_plugin_param base;
    const char *unit;          /* appended */
    double step;               /* appended */
} future_param;

typedef struct future_element {
    fl_plugin_element base;
    uint64_t flags;            /* appended */
    void *(*extra)(void *);    /* appended */
    char note[40];             /* appended */
} future_element;

typedef struct future_plugin {
    fl_plugin base;
    const char *vendor;        /* appended */
} future_plugin;

typedef struct offset { int delta; } offset;

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

static void destroy(void *instance) { free(instance); }

static const int brighter = 1, darker = -1;
static const int32_t gray[] = {FL_PLUGIN_GRAY8};

#define PARAM(NAME, DEFAULT, TEXT) \
    {.base = {.struct_size = sizeof(future_param), .name = NAME, .type = FL_PARAM_INT, .minimum = 0, .maximum = 100, \
              .default_number = DEFAULT, .description = TEXT}, .unit = "\xff\xfe junk", .step = 1e300}

static const future_param brighten_params[] = {PARAM("amount", 20, "added"), PARAM("spare", 7, "unused")};
static const future_param darken_params[] = {PARAM("amount", 5, "taken"), PARAM("other", 9, "unused too")};

#define ELEMENT(NAME, PARAMS, USER) \
    {.base = {.struct_size = sizeof(future_element), .kind = FL_PLUGIN_FILTER, .name = NAME, .version = "2.1.0", \
              .description = "offsets every pixel", .formats = gray, .format_count = 1, \
              .param_stride = sizeof(future_param), .params = &PARAMS[0].base, .param_count = 2, \
              .user_data = (void *)USER, .create = create, .process = process, .destroy = destroy}, \
     .flags = 0xdeadbeefdeadbeefULL, .extra = (void *(*)(void *))0x1, .note = "appended by a newer minor"}

static const future_element elements[] = {
    ELEMENT("future-brighten", brighten_params, &brighter),
    ELEMENT("future-darken", darken_params, &darker),
};

static const future_plugin plugin = {
    .base = {.abi_major = FL_PLUGIN_ABI_MAJOR, .abi_minor = FL_PLUGIN_ABI_MINOR, .struct_size = sizeof(future_plugin),
             .element_stride = sizeof(future_element), .name = "abi-future",
             .elements = &elements[0].base, .element_count = 2},
    .vendor = "somebody",
};

FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t host_major, uint32_t host_minor) {
    (void)host_major; (void)host_minor;
    return &plugin.base;
}
