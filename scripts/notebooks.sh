#!/usr/bin/env bash
# Executes every notebook against an HDF5 file (default: out/demo.h5, which
# scripts/demo.sh writes) and writes HTML reports into out/reports/, each opening with its
# verdict line (printed here too). Code is hidden in the reports unless --with-code is given.
#     bash scripts/notebooks.sh [FILE.h5] [--with-code]
set -euo pipefail
cd "$(dirname "$0")/.."
file=out/demo.h5
flags=()
for arg in "$@"; do
    case "$arg" in
        --with-code) flags+=(--with-code) ;;
        -*) echo "notebooks: error: unknown option '$arg' (known: --with-code)" >&2; exit 64 ;;
        *) file=$arg ;;
    esac
done
bash scripts/setup.sh
if [ ! -f "$file" ]; then
    echo "notebooks: error: '$file': no such file (run 'bash scripts/demo.sh' first, or name a file)" >&2
    exit 1
fi
.venv/bin/python Notebooks/run_notebooks.py "$file" --out out/reports "${flags[@]}"
echo "notebooks: open out/reports/*.html in a browser"
