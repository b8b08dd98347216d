/* A Framelab plugin in plain C, compiled with only framelab_plugin.h:
 *   cc -shared -fPIC -O2 -I"$(framelab plugins sdk --include)" invert.c -o libinvert.so
 * Three filters: `negative` (photographic negative, blended by `amount`, which a run can
 * change between frames through set_parameter), `noop` (passes frames through untouched;
 * the benchmark's do-nothing plugin) and `fade-in` (fades from black over the first
 * `seconds` of the stream, timed by each frame's presentation timestamp: process_frame). */
#include <framelab_plugin.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct invert { int amount256; } invert;  /* amount in 1/256 steps */

static fl_plugin_status invert_create(void *user_data, const fl_plugin_value *values, void **instance,
                                      char *err, size_t err_len) {
    (void)user_data;
    invert *self = malloc(sizeof *self);
    if (!self) { snprintf(err, err_len, "out of memory"); return FL_PLUGIN_ERROR; }
    self->amount256 = (int)(values[0].number * 256.0 + 0.5);
    *instance = self;
    return FL_PLUGIN_OK;
}

/* ABI 2: a new amount between frames, without a new instance. The host has checked the
 * value against the declared range already. */
static fl_plugin_status invert_set_parameter(void *instance, int32_t index, const fl_plugin_value *value,
                                             char *err, size_t err_len) {
    invert *self = instance;
    if (index != 0) { snprintf(err, err_len, "negative has one parameter, not #%d", (int)index); return FL_PLUGIN_BAD_PARAMETER; }
    self->amount256 = (int)(value->number * 256.0 + 0.5);
    return FL_PLUGIN_OK;
}

/* out = in blended towards `target` (0: black, or the negative) by amount256 / 256. */
static fl_plugin_status blend(const fl_plugin_image *in, fl_plugin_image *out, int amount256, int negative,
                              char *err, size_t err_len) {
    int channels = in->format == FL_PLUGIN_GRAY8 ? 1 : in->format == FL_PLUGIN_BGR8 ? 3 : 4;
    if (in->format != FL_PLUGIN_GRAY8 && in->format != FL_PLUGIN_BGR8 && in->format != FL_PLUGIN_BGRA8) {
        snprintf(err, err_len, "invert takes gray8, bgr8 or bgra8, got format %d", (int)in->format);
        return FL_PLUGIN_UNSUPPORTED;
    }
    for (int32_t y = 0; y < in->height; y++) {
        const uint8_t *s = (const uint8_t *)in->data + y * in->stride;
        uint8_t *d = (uint8_t *)out->data + y * out->stride;
        for (int32_t x = 0; x < in->width * channels; x++) {
            int keep = channels == 4 && x % 4 == 3;   /* alpha stays */
            int v = s[x];
            int target = negative ? 255 - v : 0;
            d[x] = keep ? (uint8_t)v : (uint8_t)(v + (((target - v) * amount256) >> 8));
        }
    }
    return FL_PLUGIN_OK;
}

static fl_plugin_status invert_process(void *instance, const fl_plugin_image *in, fl_plugin_image *out,
                                       char *err, size_t err_len) {
    const invert *self = instance;
    return blend(in, out, self->amount256, 1, err, err_len);
}

typedef struct fade { double seconds; } fade;

static fl_plugin_status fade_create(void *user_data, const fl_plugin_value *values, void **instance,
                                    char *err, size_t err_len) {
    (void)user_data;
    fade *self = malloc(sizeof *self);
    if (!self) { snprintf(err, err_len, "out of memory"); return FL_PLUGIN_ERROR; }
    self->seconds = values[0].number;
    *instance = self;
    return FL_PLUGIN_OK;
}

/* ABI 2: the frame's presentation time decides how dark it is. */
static fl_plugin_status fade_process_frame(void *instance, const fl_plugin_frame *frame, const fl_plugin_image *in,
                                           fl_plugin_image *out, char *err, size_t err_len) {
    const fade *self = instance;
    double t = (double)frame->pts_ns / 1e9;
    double dark = self->seconds <= 0 || t >= self->seconds ? 0 : t <= 0 ? 1 : 1 - t / self->seconds;
    return blend(in, out, (int)(dark * 256.0 + 0.5), 0, err, err_len);
}

static fl_plugin_status noop_create(void *user_data, const fl_plugin_value *values, void **instance,
                                    char *err, size_t err_len) {
    (void)user_data; (void)values; (void)err; (void)err_len;
    *instance = NULL;
    return FL_PLUGIN_OK;
}

static fl_plugin_status noop_process(void *instance, const fl_plugin_image *in, fl_plugin_image *out,
                                     char *err, size_t err_len) {
    (void)instance; (void)err; (void)err_len;
    *out = *in;   /* pass the frame through: no pixel is touched */
    return FL_PLUGIN_OK;
}

static void free_instance(void *instance) { free(instance); }

static const int32_t formats[] = {FL_PLUGIN_GRAY8, FL_PLUGIN_BGR8, FL_PLUGIN_BGRA8};
static const int32_t all_formats[] = {FL_PLUGIN_GRAY8, FL_PLUGIN_BGR8, FL_PLUGIN_BGRA8, FL_PLUGIN_GRAYF32};

static const fl_plugin_param invert_params[] = {
    {.struct_size = sizeof(fl_plugin_param), .name = "amount", .type = FL_PARAM_FLOAT, .minimum = 0, .maximum = 1, .default_number = 1,
     .description = "0 keeps the image, 1 is the full negative"},
};

static const fl_plugin_param fade_params[] = {
    {.struct_size = sizeof(fl_plugin_param), .name = "seconds", .type = FL_PARAM_FLOAT, .minimum = 0,
     .maximum = 3600, .default_number = 1, .description = "how long the fade from black lasts, in stream time"},
};

static const fl_plugin_element elements[] = {
    {.struct_size = sizeof(fl_plugin_element), .kind = FL_PLUGIN_FILTER, .name = "negative", .version = "1.1.0",
     .description = "photographic negative of every colour channel, alpha kept",
     .formats = formats, .format_count = 3,
     .param_stride = sizeof(fl_plugin_param), .params = invert_params, .param_count = 1,
     .create = invert_create, .process = invert_process, .destroy = free_instance,
     .set_parameter = invert_set_parameter},
    {.struct_size = sizeof(fl_plugin_element), .kind = FL_PLUGIN_FILTER, .name = "noop", .version = "1.0.0",
     .description = "passes every frame through untouched (for measuring call overhead)",
     .formats = all_formats, .format_count = 4,
     .create = noop_create, .process = noop_process, .destroy = free_instance},
    {.struct_size = sizeof(fl_plugin_element), .kind = FL_PLUGIN_FILTER, .name = "fade-in", .version = "1.0.0",
     .description = "fades in from black over the first seconds of the stream (by presentation time)",
     .formats = formats, .format_count = 3,
     .param_stride = sizeof(fl_plugin_param), .params = fade_params, .param_count = 1,
     .create = fade_create, .process_frame = fade_process_frame, .destroy = free_instance},
};

static const fl_plugin plugin = {
    .abi_major = FL_PLUGIN_ABI_MAJOR, .abi_minor = FL_PLUGIN_ABI_MINOR,
    .struct_size = sizeof(fl_plugin), .element_stride = sizeof(fl_plugin_element), .name = "c-invert",
    .elements = elements, .element_count = sizeof elements / sizeof elements[0],
};

FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t host_major, uint32_t host_minor) {
    (void)host_major; (void)host_minor;
    return &plugin;
}
