#!/usr/bin/env bash
# Builds the example plugins under Plugins/ into .build/plugins, where framelab finds
# them: C and C++ with the system compilers, the plugin header and the library each wraps
# (OpenCV, dlib), Swift with SwiftPM (a .dynamic library product). Also builds the
# isolation worker. The C and C++ examples build with -Wall -Wextra -pedantic, as errors
# except dlib's (its headers are not ours; checked clean with dlib 19.24).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/plugins
sdk=Sources/CFramelabPlugin/include
mkdir -p "$out" .build/sdk/include
cp "$sdk/framelab_plugin.h" .build/sdk/include/   # the installed header plugin authors compile against
cc -std=c11 -shared -fPIC -O2 -Wall -Wextra -pedantic -Werror -I"$sdk" Plugins/c-invert/invert.c -o "$out/libframelab-c-invert.so"
opencv=$(pkg-config --cflags --libs opencv4)
# shellcheck disable=SC2086
c++ -std=c++17 -shared -fPIC -O2 -Wall -Wextra -pedantic -Werror -I"$sdk" Plugins/cpp-canny/canny.cpp $opencv -o "$out/libframelab-cpp-canny.so"
# shellcheck disable=SC2086
c++ -std=c++17 -shared -fPIC -O2 -Wall -Wextra -pedantic -Werror -I"$sdk" Plugins/cpp-lbp-face/lbp_face.cpp $opencv -o "$out/libframelab-cpp-lbp-face.so"
# libfacedetection is dlopened when an instance is created, never linked: builds everywhere.
c++ -std=c++17 -shared -fPIC -O2 -Wall -Wextra -pedantic -Werror -I"$sdk" Plugins/cpp-libfacedetection/*.cpp -ldl \
    -o "$out/libframelab-cpp-libfacedetection.so"
# dlib (Debian's libdlib-dev, installed by scripts/setup.sh). The MMOD CNN's matrix products
# go to cblas_sgemm: in framelab, from the libblas.so.3 OpenCV already loaded (Debian's
# alternatives make that OpenBLAS once it is installed; the reference BLAS is ~4x slower);
# in a host without one, from libopenblas, linked first here. `framelab detectors` names the
# BLAS in use. dlib's DNN templates take minutes to compile: rebuilt only when stale.
dlib_plugin="$out/libframelab-cpp-dlib-face.so"
if ! pkg-config --exists dlib-1; then
    echo "build-plugins: skipping Plugins/cpp-dlib-face (dlib-hog, dlib-mmod): dlib not found; install libdlib-dev libopenblas-dev liblapack-dev (scripts/setup.sh does)" >&2
elif [ ! -e "$dlib_plugin" ] || [ -n "$(find Plugins/cpp-dlib-face Plugins/shared "$sdk/framelab_plugin.h" -newer "$dlib_plugin" -print -quit)" ]; then
    # shellcheck disable=SC2046
    c++ -std=c++17 -shared -fPIC -O2 -Wall -Wextra -pedantic -I"$sdk" Plugins/cpp-dlib-face/*.cpp \
        -Wl,--no-as-needed -lopenblas -Wl,--as-needed $(pkg-config --cflags --libs dlib-1) -o "$dlib_plugin"
fi
for product in FramelabPosterizePlugin framelab-plugin-worker; do
    swift build -c release --product "$product" 2>&1 \
        | grep -Ev '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Write|Linking|Planning)' || true
done
cp .build/release/libFramelabPosterizePlugin.so "$out/libframelab-swift-posterize.so"
test -x .build/release/framelab-plugin-worker || { echo "build-plugins: framelab-plugin-worker was not built" >&2; exit 1; }
# The Python bridge: embeds CPython (Debian's python3-dev) to run .py elements; not a plugin
# itself, so it lives outside .build/plugins, beside the module element files import.
if pkg-config --exists python3-embed; then
    mkdir -p .build/python
    # shellcheck disable=SC2046
    cc -std=c11 -shared -fPIC -O2 -Wall -Wextra -Werror -Wno-format-truncation -I"$sdk" Sources/PythonBridge/python_bridge.c \
        $(pkg-config --cflags --libs python3-embed) -o .build/python/libframelab-python.so
    cp Sources/PythonBridge/framelab_plugin.py .build/python/
else
    echo "build-plugins: skipping the Python bridge (Python elements): python3-embed not found; install python3-dev (scripts/setup.sh does)" >&2
fi
