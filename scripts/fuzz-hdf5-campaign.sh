#!/usr/bin/env bash
# The hdf5 fuzz target's campaign (docs/reliability.md, "Fuzzing"): libhdf5 1.10.8 itself
# crashes or loops on some damaged files, which Framelab cannot fix and which the commands
# meet only in a child process (vet-recording). So the target runs in libFuzzer's fork mode,
# which goes on after a crash or a timeout, and every input that stopped a child is then
# replayed alone and judged by where it stopped: the first stack frame outside the
# sanitizer runtime and the C library. In libhdf5: a known kind of fault of libhdf5's own,
# counted by function. Anywhere else (Framelab's reader, its C shim): a failure of this
# script, with the input kept under .build-fuzz/crashes/hdf5/.
# Usage: bash scripts/fuzz-hdf5-campaign.sh [SECONDS]   (default 600; --json for one JSON line)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
case $seconds in ''|*[!0-9]*) echo "fuzz-hdf5-campaign.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2;; esac

bash Tests/Fuzz/build.sh hdf5 2> >(grep -v "Cannot export local symbol" >&2)
bin=.build-fuzz/bin/fuzz-hdf5
work=$(mktemp -d "${TMPDIR:-/tmp}/framelab-fuzz-hdf5.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
cp Tests/Fuzz/corpus/hdf5/* "$work/corpus/"

echo "fuzz-hdf5-campaign: ${seconds} s in fork mode (progress: $work/log)" >&2
set +e
( cd "$work" && ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$OLDPWD/$bin" corpus -fork=1 \
    -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -detect_leaks=0 -artifact_prefix="$work/artifacts/" >"$work/log" 2>&1 )
rc=$?
set -e
# Fork mode's last status line: "#N: cov: C ft: F corp: … exec/s: E oom/timeout/crash: O/T/C time: S".
last=$(grep -E '^#[0-9]+: cov:' "$work/log" | tail -1)
execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | awk '{print $2}')

# Replays one input; prints "libhdf5 FUNCTION" or "framelab FRAME" or "none".
judge() {
    local out
    out=$(ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no timeout 60 "$bin" -timeout=10 -rss_limit_mb=2048 "$1" 2>&1 || true)
    grep -qE 'ERROR: (AddressSanitizer|libFuzzer)|deadly signal|SUMMARY' <<<"$out" || { echo none; return; }
    # The first frame not in the sanitizer runtime, libFuzzer's driver or the C library.
    local frame
    frame=$(grep -E '^ +#[0-9]+ ' <<<"$out" \
        | grep -vE ' in (__asan|__interceptor|__sanitizer|__lsan|__ubsan|fuzzer::|__libc|_start|__GI_|raise|abort|mem[a-z]*|str[a-z]*|pthread_|__pthread|gsignal|libc_)' \
        | grep -vE '\((/usr)?/lib/x86_64-linux-gnu/(libc|libpthread|libm|ld-linux)' | head -1)
    if grep -q 'libhdf5' <<<"$frame"; then
        # A named function, or for libhdf5's unexported ones its offset in the library.
        local name
        name=$(sed -nE 's/.* in ([^ ]+) \(.*/\1/p' <<<"$frame")
        echo "libhdf5 ${name:-$(grep -oE 'libhdf5[^ )]*' <<<"$frame" | head -1)}"
    else
        echo "framelab ${frame:-no-stack}"
    fi
}

found=0 inside=0 ours=0
declare -A kinds=()
for input in "$work"/artifacts/*; do
    [ -e "$input" ] || continue
    found=$((found + 1))
    verdict=$(judge "$input")
    case $verdict in
    libhdf5\ *) inside=$((inside + 1)); k=${verdict#libhdf5 }; kinds[$k]=$(( ${kinds[$k]:-0} + 1 )) ;;
    none) ;;  # did not stop again when replayed alone (a timeout under load)
    *) ours=$((ours + 1)); mkdir -p .build-fuzz/crashes/hdf5; cp "$input" .build-fuzz/crashes/hdf5/
       echo "fuzz-hdf5-campaign: $(basename "$input") stopped in Framelab's code: ${verdict#framelab }" >&2 ;;
    esac
done

summary=""
for k in "${!kinds[@]}"; do summary+="${summary:+, }$k ×${kinds[$k]}"; done
printf '%-8s %12s %8s %10s %14s %14s\n' target executions cov stopped inside-libhdf5 in-framelab
printf '%-8s %12s %8s %10s %14s %14s\n' hdf5 "${execs:-?}" "${cov:-?}" "$found" "$inside" "$ours"
[ -z "$summary" ] || echo "inside libhdf5, by first frame: $summary"
if [ "$ours" -gt 0 ] || [ -z "$execs" ]; then
    [ -n "$execs" ] || echo "fuzz-hdf5-campaign: the fuzzer did not run (exit $rc); log: $work/log" >&2
    trap - EXIT; exit 1
fi
