#!/usr/bin/env bash
# Fills the disk under `framelab run --out` at N different points (default 50) and checks,
# each time, that the run stops with one line naming the file (no HDF5-DIAG flood, no
# signal), that the run recorded before is intact, and that plain h5py (no swmr=True)
# opens the file after `framelab recover`, the failed run marked failed or interrupted, its
# frames exactly 0, 1, 2, ... and no table ending in rows counted but never written.
#
#   bash scripts/disk-full-campaign.sh [N] [auto|fsize|tmpfs]
#
# auto (default): tmpfs when a tmpfs can be mounted here, else fsize.
# fsize (no root needed): the writer runs under a file size limit
#   (prlimit --fsize), so a write past it fails with EFBIG, as a write on a full disk fails
#   with ENOSPC; the limits are spread from just above the file's size (the run's
#   creation fails) to ~1 MB later (its records fail). framelab ignores SIGXFSZ.
# tmpfs (root): a real full filesystem, a tmpfs just big enough for the file plus a
#   growing margin; "space is freed" by remounting it larger before `recover`.
# Prints one line per point and a summary; exits 1 if any point broke a promise.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-50}
MODE=${2:-auto}
if [ "$MODE" = auto ]; then
    probe=$(mktemp -d); MODE=fsize
    if mount -t tmpfs -o size=1m tmpfs "$probe" 2>/dev/null; then umount "$probe"; MODE=tmpfs; fi
    rmdir "$probe"
fi
BIN=${FRAMELAB_BIN:-$PWD/.build/release/framelab}
PY=${FRAMELAB_PYTHON:-$PWD/.venv/bin/python}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/framelab-disk-full.XXXXXX")
MOUNTED=""
cleanup() {
    if [ -n "$MOUNTED" ]; then umount "$MOUNTED" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# The file every point starts from: one completed run, "before".
BASE="$WORK/base.h5"
"$BIN" run --source synthetic:64x48@30 --frames 40 --out "$BASE" --run-id before --quiet >/dev/null
BASE_SIZE=$(stat -c %s "$BASE")
BEFORE=$("$PY" - "$BASE" <<'EOF'
import sys, h5py
r = h5py.File(sys.argv[1], "r")["runs"]["before"]
print(r.attrs["status"], len(r["frames"]), len(r["timings"]), int(r["frames"]["index"].sum()))
EOF
)

check_file() {  # FILE -> one line: "ok <failed-run status> <frames>" or "BAD <why>"
    "$PY" - "$1" "$BEFORE" <<'EOF'
import sys, h5py
path, before = sys.argv[1], sys.argv[2]
try:
    f = h5py.File(path, "r")          # plain: no swmr=True
except Exception as e:
    print("BAD plain h5py cannot open it:", str(e).splitlines()[0]); sys.exit()
runs = f["runs"]
b = runs["before"]
now = f'{b.attrs["status"]} {len(b["frames"])} {len(b["timings"])} {int(b["frames"]["index"].sum())}'
if now != before:
    print("BAD the earlier run changed:", now, "was", before); sys.exit()
if "full" not in runs:
    print("ok (no-run) 0 0"); sys.exit()
r = runs["full"]
status = r.attrs["status"]
status = status.decode() if isinstance(status, bytes) else str(status)  # a failed run's is in its header
if not (status.startswith("failed: ") or status == "interrupted"):
    print("BAD the failed run's status is", repr(status)); sys.exit()
frames = r["frames"][:]
if list(frames["index"]) != list(range(len(frames))):
    print("BAD the failed run's frames are not 0, 1, 2, ..."); sys.exit()
# Rows HDF5 counted but never wrote read back as zeros; recover cuts them (a written
# frames or timings row is never all zero: its instants are monotonic-clock readings).
for name in ("frames", "timings"):
    rows = r[name][:]
    if len(rows) and not rows[-1].tobytes().strip(b"\0"):
        print("BAD table", name, "still ends in an all-zero row after recover"); sys.exit()
print("ok", status.split(":")[0], len(frames))
EOF
}

if [ "$MODE" = tmpfs ]; then
    MOUNTED="$WORK/disk"
    mkdir -p "$MOUNTED"
    mount -t tmpfs -o size=16m tmpfs "$MOUNTED" || { echo "disk-full: cannot mount a tmpfs (root needed): use fsize mode" >&2; exit 2; }
fi

bad=0; failed_status=0; interrupted_status=0; no_run=0; frames_kept=0
for i in $(seq 1 "$N"); do
    # Points spread quadratically up to ~1 MB: the first fail while the run is being created.
    margin=$(( 500 + i * i * 1000000 / (N * N) ))
    FILE="$WORK/point-$i.h5"
    if [ "$MODE" = tmpfs ]; then
        FILE="$MOUNTED/point.h5"
        rm -f "$FILE"
        # Size the tmpfs to the file plus the margin, in pages.
        pages=$(( (BASE_SIZE + margin + 4095) / 4096 ))
        mount -o remount,size=$(( pages * 4096 )) "$MOUNTED"
        cp "$BASE" "$FILE"
        set +e
        "$BIN" run --source synthetic:160x120@1000 --policy keep-all --frames 1000000 --out "$FILE" --run-id full --quiet \
            >"$WORK/out" 2>"$WORK/err"
        rc=$?
        set -e
        mount -o remount,size=64m "$MOUNTED"   # space is freed
    else
        cp "$BASE" "$FILE"
        limit=$(( BASE_SIZE + margin ))
        set +e
        prlimit --fsize="$limit" "$BIN" run --source synthetic:160x120@1000 --policy keep-all --frames 1000000 --out "$FILE" \
            --run-id full --quiet >"$WORK/out" 2>"$WORK/err"
        rc=$?
        set -e
    fi
    lines=$(grep -c '' "$WORK/err" || true)
    problem=""
    if [ "$rc" -ne 1 ]; then problem="exit status $rc (expected 1)"; fi
    if grep -q 'HDF5-DIAG' "$WORK/err"; then problem="$problem; HDF5-DIAG lines on stderr"; fi
    if [ "$lines" -ne 1 ]; then problem="$problem; $lines lines on stderr (expected 1)"; fi
    if ! grep -q "$FILE" "$WORK/err"; then problem="$problem; the error does not name the file"; fi
    "$BIN" recover "$FILE" >/dev/null 2>"$WORK/recover-err" || problem="$problem; recover failed: $(head -1 "$WORK/recover-err")"
    verdict=$(check_file "$FILE")
    case "$verdict" in ok*) ;; *) problem="$problem; $verdict" ;; esac
    if [ -n "$problem" ]; then
        bad=$((bad + 1))
        echo "point $i (+$margin bytes): FAIL: ${problem#; }"
        sed 's/^/    stderr: /' "$WORK/err" | head -5
    else
        set -- $verdict
        case "$2" in failed) failed_status=$((failed_status + 1)) ;; interrupted) interrupted_status=$((interrupted_status + 1)) ;; *) no_run=$((no_run + 1)) ;; esac
        kept=$3
        frames_kept=$((frames_kept + kept))
        echo "point $i (+$margin bytes): ok: run $2, $kept frames kept; $(head -c 160 "$WORK/err")"
    fi
    [ "$MODE" = tmpfs ] || rm -f "$FILE"
done
echo "disk-full ($MODE): $N points, $((N - bad)) kept every promise ($failed_status runs marked failed, $interrupted_status interrupted, $no_run not created; $frames_kept frames kept in all), $bad broke one"
[ "$bad" -eq 0 ]
