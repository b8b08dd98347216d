#!/usr/bin/env bash
# Builds the example plugins under Plugins/ into .build/plugins, where framelab finds
# them: C and C++ with the system compilers and only the plugin header, Swift with
# SwiftPM (a .dynamic library product). Also builds the isolation worker.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/plugins
sdk=Sources/CFramelabPlugin/include
mkdir -p "$out" .build/sdk/include
cp "$sdk/framelab_plugin.h" .build/sdk/include/   # the installed header plugin authors compile against
cc -std=c11 -shared -fPIC -O2 -Wall -Wextra -Werror -I"$sdk" Plugins/c-invert/invert.c -o "$out/libframelab-c-invert.so"
opencv=$(pkg-config --cflags --libs opencv4)
# shellcheck disable=SC2086
c++ -std=c++17 -shared -fPIC -O2 -Wall -Wextra -I"$sdk" Plugins/cpp-canny/canny.cpp $opencv -o "$out/libframelab-cpp-canny.so"
# shellcheck disable=SC2086
c++ -std=c++17 -shared -fPIC -O2 -Wall -Wextra -I"$sdk" Plugins/cpp-lbp-face/lbp_face.cpp $opencv -o "$out/libframelab-cpp-lbp-face.so"
for product in FramelabPosterizePlugin framelab-plugin-worker; do
    swift build -c release --product "$product" 2>&1 \
        | grep -Ev '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Write|Linking|Planning)' || true
done
cp .build/release/libFramelabPosterizePlugin.so "$out/libframelab-swift-posterize.so"
test -x .build/release/framelab-plugin-worker || { echo "build-plugins: framelab-plugin-worker was not built" >&2; exit 1; }
