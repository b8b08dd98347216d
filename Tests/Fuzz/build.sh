#!/usr/bin/env bash
# Builds one libFuzzer binary per Tests/Fuzz/Targets/*.swift into .build-fuzz/bin.
# The parser modules are compiled straight from Sources/ with swiftc (instrumented for
# libFuzzer and AddressSanitizer, -enable-testing so the harnesses reach internal parsers):
# FramelabCore, FramelabElements, FramelabDatasets without CompositeGenerator.swift (its
# only OpenCV user), and SourceSpec.swift alone as FramelabPipeline (it imports only
# FramelabCore; the rest of the engine needs OpenCV). Nothing here needs OpenCV or HDF5.
# Usage: bash Tests/Fuzz/build.sh [TARGET...]   (default: every target)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build-fuzz
mkdir -p "$out/modules" "$out/bin"
flags=(-O -sanitize=fuzzer,address -parse-as-library -enable-testing -g -I "$out/modules"
       -Xcc -fmodule-map-file=Sources/CZlibSystem/module.modulemap)

# module NAME SOURCES...: one object and one .swiftmodule, rebuilt when a source is newer.
module() {
    local name=$1; shift
    local obj="$out/modules/$name.o"
    local stale=0
    [ -f "$obj" ] || stale=1
    for s in "$@"; do [ "$s" -nt "$obj" ] && stale=1; done
    [ $stale = 1 ] || return 0
    echo "fuzz build: $name" >&2
    swiftc "${flags[@]}" -module-name "$name" -wmo -c "$@" -o "$obj" \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule"
}
module FramelabCore Sources/FramelabCore/*.swift
module FramelabElements Sources/FramelabElements/*.swift
module FramelabPipeline Sources/FramelabPipeline/SourceSpec.swift
module FramelabDatasets $(ls Sources/FramelabDatasets/*.swift Sources/FramelabDatasets/Predictions/*.swift | grep -v CompositeGenerator)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(cd Tests/Fuzz/Targets && ls *.swift | sed 's/\.swift$//'))
objects=("$out"/modules/{FramelabCore,FramelabElements,FramelabPipeline,FramelabDatasets}.o)
for t in "${targets[@]}"; do
    bin="$out/bin/fuzz-$t"
    newest=$(ls -t "Tests/Fuzz/Targets/$t.swift" Tests/Fuzz/Support/*.swift "${objects[@]}" | head -1)
    [ -f "$bin" ] && [ "$bin" -nt "$newest" ] && continue
    echo "fuzz build: fuzz-$t" >&2
    swiftc "${flags[@]}" -module-name "Fuzz_${t//-/_}" "Tests/Fuzz/Targets/$t.swift" Tests/Fuzz/Support/*.swift \
        "${objects[@]}" -lz -o "$bin"
done
