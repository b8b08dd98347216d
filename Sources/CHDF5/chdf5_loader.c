// Finds and opens libFramelabHDF5OnDemand.so on the first HDF5 call (why it is a library of
// its own: chdf5_on_demand.h). Looked for in order:
//   $FRAMELAB_HDF5_ON_DEMAND (a path to the library),
//   the folder of the running executable (SwiftPM puts framelab, the plugin worker, the
//     test runner and the library side by side in .build/<configuration>/),
//   <prefix>/lib/framelab/ for an executable installed in <prefix>/bin.
// The same places, and the same messages, as the OpenCV bridge's on-demand library
// (CFramelabCV/on_demand_loader.cpp).
#define _GNU_SOURCE 1
#include "chdf5_loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const fl_library_name = "libFramelabHDF5OnDemand.so";

// A program that links chdf5_on_demand.c in itself (the HDF5 fuzz target, Tests/Fuzz/build.sh)
// defines the table: it is used as it is. In framelab this stays null.
extern const fl_h5_on_demand *fl_h5_on_demand_table(void) __attribute__((weak));

static pthread_once_t fl_once = PTHREAD_ONCE_INIT;
static const fl_h5_on_demand *fl_table;
static char fl_failure[2 * PATH_MAX + 512];

static const fl_h5_on_demand *fl_open(const char *path, char *first_error, size_t capacity) {
    if (access(path, F_OK) != 0) return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        if (first_error[0] == '\0') snprintf(first_error, capacity, "%s", why ? why : path);
        return NULL;
    }
    fl_h5_on_demand_function entry = (fl_h5_on_demand_function)dlsym(handle, FL_H5_ON_DEMAND_SYMBOL);
    const fl_h5_on_demand *table = entry ? entry() : NULL;
    if (table == NULL || table->version != FL_H5_ON_DEMAND_VERSION) {
        if (first_error[0] == '\0') {
            snprintf(first_error, capacity, "%s: not this build's HDF5 library (version %u, expected %u)", path,
                     table ? table->version : 0u, (unsigned)FL_H5_ON_DEMAND_VERSION);
        }
        dlclose(handle);
        return NULL;
    }
    return table;  // the library stays open for the life of the process
}

static void fl_load(void) {
    if (fl_h5_on_demand_table != NULL) {
        fl_table = fl_h5_on_demand_table();
        return;
    }
    char first_error[PATH_MAX + 256] = "";
    char where[2 * PATH_MAX + 64] = "any known place";
    const char *forced = getenv("FRAMELAB_HDF5_ON_DEMAND");
    if (forced != NULL && forced[0] != '\0') {
        snprintf(where, sizeof where, "%s", forced);
        fl_table = fl_open(forced, first_error, sizeof first_error);
    } else {
        char folder[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", folder, sizeof folder - 1);
        if (n > 0) {
            folder[n] = '\0';
            char *slash = strrchr(folder, '/');
            if (slash != NULL) *slash = '\0';
            char beside[PATH_MAX + 64], installed[PATH_MAX + 64];
            snprintf(beside, sizeof beside, "%s/%s", folder, fl_library_name);
            slash = strrchr(folder, '/');
            if (slash != NULL) *slash = '\0';
            snprintf(installed, sizeof installed, "%s/lib/framelab/%s", folder, fl_library_name);
            snprintf(where, sizeof where, "%s, %s", beside, installed);
            fl_table = fl_open(beside, first_error, sizeof first_error);
            if (fl_table == NULL) fl_table = fl_open(installed, first_error, sizeof first_error);
        }
    }
    if (fl_table == NULL) {
        snprintf(fl_failure, sizeof fl_failure,
                 "HDF5 (%s) could not be loaded: %s%s; build it with scripts/build.sh, or set "
                 "FRAMELAB_HDF5_ON_DEMAND to its path",
                 fl_library_name, first_error[0] ? "" : "not found at ", first_error[0] ? first_error : where);
    }
}

const fl_h5_on_demand *fl_h5_on_demand_loaded(void) {
    pthread_once(&fl_once, fl_load);
    if (fl_table == NULL) {
        fprintf(stderr, "framelab: error: %s\n", fl_failure);
        exit(1);
    }
    return fl_table;
}

const fl_h5_functions *fl_h5_functions_loaded(void) { return &fl_h5_on_demand_loaded()->h5; }
