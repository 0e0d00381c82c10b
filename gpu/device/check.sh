#!/bin/sh
# check.sh: udfx's device check.
#
#   check.sh CASE_DIR           one case: builds the test driver
#                               (gpu/host/driver.cpp) over the case's
#                               udf_row.h with nvcc, so udfx_row runs in a
#                               CUDA kernel, and requires its results on
#                               rows.txt to equal want.txt (the real
#                               original's) bit for bit. UDFX_CXX=g++ builds
#                               the same check for the host instead.
#   check.sh --dry-run [--skip-spark]
#                               checks this machine's environment for a
#                               device run and prints the plan of work; runs
#                               nothing on a device (passes on a CPU machine)
#   check.sh --run [--skip-spark]
#                               does the plan on a machine with an NVIDIA GPU
#   check.sh --build-only DIR   step 1 and the bandwidth binary only, into
#                               DIR, on any machine with nvcc (no GPU): a
#                               device machine without nvcc then runs
#                               --run with UDFX_PREBUILT=DIR (UDFX_CASES
#                               limits the cases built, for tests)
#
# Inputs of --run/--dry-run (environment): OUT (report folder, default
# gpu/results/<date>), NVCC (default nvcc), PYTHON (with pyspark, default
# python3), UDFX_CUDF_JAR and UDFX_RAPIDS_JAR (the cuDF and RAPIDS jars:
# mavenjar.Resolve finds or fetches them), UDFX_ARTIFACT_JAR (the RapidsUDF
# jar `udfx rewrite` packaged for examples/java-to-fahrenheit, with the
# original class and the CUDA library), UDFX_REWRITE_SQL (its rewrite.sql
# expression over `celsius`). --skip-spark leaves out the Spark steps (a
# machine without the jars); the report then says so.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
cases="$root/templates/cuda/testdata/device"
nvcc_flags="-std=c++17 -O2 --fmad=false --prec-div=true --prec-sqrt=true --ftz=false -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"
rows_list="10000000,100000000"
runs=5
bw_rows=100000000

one_case() {
  case_dir=$1
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  if [ "${UDFX_CXX:-nvcc}" = nvcc ]; then
    # No FMA contraction, IEEE division and square root, no flush-to-zero:
    # the JVM rounds every operation on its own.
    ${NVCC:-nvcc} $nvcc_flags -x cu -DUDFX_HOST_DRIVER -I"$case_dir" -I"$here/include" "$here/host/driver.cpp" -o "$out/row"
  else
    "$UDFX_CXX" -std=c++17 -O2 -ffp-contract=off -DUDFX_HOST_DRIVER -I"$case_dir" -I"$here/include" "$here/host/driver.cpp" -o "$out/row"
  fi
  printf '%s: ' "$(basename "$case_dir")" >&2
  "$out/row" --expect "$case_dir/want.txt" < "$case_dir/rows.txt"
}

build_all() { # build_all DIR: every case's driver and the bandwidth binary
  for n in $names; do
    echo "step 1: building $n" >&2
    $NVCC $nvcc_flags -x cu -DUDFX_HOST_DRIVER -I"$cases/$n" -I"$here/include" "$here/host/driver.cpp" -o "$1/$n"
  done
  $NVCC $nvcc_flags -I"$cases/ToFahrenheit" -I"$here/include" "$here/device/bandwidth.cu" -o "$1/bandwidth"
}

case "${1:-}" in
  --build-only)
    [ $# -eq 2 ] || { echo "usage: check.sh --build-only DIR" >&2; exit 2; }
    NVCC=${NVCC:-nvcc}
    names=${UDFX_CASES:-$(cd "$cases" && ls -d */ | tr -d / | tr '\n' ' ' | sed 's/ $//')}
    mkdir -p "$2"
    build_all "$2"
    echo "built: $names bandwidth in $2" >&2
    exit 0 ;;
  --dry-run | --run) mode=${1#--}; shift ;;
  -*) echo "check.sh: unknown option $1 (want CASE_DIR, --dry-run or --run)" >&2; exit 2 ;;
  "") echo "usage: check.sh CASE_DIR | --dry-run [--skip-spark] | --run [--skip-spark]" >&2; exit 2 ;;
  *) one_case "$1"; exit $? ;;
esac
spark=yes
for a in "$@"; do
  case $a in
    --skip-spark) spark=no ;;
    *) echo "check.sh: unknown option $a" >&2; exit 2 ;;
  esac
done

OUT=${OUT:-$root/gpu/results/$(date -u +%Y-%m-%d)}
NVCC=${NVCC:-nvcc}
PYTHON=${PYTHON:-python3}
names=$(cd "$cases" && ls -d */ | tr -d / | tr '\n' ' ' | sed 's/ $//')

# The environment: one line per requirement, ok or missing with why.
missing=0
need() { # need WHAT OK-COMMAND...
  what=$1; shift
  if "$@" >/dev/null 2>&1; then echo "  ok       $what"; else echo "  missing  $what"; missing=$((missing + 1)); fi
}
echo "environment:"
need "device cases in templates/cuda/testdata/device ($names)" test -n "$names"
if [ -n "${UDFX_PREBUILT:-}" ]; then
  need "prebuilt binaries in UDFX_PREBUILT ($UDFX_PREBUILT)" test -x "$UDFX_PREBUILT/bandwidth"
