#!/usr/bin/env bash
# Builds one libFuzzer binary per Tests/Fuzz/Targets/*.swift into .build-fuzz/bin.
# The parser modules are compiled straight from Sources/ with swiftc (instrumented for
# libFuzzer and AddressSanitizer, -enable-testing so the harnesses reach internal parsers):
# FramelabCore, FramelabElements, FramelabDatasets without CompositeGenerator.swift (its
# only OpenCV user), and SourceSpec.swift alone as FramelabPipeline (it imports only
# FramelabCore; the rest of the engine needs OpenCV). None of these needs OpenCV or HDF5.
# Three targets need one or two more modules each, built only when such a target is asked for
# (`extra_module` below): the cascade files of FramelabDetection, the description checker
# of FramelabPluginHost with the plugin ABI header, and FramelabRecording with its C shim,
# linked to the system's libhdf5 (not instrumented).
# Usage: bash Tests/Fuzz/build.sh [TARGET...]   (default: every target)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build-fuzz
mkdir -p "$out/modules" "$out/bin"
flags=(-O -sanitize=fuzzer,address -parse-as-library -enable-testing -g -I "$out/modules"
       -Xcc -fmodule-map-file=Sources/CZlibSystem/module.modulemap)

# module NAME SOURCES...: one object and one .swiftmodule, rebuilt when a source is newer.
# `cflags` adds compiler flags (the C modules a module imports); `deps` adds files whose
# change makes it stale too (their headers).
cflags=() deps=()
module() {
    local name=$1; shift
    local obj="$out/modules/$name.o"
    local stale=0
    [ -f "$obj" ] || stale=1
    for s in "$@" "${deps[@]}"; do [ "$s" -nt "$obj" ] && stale=1; done
    [ $stale = 1 ] || return 0
    echo "fuzz build: $name" >&2
    swiftc "${flags[@]}" "${cflags[@]}" -module-name "$name" -wmo -c "$@" -o "$obj" \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule"
}
module FramelabCore Sources/FramelabCore/*.swift
module FramelabElements Sources/FramelabElements/*.swift
module FramelabPipeline Sources/FramelabPipeline/SourceSpec.swift
module FramelabDatasets $(ls Sources/FramelabDatasets/*.swift Sources/FramelabDatasets/Predictions/*.swift | grep -v CompositeGenerator)

# A C target's header as a Clang module (SwiftPM writes these maps itself; swiftc alone needs one).
module_map() {
    mkdir -p "$out/modules/$1"
    printf 'module %s {\n    header "%s"\n    export *\n}\n' "$1" "$PWD/$2" >"$out/modules/$1/module.modulemap"
}

# extra_module TARGET: builds what TARGET needs beyond the common four modules, if
# anything, leaving in `cflags` the flags its harness compiles with and in `link` the
# objects and libraries it links.
extra_module() {
    cflags=() deps=() link=()
    case $1 in
    cascade)
        # The cascade reader, compiler, scanner and evaluator on gray8 images: all but the
        # colour conversion (HaarCascadeEvaluator+Color.swift) and the choice of kernel
        # level (+Level.swift: the harness passes the portable kernels), plus the types they
        # use and the portable kernels (FramelabKernels, with the cascade's row kernel).
        module FramelabKernels Sources/FramelabKernels/*.swift
        module FramelabDetection $(ls Sources/FramelabDetection/Cascade/*.swift | grep -v '+Color\|+Level') \
            Sources/FramelabDetection/{SlidingWindowSettings,DetectionAccuracy,DetectorParameters,Detection}.swift
        link=("$out/modules/FramelabKernels.o" "$out/modules/FramelabDetection.o") ;;
    plugin-description)
        # The description layouts (ABI 2 sizes and strides, the frozen 1.0 structs), the
        # checker and the record the discovery worker sends; no dlopen. The 1.0 layout
        # header includes framelab_plugin.h, so one header makes the whole module.
        module_map CFramelabPlugin Sources/CFramelabPlugin/include/framelab_plugin_v1_layout.h
        cflags=(-Xcc "-fmodule-map-file=$out/modules/CFramelabPlugin/module.modulemap")
        deps=(Sources/CFramelabPlugin/include/framelab_plugin.h Sources/CFramelabPlugin/include/framelab_plugin_v1_layout.h)
        module FramelabPluginHost Sources/FramelabPluginHost/{PluginDescriptionLayout,PluginDescriptionReader,PluginElementInfo,PluginABI}.swift \
            Sources/FramelabPluginHost/Discovery/PluginElementRecord.swift
        link=("$out/modules/FramelabPluginHost.o") ;;
    hdf5)
        # The recording layer, its C shim and the shim's HDF5 half, linked to the system's
        # libhdf5 (Debian's serial build). With the HDF5 half linked in, the shim uses its
        # table directly instead of loading libFramelabHDF5OnDemand.so (chdf5_loader.c).
        local hdf5_cflags hdf5_libs
        hdf5_cflags=$(pkg-config --cflags hdf5)
        hdf5_libs=$(pkg-config --libs hdf5)
        module_map CHDF5 Sources/CHDF5/include/chdf5_on_demand.h
        cflags=(-Xcc "-fmodule-map-file=$out/modules/CHDF5/module.modulemap")
        for f in $hdf5_cflags; do cflags+=(-Xcc "$f"); done
        deps=(Sources/CHDF5/include/chdf5.h Sources/CHDF5/include/chdf5_on_demand.h)
        module FramelabRecording Sources/FramelabRecording/*.swift
        local shim="$out/modules/CHDF5.o" c sources=(Sources/CHDF5/chdf5.c Sources/CHDF5/chdf5_loader.c Sources/CHDF5OnDemand/chdf5_on_demand.c
                                                 Sources/CFramelabOnDemandLoader/fl_on_demand_loader.c)
        local newest_source
        newest_source=$(ls -t "${sources[@]}" Sources/CHDF5/include/*.h Sources/CHDF5/*.h Sources/CHDF5OnDemand/include/*.h \
            Sources/CFramelabOnDemandLoader/include/*.h | head -1)
        if [ ! -f "$shim" ] || [ "$newest_source" -nt "$shim" ]; then
            echo "fuzz build: CHDF5" >&2
            local parts=()
            for c in "${sources[@]}"; do
                clang -O1 -g -fsanitize=fuzzer-no-link,address $hdf5_cflags -I Sources/CHDF5/include -I Sources/CHDF5OnDemand/include -I Sources/CFramelabOnDemandLoader/include \
                    -c "$c" -o "$out/modules/$(basename "$c" .c).o"
                parts+=("$out/modules/$(basename "$c" .c).o")
            done
            ld -r "${parts[@]}" -o "$shim"
        fi
        link=("$out/modules/FramelabRecording.o" "$shim" $hdf5_libs) ;;
    esac
}

targets=("$@")
# By default every target but hdf5: libhdf5 1.10.8 itself crashes or hangs on some damaged
# files (docs/reliability.md, "Fuzzing"), which would fail the test command at random.
# Name it to run it: bash scripts/fuzz.sh 60 hdf5.
[ ${#targets[@]} -gt 0 ] || targets=($(cd Tests/Fuzz/Targets && ls *.swift | sed 's/\.swift$//' | grep -vx hdf5))
objects=("$out"/modules/{FramelabCore,FramelabElements,FramelabPipeline,FramelabDatasets}.o)
for t in "${targets[@]}"; do
    extra_module "$t"
    bin="$out/bin/fuzz-$t"
    newest=$(ls -t "Tests/Fuzz/Targets/$t.swift" Tests/Fuzz/Support/*.swift "${objects[@]}" \
             $(printf '%s\n' "${link[@]}" | grep '\.o$') | head -1)
    [ -f "$bin" ] && [ "$bin" -nt "$newest" ] && continue
    echo "fuzz build: fuzz-$t" >&2
    swiftc "${flags[@]}" "${cflags[@]}" -module-name "Fuzz_${t//-/_}" "Tests/Fuzz/Targets/$t.swift" \
        Tests/Fuzz/Support/*.swift "${objects[@]}" "${link[@]}" -lz -o "$bin"
done
