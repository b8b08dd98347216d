#!/usr/bin/env bash
# Every test: installs what is missing, builds in release mode (the tests time real
# pipelines, so they run optimised code), runs the Swift test suite, then the Python
# reader's tests and every notebook against HDF5 files the CLI writes, the library tests
# under AddressSanitizer (+ UBSan on C/C++) and ThreadSanitizer, and a short fuzzing pass
# over the parsers of user input (10 s a target; docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
export FRAMELAB_BIN="$PWD/.build/release/framelab"
export FRAMELAB_PYTHON="$PWD/.venv/bin/python"
swift test -c release
bash scripts/sanitize.sh all
bash scripts/fuzz.sh 10
.venv/bin/python -m pytest -q Notebooks/tests
