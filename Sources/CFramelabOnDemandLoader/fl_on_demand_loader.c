// See fl_on_demand_loader.h. Used by the HDF5 shim (CHDF5/chdf5_loader.c) and the OpenCV
// bridge (CFramelabCV/on_demand_loader.cpp), so both look in the same places, in the same
// order, and fail with the same kind of message.
#include "fl_on_demand_loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The table of the library at `path`, or NULL; the first failure's reason goes to `first_error`.
static const void *fl_try(const fl_on_demand_library *library, const char *path, char *first_error, size_t capacity) {
    if (access(path, F_OK) != 0) return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        if (first_error[0] == '\0') snprintf(first_error, capacity, "%s", why ? why : path);
        return NULL;
    }
    void *entry = dlsym(handle, library->entry_symbol);
    const void *table = entry ? library->call_entry(entry) : NULL;
    uint32_t version = 0;
    if (table != NULL) memcpy(&version, table, sizeof version);
    if (table == NULL || version != library->version) {
        if (first_error[0] == '\0') {
            snprintf(first_error, capacity, "%s: not this build's library (version %u, expected %u)", path,
                     (unsigned)version, (unsigned)library->version);
        }
        dlclose(handle);
        return NULL;
    }
    return table;
}

const void *fl_on_demand_open(const fl_on_demand_library *library, char *failure, size_t capacity) {
    char first_error[PATH_MAX + 256] = "";
    char where[2 * PATH_MAX + 64] = "any known place";
    const void *table = NULL;
    const char *forced = getenv(library->path_variable);
    if (forced != NULL && forced[0] != '\0') {
        snprintf(where, sizeof where, "%s", forced);
        table = fl_try(library, forced, first_error, sizeof first_error);
    } else {
        char folder[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", folder, sizeof folder - 1);
        if (n > 0) {
            folder[n] = '\0';
            char *slash = strrchr(folder, '/');
            if (slash != NULL) *slash = '\0';
            char beside[PATH_MAX + 64], installed[PATH_MAX + 64];
            snprintf(beside, sizeof beside, "%s/%s", folder, library->file_name);
            slash = strrchr(folder, '/');
            if (slash != NULL) *slash = '\0';
            snprintf(installed, sizeof installed, "%s/lib/framelab/%s", folder, library->file_name);
            snprintf(where, sizeof where, "%s, %s", beside, installed);
            table = fl_try(library, beside, first_error, sizeof first_error);
            if (table == NULL) table = fl_try(library, installed, first_error, sizeof first_error);
        }
    }
    if (table == NULL) {
        snprintf(failure, capacity, "%s (%s) could not be loaded: %s%s; build it with scripts/build.sh, or set %s to its path",
                 library->what, library->file_name, first_error[0] ? "" : "not found at ",
                 first_error[0] ? first_error : where, library->path_variable);
    }
    return table;
}
