// Helpers the C++ plugins that wrap third-party face detectors share (header-only, so each
// plugin stays one self-contained .so): where the fetched model files are, and the ABI's
// one-line error messages.
#ifndef FRAMELAB_PLUGIN_SUPPORT_HPP
#define FRAMELAB_PLUGIN_SUPPORT_HPP

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <cstdarg>
#include <cstdio>
#include <string>

namespace framelab_plugin_support {

inline bool is_directory(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// The folder holding fetched models (scripts/fetch-models.sh): $FRAMELAB_MODELS when set;
/// else Datasets/models of the checkout whose .build/plugins holds the library containing
/// `anchor` (any function of the plugin, found with dladdr), when that folder exists;
/// else ./Datasets/models. Resolved once per library, when the host reads its description,
/// so a parameter's default shows the real file (and the run records its SHA-256).
inline std::string models_directory(const void *anchor) {
    if (const char *env = getenv("FRAMELAB_MODELS"); env != nullptr && *env != '\0') return env;
    Dl_info info;
    if (dladdr(anchor, &info) != 0 && info.dli_fname != nullptr) {
        std::string so = info.dli_fname;
        size_t slash = so.rfind('/');
        std::string dir = slash == std::string::npos ? "." : so.substr(0, slash);
        std::string candidate = dir + "/../../Datasets/models";
        char resolved[PATH_MAX];
        if (is_directory(candidate) && realpath(candidate.c_str(), resolved) != nullptr) return resolved;
    }
    return "Datasets/models";
}

/// Writes a printf-style message into the ABI's error buffer as ONE line: library messages
/// (dlib's, dlerror's) may span several, and the host shows the buffer as one line.
inline void fail(char *err, size_t err_len, const char *format, ...) __attribute__((format(printf, 3, 4)));
inline void fail(char *err, size_t err_len, const char *format, ...) {
    if (err == nullptr || err_len == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(err, err_len, format, args);
    va_end(args);
    // Collapse line breaks and tabs, and runs of spaces they leave, into single spaces.
    size_t w = 0;
    for (size_t r = 0; err[r] != '\0'; r++) {
        char c = err[r] == '\n' || err[r] == '\r' || err[r] == '\t' ? ' ' : err[r];
        if (c == ' ' && (w == 0 || err[w - 1] == ' ')) continue;
        err[w++] = c;
    }
    while (w > 0 && err[w - 1] == ' ') w--;
    err[w] = '\0';
}

}  // namespace framelab_plugin_support

#endif
