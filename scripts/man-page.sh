#!/usr/bin/env bash
# Writes framelab's manual page, .build/man/framelab.1 — one page with every visible
# subcommand and option, made by scripts/man-page.py from the command tree the release
# binary prints with --experimental-dump-help (the same help text `--help` prints).
# Read it with `man -l .build/man/framelab.1`; install it with
# `install -Dm644 .build/man/framelab.1 /usr/local/share/man/man1/framelab.1`.
# scripts/build.sh runs this after the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/release/framelab
if [ ! -x "$binary" ]; then
    echo "man-page: $binary is missing: build first (swift build -c release)" >&2
    exit 1
fi
mkdir -p .build/man
python3 scripts/man-page.py "$binary" .build/man/framelab.1
echo "man-page: wrote .build/man/framelab.1 (man -l .build/man/framelab.1)"
