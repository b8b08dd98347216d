#!/usr/bin/env bash
# Every test: installs what is missing, builds in release mode (the tests time real
# pipelines, so they run optimised code), runs the Swift test suite, then the Python
# reader's tests and every notebook against HDF5 files the CLI writes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
export FRAMELAB_BIN="$PWD/.build/release/framelab"
export FRAMELAB_PYTHON="$PWD/.venv/bin/python"
swift test -c release
.venv/bin/python -m pytest -q Notebooks/tests
