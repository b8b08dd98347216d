#!/usr/bin/env bash
# The library unit tests under sanitizers, each in its own build folder:
#   1. AddressSanitizer on everything (--sanitize=address) + UndefinedBehaviorSanitizer on
#      the C and C++ targets (-Xcc/-Xcxx -fsanitize=undefined; the ASan runtime carries
#      UBSan's). swiftc refuses -sanitize=undefined on Linux ("unsupported option"); Swift's
#      own overflow, bounds and conversion checks trap in every build anyway.
#   2. ThreadSanitizer.
# The debug configuration compiled with -O: debug builds compile file by file (2 cores build
# it faster than the whole-module release build), and -O keeps the SIMD kernels and the
# detectors' tests from taking minutes each, as they do at -Onone under a sanitizer.
# Left out: the CLI, plugin-host and notebook tests (they run the framelab binary and plugins
# built outside the sanitized build), and QEMUBaselineTests (they run the test bundle under
# qemu-user, where the sanitizers' shadow memory cannot be mapped); under TSan also the
# SIGKILL durability tests (they fork() the multi-threaded test process, and TSan's child
# exits with status 66: "starting new threads after multi-threaded fork is not supported";
# ASan runs them).
#
#   bash scripts/sanitize.sh [asan|tsan|all] [FILTER]
#
# FILTER: a regular expression over test names (default: the library test modules below).
# Exits non-zero when a sanitizer reports an error or a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
WHICH=${1:-all}
FILTER=${2:-'^(FramelabCoreTests|FramelabElementsTests|FramelabDatasetsTests|FramelabRecordingTests|FramelabPipelineTests|FramelabEvaluationTests|FramelabFiltersTests)\.'}
# Some library tests run the release framelab (scripts/build.sh builds it).
export FRAMELAB_BIN="${FRAMELAB_BIN:-$PWD/.build/release/framelab}"
export FRAMELAB_PYTHON="$PWD/.venv/bin/python"

run() {  # NAME SCRATCH SKIP FLAG...
    local name=$1 scratch=$2 skip=$3; shift 3
    local flags=("$@")
    local start=$SECONDS
    echo "sanitize: $name: building into $scratch and running the library tests"
    mkdir -p "$scratch"
    local log="$scratch/sanitize-$name.log"
    # halt_on_error: the first report fails the run; UBSan prints a stack and stops too.
    if ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
       swift test -c debug -Xswiftc -O --scratch-path "$scratch" "${flags[@]}" --filter "$FILTER" \
           --skip "$skip" >"$log" 2>&1; then
        status=clean
    else
        status=FAILED
    fi
    local summary
    summary=$(grep -E '^(✔|✘|􁁛|􀢄) Test run with|Executed [0-9]+ tests' "$log" | tail -2 | tr '\n' ' ')
    echo "sanitize: $name: $status in $((SECONDS - start)) s: $summary(log: $log)"
    grep -E 'error:|ERROR: (Address|Thread|UndefinedBehavior)Sanitizer|WARNING: ThreadSanitizer|runtime error:' "$log" | sort | uniq -c | head -20 || true
    [ "$status" = clean ]
}

rc=0
if [ "$WHICH" = asan ] || [ "$WHICH" = all ]; then run asan-ubsan .build-asan QEMUBaselineTests --sanitize=address -Xcc -fsanitize=undefined -Xcxx -fsanitize=undefined || rc=1; fi
if [ "$WHICH" = tsan ] || [ "$WHICH" = all ]; then run tsan .build-tsan 'QEMUBaselineTests|CrashDurability' --sanitize=thread || rc=1; fi
exit $rc
