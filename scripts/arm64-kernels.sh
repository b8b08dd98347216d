#!/usr/bin/env bash
# Compiles the kernel modules (FramelabKernels and the four x86 level modules, whose
# bodies are `#if arch(x86_64)`) for arm64 (aarch64-unknown-linux-gnu), to check that
# the portable SIMD code and its `#if arch` guards build there. Objects only, nothing is
# linked or run: the x86-64 toolchain has no arm64 runtime.
#
# It has no arm64 standard library either, so one is made for type-checking: the
# toolchain's own Swift.swiftinterface (x86-64), retargeted to aarch64 and compiled into a
# module. That interface has Float80 (x86 only); two of its bodies call C shims that
# SwiftShims declares only on x86 and become fatalError() here; no code from it is ever
# linked. Cached in .build-arm64/ per toolchain version (about a minute the first time).
#
# Usage: bash scripts/arm64-kernels.sh    Prints one line per module; exit 1 on any error.
set -euo pipefail
cd "$(dirname "$0")/.."
target=aarch64-unknown-linux-gnu
modules=(FramelabKernels FramelabKernelsAVX2 FramelabKernelsAVX2VNNI FramelabKernelsAVX512 FramelabKernelsAVX512VBMI)

version=$(swiftc --version 2>&1 | head -1 | tr -cs 'A-Za-z0-9.' '-')
out=".build-arm64/$version"
mkdir -p "$out/Swift.swiftmodule"
stdlib="$out/Swift.swiftmodule/$target.swiftmodule"

if [ "$(uname -m)" != aarch64 ] && [ ! -f "$stdlib" ]; then
    resources=$(swiftc -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p' | head -1)
    interface="$resources/linux/Swift.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface"
    [ -f "$interface" ] || { echo "arm64 check: no $interface to make an arm64 standard library from" >&2; exit 1; }
    echo "arm64 check: making an arm64 Swift module from $interface (once per toolchain)" >&2
    sed -e '1,10s/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/g' \
        -e 's/^\( *\)self = _stdlib_\(remainderl\|squareRootl\)(.*$/\1fatalError()/' \
        "$interface" > "$out/Swift.swiftinterface"
    swiftc -frontend -compile-module-from-interface -target "$target" -module-name Swift -parse-stdlib \
        "$out/Swift.swiftinterface" -o "$stdlib.partial" 2> "$out/stdlib.log" \
        || { echo "arm64 check: the arm64 Swift module did not build (see $out/stdlib.log):" >&2
             grep -m 5 'error:' "$out/stdlib.log" >&2; exit 1; }
    mv "$stdlib.partial" "$stdlib"
fi

for m in "${modules[@]}"; do
    obj="$out/$m.o"
    # Warnings about _Concurrency and _StringProcessing (not made for arm64, not used by
    # the kernels) are expected; errors are not.
    if ! swiftc -target "$target" -I "$out" -module-name "$m" -parse-as-library -O -wmo \
            -c Sources/"$m"/*.swift -o "$obj" -emit-module -emit-module-path "$out/$m.swiftmodule" \
            2> "$out/$m.log"; then
        echo "arm64 check: $m does not compile for $target:" >&2
        grep -A 3 'error:' "$out/$m.log" | head -20 >&2
        exit 1
    fi
    # ELF e_machine (bytes 18-19, little-endian) is 183 for AArch64.
    machine=$(od -An -tu2 -j18 -N2 "$obj" | tr -d ' ')
    [ "$machine" = 183 ] || { echo "arm64 check: $obj is not an AArch64 object (e_machine $machine)" >&2; exit 1; }
    echo "arm64 check: $m compiled for $target ($(wc -c < "$obj") bytes of AArch64 code and data)"
done
