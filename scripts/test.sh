#!/usr/bin/env bash
# Every test: installs what is missing, builds in release mode (the tests time real
# pipelines, so they run optimised code) and runs the Swift test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
export FRAMELAB_BIN="$PWD/.build/release/framelab"
export FRAMELAB_PYTHON="$PWD/.venv/bin/python"
swift test -c release
