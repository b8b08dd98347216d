#!/usr/bin/env bash
# The main job on bundled default data: builds Framelab, runs a filter chain over the
# synthetic camera, records it into out/demo.h5 and prints its report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p out
bin=.build/release/framelab
echo "== framelab run: 300 frames of a 1280x720 synthetic camera through sepia and hue"
"$bin" run --source synthetic:1280x720@30 --frames 300 --filter sepia:intensity=0.8 --filter hue:angle=0.6 \
    --out out/demo.h5 --run-id "demo-$(date -u +%Y%m%dT%H%M%SZ)"
echo
echo "== framelab report out/demo.h5"
"$bin" report out/demo.h5
echo
echo "== framelab eval: three face detectors on the bundled photographs (Datasets/sample)"
"$bin" eval --dataset csv:Datasets/sample/faces.csv --detector opencv-haar --detector opencv-lbp --detector cascade \
    --out out/eval.h5 --run-id "eval-$(date -u +%Y%m%dT%H%M%SZ)"
