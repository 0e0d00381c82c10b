#!/bin/sh
# check.sh CASE_DIR: builds the test driver (gpu/host/driver.cpp) over the
# case's udf_row.h with nvcc, so udfx_row runs in a CUDA kernel, and
# requires its results on rows.txt to equal want.txt (the real original's,
# recorded by templates/cuda's tests) under udfx's bit-exact policy.
# UDFX_CXX=g++ builds the same check for the host instead.
set -eu
case_dir=$1
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ "${UDFX_CXX:-nvcc}" = nvcc ]; then
  # No FMA contraction, IEEE division and square root, no flush-to-zero:
  # the JVM rounds every operation on its own.
  nvcc -std=c++17 -O2 --fmad=false --prec-div=true --prec-sqrt=true --ftz=false \
    -x cu -DUDFX_HOST_DRIVER -I"$case_dir" -I"$here/include" "$here/host/driver.cpp" -o "$out/row"
else
  "$UDFX_CXX" -std=c++17 -O2 -ffp-contract=off -DUDFX_HOST_DRIVER -I"$case_dir" -I"$here/include" "$here/host/driver.cpp" -o "$out/row"
fi
printf '%s: ' "$(basename "$case_dir")" >&2
"$out/row" --expect "$case_dir/want.txt" < "$case_dir/rows.txt"
