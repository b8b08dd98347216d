#!/usr/bin/env bash
# kill -9 at N random points (default 200) of `framelab run` and N of `framelab eval`,
# each writing a second run into a file that holds one; after each kill: `framelab recover`,
# then plain h5py must open the file, the earlier run unchanged, the killed run
# `interrupted` with every row a SWMR reader saw flushed before the kill
# (scripts/kill_campaign.py; KILL_SEED=N picks other random points).
#
#   bash scripts/kill-campaign.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
export FRAMELAB_BIN=${FRAMELAB_BIN:-$PWD/.build/release/framelab}
export FRAMELAB_SAMPLE_IMAGES=${FRAMELAB_SAMPLE_IMAGES:-$PWD/Datasets/sample/images}
exec "${FRAMELAB_PYTHON:-$PWD/.venv/bin/python}" scripts/kill_campaign.py "${1:-200}"
