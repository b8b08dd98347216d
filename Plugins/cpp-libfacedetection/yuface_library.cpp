#include "yuface_library.hpp"
#include "elf_file_check.hpp"
#include <dlfcn.h>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace yuface {

namespace {
/// The library initialises its weights on the first call through an unguarded global
/// flag, so the first call into each loaded copy is made here, one at a time; after
/// that, calls from several instances may run in parallel (they only read the weights).
std::mutex first_call;

std::string loader_error() {
    const char *e = dlerror();
    return e ? e : "unknown dlopen error";
}
}  // namespace

Library::Library(const std::string &path) {
#if !defined(__x86_64__)
    throw std::runtime_error("unavailable on this machine: the libfacedetection build in the yuface wheel ('" + path +
                             "') is x86-64 only");
#else
    // A name without '/' would make dlopen search the system's library folders: it is a file.
    std::string file = path.find('/') == std::string::npos ? "./" + path : path;
    check_elf_file(file);
    // RTLD_NODELETE: the library runs OpenMP, whose idle worker threads live inside libgomp;
    // unmapping it under them would crash the process later.
    handle_ = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle_ == nullptr) throw std::runtime_error("cannot load library '" + path + "': " + loader_error());
    dlerror();
    detect_ = reinterpret_cast<DetectFunction>(dlsym(handle_, kSymbol));
    if (detect_ == nullptr) {
        dlclose(handle_);
        throw std::runtime_error("library '" + path + "' has no facedetect_cnn (" + kSymbol +
                                 "); is it libfacedetection from the yuface wheel?");
    }
    // The library's OpenMP calls bind like any symbol of an RTLD_LOCAL library: first to a
    // runtime already loaded globally (one OpenCV's dependencies bring), then to the libgomp
    // beside it. The thread count is set in the runtime they bind to, found the same way.
    void *set = dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (set == nullptr) set = dlsym(handle_, "omp_set_num_threads");
    set_threads_ = reinterpret_cast<void (*)(int)>(set);
    std::lock_guard<std::mutex> lock(first_call);
    std::vector<unsigned char> result(kResultBytes), black(32 * 32 * 3, 0);
    if (detect_(result.data(), black.data(), 32, 32, 32 * 3) == nullptr) {
        dlclose(handle_);
        throw std::runtime_error("library '" + path + "': facedetect_cnn failed on a test image");
    }
#endif
}

Library::~Library() {
    if (handle_ != nullptr) dlclose(handle_);
}

}  // namespace yuface
