/* Purpose-built broken plugins for Framelab's tests: one source, one defect per build.
 * Compile with -DBROKEN_<CASE> (see the cases below); the tests build each one with
 * cc -shared -fPIC and check the host's one-line diagnosis.
 *
 * Defects that only show on real frames (ON_FRAMES) skip the host's 97x61 trial frame,
 * the way a real bug can hide from a quick test. */
#include <framelab_plugin.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRIAL_WIDTH 97
__attribute__((unused)) static int on_real_frame(const fl_plugin_image *in) { return in->width != TRIAL_WIDTH; }

static long calls;

/* Defects of loading itself: a constructor runs at dlopen, before the host sees anything. */
#if defined(BROKEN_CONSTRUCTOR_EXIT) || defined(BROKEN_CONSTRUCTOR_CRASH) || defined(BROKEN_CONSTRUCTOR_HANG) \
    || defined(BROKEN_CONSTRUCTOR_MARKER)
extern char *program_invocation_short_name;
__attribute__((constructor)) static void on_load(void) {
#if defined(BROKEN_CONSTRUCTOR_EXIT)
    fprintf(stderr, "licence server unreachable\n");
    exit(42);
#elif defined(BROKEN_CONSTRUCTOR_CRASH)
    raise(SIGSEGV);
#elif defined(BROKEN_CONSTRUCTOR_HANG)
    for (;;) pause();
#else
    /* Appends the loading program's name to $FRAMELAB_TEST_MARKER: shows who ran the constructor. */
    const char *marker = getenv("FRAMELAB_TEST_MARKER");
    FILE *f = marker ? fopen(marker, "a") : NULL;
    if (f) { fprintf(f, "%s\n", program_invocation_short_name); fclose(f); }
#endif
}
#endif

static fl_plugin_status create(void *u, const fl_plugin_value *v, void **instance, char *err, size_t n) {
    (void)u; (void)v;
#ifdef BROKEN_CREATE_FAILS
    snprintf(err, n, "no licence key found");
    return FL_PLUGIN_ERROR;
#endif
    (void)err; (void)n;
    *instance = NULL;
    return FL_PLUGIN_OK;
}

static fl_plugin_status process(void *instance, const fl_plugin_image *in, fl_plugin_image *out, char *err, size_t n) {
    (void)instance; (void)err; (void)n;
    calls++;
#if defined(BROKEN_RETURNS_ERROR)
    snprintf(err, n, "sensor calibration missing");
    return FL_PLUGIN_ERROR;
#elif defined(BROKEN_FAILS_ON_EVEN_FRAMES)
    if (on_real_frame(in) && calls % 2 == 0) { snprintf(err, n, "lost track on call %ld", calls); return FL_PLUGIN_ERROR; }
#elif defined(BROKEN_WRONG_SIZE)
    out->width = in->width / 2;
#elif defined(BROKEN_WRONG_FORMAT)
    out->format = FL_PLUGIN_GRAY8;
#elif defined(BROKEN_CRASH)
    raise(SIGSEGV);
#elif defined(BROKEN_CRASH_ON_FRAMES)
    if (on_real_frame(in) && calls % 3 == 0) raise(SIGSEGV);
#elif defined(BROKEN_EXIT_ON_FRAMES)
    if (on_real_frame(in) && calls % 3 == 0) exit(3);
#elif defined(BROKEN_CORRUPT_ON_FRAMES)
    if (on_real_frame(in)) {  /* a heap overrun and a double free: glibc aborts */
        char *p = malloc(16);
        memset(p, 0x5a, 64);
        free(p);
        free(p);
    }
#elif defined(BROKEN_HANG)
    for (;;) pause();
#elif defined(BROKEN_HANG_ON_FRAMES)
    if (on_real_frame(in) && calls == 5) for (;;) pause();
#endif
    /* Otherwise: copy the input (all cases share the formats' byte layout). */
    for (int32_t y = 0; y < in->height; y++)
        memcpy((char *)out->data + y * out->stride, (const char *)in->data + y * in->stride,
               (size_t)in->width * (in->format == FL_PLUGIN_GRAY8 ? 1 : in->format == FL_PLUGIN_BGR8 ? 3 : 4));
#if defined(BROKEN_OVERRUN) || defined(BROKEN_OVERRUN_ON_FRAMES)
    /* 4 KB past the last row: the kind of bug a wrong stride or size computation makes. */
#ifdef BROKEN_OVERRUN_ON_FRAMES
    if (on_real_frame(in) && calls % 2 == 0)
#endif
        memset((char *)out->data + (size_t)out->stride * (size_t)out->height, 0x77, 4096);
#endif
    return FL_PLUGIN_OK;
}

