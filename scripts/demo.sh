#!/usr/bin/env bash
# The main job on bundled default data, all recorded into out/demo.h5 (one file, many runs):
#  0. elements written in Python (Plugins/python-example) in a short run: a filter and a detector;
#  1. a filter chain over the synthetic camera, with its per-stage report;
#  2. every installed face detector evaluated on the bundled photographs (Datasets/sample) under
#     Framelab's, the WIDER FACE kit's and FDDB's protocols;
#  3. a short filter benchmark: SIMD, recipe and OpenCV side by side, with the frame-budget table.
# Then `bash scripts/notebooks.sh` turns out/demo.h5 into HTML reports.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p out
bin=.build/release/framelab
# Framelab reads recordings of schema version 1 but records only into version-2 files: an
# earlier demo file (or one that cannot be read) is kept beside the new one, not written to.
if [ -f out/demo.h5 ] && [ "$(.venv/bin/python -c 'import h5py; print(int(h5py.File("out/demo.h5", "r").attrs.get("framelab_schema_version", 0)))' 2>/dev/null)" != 2 ]; then
    kept="out/demo-earlier-$(date -u +%Y%m%dT%H%M%SZ).h5"
    mv out/demo.h5 "$kept"
    echo "demo: out/demo.h5 was written by an earlier Framelab (schema version 1); kept as $kept"
fi
stamp=$(date -u +%Y%m%dT%H%M%SZ)
echo "== framelab run: 90 frames of a 640x480 synthetic camera through Python elements (Plugins/python-example)"
"$bin" run --plugin-path Plugins/python-example --source synthetic:640x480@30 --frames 90 \
    --filter py-vignette:strength=0.8 --detector py-bright --out out/demo.h5 --run-id "python-$stamp"
echo
echo "== framelab run: 300 frames of a 1280x720 synthetic camera through sepia and hue"
"$bin" run --source synthetic:1280x720@30 --frames 300 --filter sepia:intensity=0.8 --filter hue:angle=0.6 \
    --out out/demo.h5 --run-id "demo-$stamp"
echo
echo "== framelab report out/demo.h5 --run demo-$stamp"
"$bin" report out/demo.h5 --run "demo-$stamp"
echo
echo "== framelab eval: every installed face detector on the bundled photographs (Datasets/sample), three protocols"
"$bin" eval --dataset csv:Datasets/sample/faces.csv --all-detectors --protocol framelab,wider,fddb --workers 2 \
    --out out/demo.h5 --run-id "eval-$stamp"
echo
echo "== framelab bench filters: five colour filters and the four-operation chain"
# The default 15 runs per case, not fewer: on a shared machine the speed-goal lines, which
# compare minimums, need that many to be steady (about 20 s in all).
"$bin" bench filters --filter gray --filter sepia --filter hue --filter colorControls --filter gamma \
    --chain-size 1280x720 --chain-size 1920x1080 --out out/demo.h5
echo
echo "Recorded in out/demo.h5. HTML reports: bash scripts/notebooks.sh out/demo.h5"
