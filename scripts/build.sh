#!/usr/bin/env bash
# Builds Framelab (release) after making sure its system packages are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# framelab, and the OpenCV modules it loads on first use (imgcodecs, videoio, highgui,
# objdetect, dnn: Sources/CFramelabCV/on_demand.hpp), which must sit beside it.
for product in framelab FramelabCVOnDemand; do
    swift build -c release --product "$product" 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Write|Linking|Planning)' || true
done
test -x .build/release/framelab || { echo "build: framelab was not built" >&2; exit 1; }
test -f .build/release/libFramelabCVOnDemand.so || { echo "build: libFramelabCVOnDemand.so was not built" >&2; exit 1; }
bash scripts/build-plugins.sh   # example plugins into .build/plugins, the plugin worker, the SDK header
bash scripts/man-page.sh        # the manual page, .build/man/framelab.1
