// Opens libFramelabHDF5OnDemand.so on the first HDF5 call (why it is a library of its own:
// chdf5_on_demand.h), where the OpenCV bridge's on-demand library is looked for too
// (CFramelabOnDemandLoader: $FRAMELAB_HDF5_ON_DEMAND, beside the executable,
// <prefix>/lib/framelab/).
#include "chdf5_loader.h"

#include <fl_on_demand_loader.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// A program that links chdf5_on_demand.c in itself (the HDF5 fuzz target, Tests/Fuzz/build.sh)
// defines the table: it is used as it is. In framelab this stays null.
extern const fl_h5_on_demand *fl_h5_on_demand_table(void) __attribute__((weak));

static pthread_once_t fl_once = PTHREAD_ONCE_INIT;
static const fl_h5_on_demand *fl_table;
static char fl_failure[2 * PATH_MAX + 512];

// The library's entry point, called with its own type (fl_on_demand_library.call_entry).
static const void *fl_call_entry(void *entry) { return ((fl_h5_on_demand_function)entry)(); }

static void fl_load(void) {
    if (fl_h5_on_demand_table != NULL) {
        fl_table = fl_h5_on_demand_table();
        return;
    }
    static const fl_on_demand_library library = {
        .file_name = "libFramelabHDF5OnDemand.so",
        .path_variable = "FRAMELAB_HDF5_ON_DEMAND",
        .entry_symbol = FL_H5_ON_DEMAND_SYMBOL,
        .call_entry = fl_call_entry,
        .version = FL_H5_ON_DEMAND_VERSION,
        .what = "HDF5",
    };
    fl_table = fl_on_demand_open(&library, fl_failure, sizeof fl_failure);
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
