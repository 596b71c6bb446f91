#!/usr/bin/env bash
# The scale-out benchmark of docs/scale-out.md in one run: one GPU, one
# pipeline over several GPUs (aooctsplit ! branches ! aooctmerge), and as
# the ceiling one process per GPU started together (CUDA_VISIBLE_DEVICES);
# then one table, rows x columns.  Logs and the bench's tables go to
# OUTDIR.
#
#   scripts/measure/scale-out-bench.sh OUTDIR [GPUS]     (from the repository root)
#
# GPUS: the devices, comma-separated (default 0,1).  Environment: BUILD
# (the meson build folder, default build), BUFFERS (buffers timed per
# figure, default 2000: a GPU takes a few thousand per second, and the
# buffers already in the branches when the clock starts must be few
# against them), BACKEND (cuda, default; cpu runs the same
# pipelines with CPU branches, to check the script anywhere).
set -euo pipefail
out=${1:?usage: scripts/measure/scale-out-bench.sh OUTDIR [GPUS]}
gpus=${2:-0,1}
build=$(cd "${BUILD:-build}" && pwd)
buffers=${BUFFERS:-2000}
backend=${BACKEND:-cuda}
bench=$build/bench/aooct-bench
mkdir -p "$out"
out=$(cd "$out" && pwd)
export GST_PLUGIN_PATH_1_0=$build/gst GST_PLUGIN_PATH=$build/gst
IFS=, read -r -a devs <<<"$gpus"
n=${#devs[@]}
common=(--backend "$backend" --buffers "$buffers" --no-files --no-steps)

{ date -u
  if [ "$backend" = cuda ] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
  else
    echo "backend $backend, $(nproc) CPU cores"
  fi; } >"$out/machine.txt"

# the bench writes its raw files to the temporary directory: run it there
cd "${TMPDIR:-/tmp}"
echo "1 device (${devs[0]})..." >&2
"$bench" "${common[@]}" --scale-out "${devs[0]}" -o "$out/one.md" \
  >"$out/one.log" 2>&1
echo "one pipeline over $gpus..." >&2
"$bench" "${common[@]}" --scale-out "$gpus" -o "$out/pipeline.md" \
  >"$out/pipeline.log" 2>&1
echo "$n processes, one per device, together..." >&2
pids=()
for i in "${!devs[@]}"; do
  CUDA_VISIBLE_DEVICES=${devs[$i]} "$bench" "${common[@]}" --scale-out 0 \
    -o "$out/process$i.md" >"$out/process$i.log" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ $rc -eq 0 ] || { echo "a process failed: see $out/process*.log" >&2; exit 1; }

# A-lines/s of row $2 in table file $1 (empty where it failed)
alines() { awk -F'|' -v r="$2" '$2 ~ "^ " r " $" { gsub(/ /, "", $5); print $5 }' "$1"; }

{
  echo "# scale-out ($backend, gpus=$gpus, $buffers buffers per figure)"
  echo
  sed 's/^/    /' "$out/machine.txt"
  echo
  echo "| row | 1 device, A-lines/s | 1 pipeline over $n, A-lines/s | $n processes together, A-lines/s | pipeline / 1 device | pipeline / processes | target (issue 30, 2 GPUs) |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  for row in 2048x1000-x4 cs-2048x1000 thesis-x16; do
    one=$(alines "$out/one.md" "$row")
    pipe=$(alines "$out/pipeline.md" "$row")
    sum=0
    for i in "${!devs[@]}"; do
      v=$(alines "$out/process$i.md" "$row")
      sum=$(awk -v a="$sum" -v b="${v:-nan}" 'BEGIN { print a + b }')
    done
    case $row in
      2048x1000-x4) target="pipeline >= 0.95 x processes" ;;
      *) target="pipeline >= 1.9 x 1 device" ;;
    esac
    awk -v r="$row" -v o="${one:-nan}" -v p="${pipe:-nan}" -v s="$sum" -v t="$target" \
      'BEGIN { printf "| %s | %.4g | %.4g | %.4g | %.2fx | %.2f | %s |\n", r, o, p, s, p / o, p / s, t }'
  done
} | tee "$out/scale-out.md"
