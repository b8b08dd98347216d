#!/usr/bin/env bash
# Executes every notebook against an HDF5 file (default: out/demo.h5, which
# scripts/demo.sh writes) and writes HTML reports into out/reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
file=${1:-out/demo.h5}
if [ ! -f "$file" ]; then
    echo "notebooks: error: '$file': no such file (run 'bash scripts/demo.sh' first, or name a file)" >&2
    exit 1
fi
.venv/bin/python Notebooks/run_notebooks.py "$file" --out out/reports
echo "notebooks: open out/reports/*.html in a browser"