else
  need "nvcc ($NVCC)" "$NVCC" --version
fi
need "bandwidth kernel gpu/device/bandwidth.cu" test -f "$here/device/bandwidth.cu"
if [ "$spark" = yes ]; then
  need "Python with pyspark ($PYTHON)" "$PYTHON" -c 'import pyspark'
  need "java" java -version
  need "cuDF jar (UDFX_CUDF_JAR)" test -f "${UDFX_CUDF_JAR:-}"
  need "RAPIDS jar (UDFX_RAPIDS_JAR)" test -f "${UDFX_RAPIDS_JAR:-}"
  need "udfx's RapidsUDF jar of examples/java-to-fahrenheit (UDFX_ARTIFACT_JAR)" test -f "${UDFX_ARTIFACT_JAR:-}"
  need "the SQL rewrite's expression (UDFX_REWRITE_SQL)" test -n "${UDFX_REWRITE_SQL:-}"
fi
if [ "$mode" = run ]; then
  need "an NVIDIA GPU (nvidia-smi)" nvidia-smi -L
else
  if nvidia-smi -L >/dev/null 2>&1; then echo "  ok       an NVIDIA GPU (nvidia-smi)"; else echo "  absent   an NVIDIA GPU (nvidia-smi): needed by --run only"; fi
fi

echo "plan:"
if [ -n "${UDFX_PREBUILT:-}" ]; then echo "  1. build: none, the binaries of check.sh --build-only in UDFX_PREBUILT"; else echo "  1. build: nvcc $nvcc_flags -x cu, the driver gpu/host/driver.cpp over each case's udf_row.h: $names"; fi
echo "  2. exact: each case's kernel on its rows.txt against want.txt (the original's results), bit for bit; one line each in OUT/exact.txt"
echo "  3. bandwidth: gpu/device/bandwidth.cu over ToFahrenheit's udf_row.h, $bw_rows rows, $runs runs after a warm-up; median kernel time, bytes moved / time against the peak (2 x memory clock x bus width); OUT/bandwidth.json"
if [ "$spark" = yes ]; then
  echo "  4. spark: local[*] with com.nvidia.spark.SQLPlugin (spark.rapids.sql.enabled=true), jars: cuDF, RAPIDS, udfx's RapidsUDF jar"
  echo "  5. jobs: on $rows_list rows of celsius doubles: original (examples.temperature.ToFahrenheit), sql ($(printf '%s' "${UDFX_REWRITE_SQL:-UDFX_REWRITE_SQL}")), rapidsudf (examples.temperature.ToFahrenheitRapidsUDF), cuda (udfx.cuda.ToFahrenheitCuda); 1 warm-up and $runs runs each; medians, speedups over the original, plans; a rewrite without GpuProject in its plan fails"
else
  echo "  4. spark: skipped (--skip-spark)"
  echo "  5. jobs: skipped (--skip-spark)"
fi
echo "  6. report: OUT/report.json and OUT/report.md (OUT=$OUT)"

if [ "$missing" -gt 0 ]; then
  echo "check.sh: $missing requirement(s) missing" >&2
  exit 1
fi
if [ "$mode" = dry-run ]; then
  echo "dry run: nothing was run"
  exit 0
fi

mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$OUT/exact.txt"
failed=0
bin=${UDFX_PREBUILT:-$work}
[ -n "${UDFX_PREBUILT:-}" ] || build_all "$work"
for n in $names; do
  echo "step 2: exact $n" >&2
  printf '%s: ' "$n" >> "$OUT/exact.txt"
  if "$bin/$n" --expect "$cases/$n/want.txt" < "$cases/$n/rows.txt" >> "$OUT/exact.txt" 2>&1; then :; else failed=1; fi
done
echo "step 3: bandwidth" >&2
"$bin/bandwidth" "$bw_rows" "$runs" > "$OUT/bandwidth.json"
if [ "$spark" = yes ]; then
  echo "steps 4-6: spark" >&2
  "$PYTHON" "$here/device/spark_bench.py" "$OUT" --rows "$rows_list" --runs "$runs" \
    --jars "$UDFX_CUDF_JAR:$UDFX_RAPIDS_JAR:$UDFX_ARTIFACT_JAR" \
    --udf-class examples.temperature.ToFahrenheit --rapids-class examples.temperature.ToFahrenheitRapidsUDF --cuda-class udfx.cuda.ToFahrenheitCuda \
    --sql "$UDFX_REWRITE_SQL" || failed=1
else
  printf '{"exact": "see exact.txt", "bandwidth": %s, "spark": "skipped (--skip-spark)"}\n' "$(cat "$OUT/bandwidth.json")" > "$OUT/report.json"
  { echo "# udfx device check"; echo; echo "Spark: skipped (--skip-spark)."; echo; echo '```'; cat "$OUT/exact.txt" "$OUT/bandwidth.json"; echo '```'; } > "$OUT/report.md"
fi
echo "report: $OUT/report.json $OUT/report.md" >&2
exit $failed
