#!/usr/bin/env bash
# Builds Framelab (release) after making sure its system packages are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product framelab 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Write|Linking|Planning)' || true
test -x .build/release/framelab || { echo "build: framelab was not built" >&2; exit 1; }
bash scripts/build-plugins.sh   # example plugins into .build/plugins, the plugin worker, the SDK header
bash scripts/man-page.sh        # the manual page, .build/man/framelab.1
