// Opens libFramelabCVOnDemand.so the first time the bridge needs a codec, a video, a
// window, a detector or a network (why it is a library of its own: on_demand.hpp), where the
// HDF5 shim's on-demand library is looked for too (CFramelabOnDemandLoader:
// $FRAMELAB_CV_ON_DEMAND, beside the executable, <prefix>/lib/framelab/).
#include "on_demand.hpp"
#include "bridge_errors.hpp"

#include <fl_on_demand_loader.h>
#include <limits.h>

#include <atomic>
#include <mutex>
#include <string>

namespace {

std::once_flag once;
std::atomic<const fl_cv_on_demand *> table{nullptr};
std::string failure;

// The library's entry point, called with its own type (fl_on_demand_library.call_entry).
const void *call_entry(void *entry) { return reinterpret_cast<fl_cv_on_demand_function>(entry)(); }

void load() {
    static const fl_on_demand_library library = {
        "libFramelabCVOnDemand.so", "FRAMELAB_CV_ON_DEMAND", FL_CV_ON_DEMAND_SYMBOL, call_entry, FL_CV_ON_DEMAND_VERSION,
        "OpenCV's codecs, video, window and detector modules",
    };
    char reason[2 * PATH_MAX + 512] = "";
    auto found = static_cast<const fl_cv_on_demand *>(fl_on_demand_open(&library, reason, sizeof reason));
    if (found) {
        table.store(found, std::memory_order_release);  // the library stays open for the life of the process
    } else {
        failure = reason;
    }
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
