#!/usr/bin/env bash
# Builds the emulated webcam the camera tests preload (Tests/FakeWebcam/fake_webcam.c)
# into .build/fake-webcam/libframelab_fake_webcam.so and prints its path. Rebuilds only
# when the source is newer. Needs cc and libjpeg-dev (installed by scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
src=Tests/FakeWebcam/fake_webcam.c
out=.build/fake-webcam/libframelab_fake_webcam.so
if [ ! -f "$out" ] || [ "$src" -nt "$out" ]; then
    mkdir -p "$(dirname "$out")"
    cc -shared -fPIC -O2 -Wall -Wextra -o "$out.tmp" "$src" -ljpeg -lpthread -ldl
    mv "$out.tmp" "$out"
fi
echo "$PWD/$out"
