#!/usr/bin/env bash
# Writes framelab's manual page, .build/man/framelab.1 — one page with every subcommand and
# option, made from the same help text `--help` prints by swift-argument-parser's
# generate-manual plugin (`swift package generate-manual`). Read it with
# `man -l .build/man/framelab.1`; install it with
# `install -Dm644 .build/man/framelab.1 /usr/local/share/man/man1/framelab.1`.
# scripts/build.sh runs this after the release build (the plugin builds its tool once).
# The generator drops non-ASCII characters ("…", "—", "−") from the text.
set -euo pipefail
cd "$(dirname "$0")/.."
generated=.build/plugins/GenerateManual/outputs/framelab/framelab.1
rm -f "$generated"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift package generate-manual >"$log" 2>&1 || [ ! -s "$generated" ]; then
    grep -Ev '^\[[0-9]+/[0-9]+\] ' "$log" >&2
    echo "man-page: swift package generate-manual did not write $generated" >&2
    exit 1
fi
mkdir -p .build/man
# A blank line in the help text (between paragraphs of a discussion) is a paragraph break in
# mdoc: `.Pp`, which man renders without "mdoc warning: Empty input line".
sed 's/^$/.Pp/' "$generated" > .build/man/framelab.1
echo "man-page: wrote .build/man/framelab.1 (man -l .build/man/framelab.1)"
