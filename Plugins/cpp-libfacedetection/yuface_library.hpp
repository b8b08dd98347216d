// libfacedetection (Shiqi Yu's CNN face detector, 2023 release) as shipped compiled in the
// PyPI `yuface` 2023.5.1 wheel: a shared library we dlopen at run time (never link), so
// the plugin builds on machines without the wheel. Its one entry point is a C++ function,
//   int *facedetect_cnn(unsigned char *result_buffer, unsigned char *bgr, int width, int height, int step);
// found by its mangled name. Layout of the result, read off that build's machine code
// (objdump of facedetect_cnn) and checked on astronaut.png:
//   int count (at most 1024), then per face 16 shorts: score x 100, x, y, w, h, then five
//   landmark (x, y) pairs — the person's right eye, left eye, nose tip, right and left
//   mouth corners (so for a frontal face the first eye is on the image's left) — and one
//   unused short. 4 + 1024 x 32 bytes fit the 0x9000-byte buffer the project documents.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace yuface {

constexpr const char *kSymbol = "_Z14facedetect_cnnPhS_iii";
constexpr size_t kResultBytes = 0x9000;
constexpr int kMaxFaces = 1024;
constexpr int kShortsPerFace = 16;

using DetectFunction = int *(*)(unsigned char *result, unsigned char *bgr, int width, int height, int step);

struct Point {
    float x, y;
};

struct Face {
    float x, y, width, height, score;   // score 0…1 (the library's percent / 100)
    Point right_eye, left_eye, nose, mouth_right, mouth_left;   // the person's left and right
};

/// One face of a result buffer the library filled; `index` < the count it reported.
inline Face face_at(const unsigned char *result, int index) {
    const int16_t *p = reinterpret_cast<const int16_t *>(result + sizeof(int)) + (ptrdiff_t)index * kShortsPerFace;
    auto point = [p](int k) { return Point{(float)p[5 + 2 * k], (float)p[6 + 2 * k]}; };
    return Face{(float)p[1], (float)p[2], (float)p[3], (float)p[4], (float)p[0] / 100.0f,
                point(0), point(1), point(2), point(3), point(4)};
}

/// The library loaded from a file: throws std::runtime_error with a one-line reason.
class Library {
public:
    explicit Library(const std::string &path);
    ~Library();
    Library(const Library &) = delete;
    Library &operator=(const Library &) = delete;

    DetectFunction detect() const { return detect_; }

    /// Holds the library's OpenMP parallel regions started from the calling thread to `n`
    /// threads (OpenMP's thread count is per calling thread, so this is called before each
    /// detection). A no-op when no OpenMP runtime is found.
    void use_threads(int n) const {
        if (set_threads_ != nullptr) set_threads_(n);
    }

private:
    void *handle_ = nullptr;
    DetectFunction detect_ = nullptr;
    void (*set_threads_)(int) = nullptr;
};

}  // namespace yuface
