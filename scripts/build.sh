#!/usr/bin/env bash
# Builds Framelab (release) after making sure its system packages are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# framelab, and the libraries it loads on first use, which must sit beside it: OpenCV's
# imgcodecs, videoio, highgui, objdetect and dnn (Sources/CFramelabCV/on_demand.hpp), and
# HDF5 (Sources/CHDF5/include/chdf5_on_demand.h).
for product in framelab FramelabCVOnDemand FramelabHDF5OnDemand; do
    swift build -c release --product "$product" 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Write|Linking|Planning)' || true
done
test -x .build/release/framelab || { echo "build: framelab was not built" >&2; exit 1; }
for library in libFramelabCVOnDemand.so libFramelabHDF5OnDemand.so; do
    test -f ".build/release/$library" || { echo "build: $library was not built" >&2; exit 1; }
done
bash scripts/build-plugins.sh   # example plugins into .build/plugins, the plugin worker, the SDK header
bash scripts/man-page.sh        # the manual page, .build/man/framelab.1
