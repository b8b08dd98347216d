#!/usr/bin/env bash
# Fuzzes the parsers of files and specs users hand in (Tests/Fuzz, docs/reliability.md,
# "Fuzzing"): builds one libFuzzer + AddressSanitizer binary per target, runs each for
# SECONDS (default 20) on a copy of its seed corpus (Tests/Fuzz/corpus/TARGET, never
# written to), two at a time, and prints one line per target: executions, coverage, result.
# Exits non-zero when any target crashed, trapped, leaked past the limits or hung; the
# input that did it and the fuzzer's log are kept under .build-fuzz/crashes/TARGET/.
# Usage: bash scripts/fuzz.sh [SECONDS] [TARGET...]   (FUZZ_JOBS: targets run at once, default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift $(( $# > 0 ? 1 : 0 ))
case $seconds in ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2;; esac
jobs=${FUZZ_JOBS:-2}

# gold warns about every ASan helper symbol; the warnings say nothing about our code.
bash Tests/Fuzz/build.sh "$@" 2> >(grep -v "Cannot export local symbol" >&2)
targets=("$@")
# By default every target but hdf5: libhdf5 1.10.8 itself crashes or hangs on some damaged
# files (docs/reliability.md, "Fuzzing"), which would fail the test command at random.
# Name it to run it: bash scripts/fuzz.sh 60 hdf5.
[ ${#targets[@]} -gt 0 ] || targets=($(cd Tests/Fuzz/Targets && ls *.swift | sed 's/\.swift$//' | grep -vx hdf5))

work=$(mktemp -d "${TMPDIR:-/tmp}/framelab-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

run() {
    local t=$1 dir="$work/$1"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    cp Tests/Fuzz/corpus/"$t"/* "$dir/corpus/"
    # Leak checking is off (here and at exit): the Swift runtime's and Foundation's one-time
    # caches read as leaks. A trap's report comes from ASan; Swift's backtracer would only slow it.
    set +e
    ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no .build-fuzz/bin/fuzz-"$t" "$dir/corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$dir/artifacts/" >"$dir/log" 2>&1
    echo $? >"$dir/rc"
}

running=0
for t in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
    run "$t" &
    running=$((running + 1))
done
wait

failed=0
printf '%-20s %12s %8s  %s\n' target executions cov result
for t in "${targets[@]}"; do
    dir="$work/$t"
    rc=$(cat "$dir/rc")
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | sed 's/cov: //')
    if [ "$rc" = 0 ]; then
        result=ok
    else
        failed=1
        keep=".build-fuzz/crashes/$t"
        mkdir -p "$keep"
        cp "$dir/log" "$keep/log.txt"
        found=$(ls "$dir/artifacts" 2>/dev/null | head -1)
        if [ -n "$found" ]; then
            cp "$dir/artifacts/$found" "$keep/$found"
            result="FAILED (exit $rc): input $keep/$found, log $keep/log.txt"
        else
            result="FAILED (exit $rc): log $keep/log.txt"
        fi
    fi
    printf '%-20s %12s %8s  %s\n' "$t" "${execs:-?}" "${cov:-?}" "$result"
done
exit $failed
