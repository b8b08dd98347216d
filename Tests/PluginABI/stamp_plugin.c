/* ABI 2.0's per-frame information and live parameters, made visible for tests.
 *
 * `stamp` (filter, gray8) copies its input, then overwrites the first pixels of row 0
 * with what it was told: [frame index, pts in ms, arrival in µs, instances created, gain]
 * (each mod 256). It changes `gain` live through set_parameter; `stamp-fixed` is the same
 * without set_parameter, so the host must re-create it. `stamp-detect` (detector) reports
 * one box whose score is the frame index, at x = instances created, y = gain. */
#include <framelab_plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int creates;   /* instances created in this process */

typedef struct stamp { int gain; } stamp;

static fl_plugin_status create(void *user_data, const fl_plugin_value *values, void **instance, char *err, size_t n) {
    (void)user_data; (void)err; (void)n;
    stamp *self = malloc(sizeof *self);
    if (!self) return FL_PLUGIN_ERROR;
    self->gain = (int)values[0].number;
    creates++;
    *instance = self;
    return FL_PLUGIN_OK;
}

static fl_plugin_status set_parameter(void *instance, int32_t index, const fl_plugin_value *value, char *err, size_t n) {
    stamp *self = instance;
    if (index != 0) { snprintf(err, n, "no parameter #%d", (int)index); return FL_PLUGIN_BAD_PARAMETER; }
    self->gain = (int)value->number;
    return FL_PLUGIN_OK;
}

static fl_plugin_status process_frame(void *instance, const fl_plugin_frame *frame, const fl_plugin_image *in,
                                      fl_plugin_image *out, char *err, size_t n) {
    const stamp *self = instance;
    if (frame->struct_size < sizeof(fl_plugin_frame) || in->width < 5) {
        snprintf(err, n, "frame info of %u bytes, image %d wide", frame->struct_size, (int)in->width);
        return FL_PLUGIN_ERROR;
    }
    for (int32_t y = 0; y < in->height; y++)
        memcpy((uint8_t *)out->data + y * out->stride, (const uint8_t *)in->data + y * in->stride, (size_t)in->width);
    uint8_t *row = out->data;
    row[0] = (uint8_t)(frame->index & 0xff);
    row[1] = (uint8_t)((frame->pts_ns / 1000000) & 0xff);
    row[2] = (uint8_t)((frame->arrival_ns / 1000) & 0xff);
    row[3] = (uint8_t)(creates & 0xff);
    row[4] = (uint8_t)(self->gain & 0xff);
    return FL_PLUGIN_OK;
}

static fl_plugin_status detect_frame(void *instance, const fl_plugin_frame *frame, const fl_plugin_image *in,
                                     fl_plugin_detection *found, int32_t capacity, int32_t *count, char *err, size_t n) {
    (void)in; (void)err; (void)n;
    const stamp *self = instance;
    *count = 0;
    if (capacity < 1) return FL_PLUGIN_OK;
    memset(found, 0, sizeof *found);
    found->x = (float)creates; found->y = (float)self->gain; found->width = 1; found->height = 1;
    found->score = (float)frame->index;
    *count = 1;
    return FL_PLUGIN_OK;
}

static void destroy(void *instance) { free(instance); }

static const int32_t gray[] = {FL_PLUGIN_GRAY8};
static const fl_plugin_param params[] = {
    {.struct_size = sizeof(fl_plugin_param), .name = "gain", .type = FL_PARAM_INT, .minimum = 0, .maximum = 100,
     .default_number = 1, .description = "a value the instance reports back"},
};

#define ELEMENT(KIND, NAME) \
    .struct_size = sizeof(fl_plugin_element), .kind = KIND, .name = NAME, .version = "2.0.0", \
    .description = "reports its frame information", .formats = gray, .format_count = 1, \
    .param_stride = sizeof(fl_plugin_param), .params = params, .param_count = 1, .create = create, .destroy = destroy

static const fl_plugin_element elements[] = {
    {ELEMENT(FL_PLUGIN_FILTER, "stamp"), .process_frame = process_frame, .set_parameter = set_parameter},
    {ELEMENT(FL_PLUGIN_FILTER, "stamp-fixed"), .process_frame = process_frame},
    {ELEMENT(FL_PLUGIN_DETECTOR, "stamp-detect"), .detect_frame = detect_frame, .set_parameter = set_parameter},
};

/* tight_plugin.c sets this to where fl_plugin's last field ends, short of sizeof's padding. */
#ifndef STAMP_PLUGIN_SIZE
#define STAMP_PLUGIN_SIZE sizeof(fl_plugin)
#endif

static const fl_plugin plugin = {
    .abi_major = FL_PLUGIN_ABI_MAJOR, .abi_minor = FL_PLUGIN_ABI_MINOR, .struct_size = STAMP_PLUGIN_SIZE,
    .element_stride = sizeof(fl_plugin_element), .name = "abi-stamp", .elements = elements, .element_count = 3,
};

FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t host_major, uint32_t host_minor) {
    (void)host_major; (void)host_minor;
    return &plugin;
}