static void destroy(void *instance) { (void)instance; }

static const int32_t formats[] = {FL_PLUGIN_GRAY8, FL_PLUGIN_BGR8, FL_PLUGIN_BGRA8};

/* Text with line breaks (found by the plugin-description fuzz target): the host must say so
 * in one line, never repeat it raw. */
#ifdef BROKEN_NAME_WITH_LINE_BREAK
#undef ELEMENT_NAME
#define ELEMENT_NAME "bro\nken"
#endif
#ifdef BROKEN_DESCRIPTION_WITH_CR
#define ELEMENT_DESCRIPTION "a purpose-built\rbroken plugin"
#else
#define ELEMENT_DESCRIPTION "a purpose-built broken plugin"
#endif

static const fl_plugin_param params[] = {
    {.struct_size = sizeof(fl_plugin_param), .name = "gain", .type = FL_PARAM_FLOAT, .minimum = 0, .maximum = 2,
#ifdef BROKEN_DEFAULT_OUTSIDE_RANGE
     .default_number = 5,
#else
     .default_number = 1,
#endif
#ifdef BROKEN_PARAMETER_DESCRIPTION_LINES
     .description = "a gain\nin two lines"},
#else
     .description = "a gain"},
#endif
#ifdef BROKEN_DUPLICATE_PARAMETER
    {.struct_size = sizeof(fl_plugin_param), .name = "gain", .type = FL_PARAM_INT, .minimum = 0, .maximum = 9, .default_number = 1, .description = "again"},
#elif defined(BROKEN_UNKNOWN_TYPE)
    {.struct_size = sizeof(fl_plugin_param), .name = "mode", .type = 42, .description = "a mode of a type the ABI does not know"},
#elif defined(BROKEN_ENUM_DEFAULT_WITH_LINE_BREAK)
    {.struct_size = sizeof(fl_plugin_param), .name = "mode", .type = FL_PARAM_ENUM, .choices = "fast|slow", .default_string = "fa\nst", .description = "a mode"},
#else
    {.struct_size = sizeof(fl_plugin_param), .name = "mode", .type = FL_PARAM_ENUM, .choices = "fast|slow", .default_string = "fast", .description = "a mode"},
#endif
};

/* Sizes the ABI 2 host must refuse: an element struct_size below 2.0's, or an element stride
 * below the elements' struct_size (a plugin that got its sizeof wrong). */
#ifdef BROKEN_SMALL_STRUCT_SIZE
#define ELEMENT_SIZE 16
#else
#define ELEMENT_SIZE sizeof(fl_plugin_element)
#endif
#ifdef BROKEN_SMALL_STRIDE
#define ELEMENT_STRIDE (sizeof(fl_plugin_element) - 8)
#else
#define ELEMENT_STRIDE sizeof(fl_plugin_element)
#endif

static const fl_plugin_element elements[] = {
    {.struct_size = ELEMENT_SIZE, .kind = FL_PLUGIN_FILTER, .name = ELEMENT_NAME, .version = "0.1",
     .description = ELEMENT_DESCRIPTION, .formats = formats, .format_count = 3,
     .param_stride = sizeof(fl_plugin_param), .params = params, .param_count = 2,
     .create = create, .process = process, .destroy = destroy},
};

static const fl_plugin plugin = {
#ifdef BROKEN_ABI_MAJOR
    .abi_major = FL_PLUGIN_ABI_MAJOR + 1,
#else
    .abi_major = FL_PLUGIN_ABI_MAJOR,
#endif
    .abi_minor = FL_PLUGIN_ABI_MINOR, .struct_size = sizeof(fl_plugin), .element_stride = ELEMENT_STRIDE,
    .name = "broken", .elements = elements, .element_count = 1,
};

#ifdef BROKEN_NO_ENTRY
FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry_typo(uint32_t major, uint32_t minor) {
#else
FL_PLUGIN_EXPORT const fl_plugin *framelab_plugin_entry(uint32_t major, uint32_t minor) {
#endif
    (void)major; (void)minor;
    return &plugin;
}
