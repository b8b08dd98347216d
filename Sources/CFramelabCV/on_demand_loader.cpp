// Finds and opens libFramelabCVOnDemand.so the first time the bridge needs a codec, a video,
// a window, a detector or a network (why it is a library of its own: on_demand.hpp). Looked
// for in order:
//   $FRAMELAB_CV_ON_DEMAND (a path to the library),
//   the folder of the running executable (SwiftPM puts framelab, the plugin worker, the
//     test runner and the library side by side in .build/<configuration>/),
//   <prefix>/lib/framelab/ for an executable installed in <prefix>/bin.
#include "on_demand.hpp"
#include "bridge_errors.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

const char *const library_name = "libFramelabCVOnDemand.so";

// The folder holding `path` ("" for a bare name).
std::string parent_of(const std::string &path) {
    size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::vector<std::string> candidates() {
    std::vector<std::string> paths;
    if (const char *forced = std::getenv("FRAMELAB_CV_ON_DEMAND"); forced && *forced) {
        paths.emplace_back(forced);
        return paths;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return paths;
    std::string dir = parent_of(std::string(exe, static_cast<size_t>(n)));
    paths.push_back(dir + "/" + library_name);
    paths.push_back(parent_of(dir) + "/lib/framelab/" + library_name);
    return paths;
}

std::once_flag once;
std::atomic<const fl_cv_on_demand *> table{nullptr};
std::string failure;

void load() {
    std::vector<std::string> paths = candidates();
    std::string first_error;
    for (const std::string &path : paths) {
        if (access(path.c_str(), F_OK) != 0) continue;
        void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *why = dlerror();
            if (first_error.empty()) first_error = why ? why : path + ": cannot be loaded";
            continue;
        }
        auto entry = reinterpret_cast<fl_cv_on_demand_function>(dlsym(handle, FL_CV_ON_DEMAND_SYMBOL));
        const fl_cv_on_demand *found = entry ? entry() : nullptr;
        if (!found || found->version != FL_CV_ON_DEMAND_VERSION) {
            if (first_error.empty()) {
                first_error = path + ": not this build's on-demand library (version " +
                              std::to_string(found ? found->version : 0) + ", expected " +
                              std::to_string(FL_CV_ON_DEMAND_VERSION) + ")";
            }
            dlclose(handle);
            continue;
        }
        table.store(found, std::memory_order_release);  // the library stays open for the life of the process
        return;
    }
    std::string where;
    for (const std::string &path : paths) where += (where.empty() ? "" : ", ") + path;
    failure = "OpenCV's codecs, video, window and detector modules (" + std::string(library_name) + ") could not be loaded: " +
              (first_error.empty() ? "not found at " + (where.empty() ? std::string("any known place") : where)
                                   : first_error) +
              "; build it with scripts/build.sh, or set FRAMELAB_CV_ON_DEMAND to its path";
}

}  // namespace

namespace fl_bridge {

const fl_cv_on_demand *on_demand(char *err, size_t err_len) {
    std::call_once(once, load);
    const fl_cv_on_demand *loaded = table.load(std::memory_order_acquire);
    if (!loaded) set_error(err, err_len, failure);
    return loaded;
}

const fl_cv_on_demand *on_demand_if_loaded() {
    return table.load(std::memory_order_acquire);
}

}  // namespace fl_bridge
