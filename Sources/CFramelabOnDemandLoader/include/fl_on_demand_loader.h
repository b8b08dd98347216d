// Finding and opening one of Framelab's on-demand libraries (libFramelabCVOnDemand.so,
// libFramelabHDF5OnDemand.so): shared libraries that link what most runs never need, so
// that framelab itself starts without loading it (docs/architecture.md, "Start-up").
#ifndef FL_ON_DEMAND_LOADER_H
#define FL_ON_DEMAND_LOADER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// One on-demand library: its file name, the environment variable that gives its path, the
// function that hands over its table, how to call that function (`call_entry` casts the
// symbol to the function's own type and calls it: a call through another function type is
// undefined, and UBSan's -fsanitize=function stops it), the table version this build
// expects (a table's first field is its uint32_t version), and what it provides, for
// messages.
typedef struct fl_on_demand_library {
    const char *file_name;
    const char *path_variable;
    const char *entry_symbol;
    const void *(*call_entry)(void *entry);
    uint32_t version;
    const char *what;
} fl_on_demand_library;

// Looks for the library at $path_variable when set, else beside the running executable
// (SwiftPM puts framelab, the plugin worker, the test runner and the libraries side by
// side in .build/<configuration>/), then in <prefix>/lib/framelab/ for an executable in
// <prefix>/bin. Returns the first table of the right version (the library stays open for
// the life of the process), or NULL with a one-line reason in `failure`.
const void *fl_on_demand_open(const fl_on_demand_library *library, char *failure, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
