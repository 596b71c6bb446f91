#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/aooct-batch's files per minute on a local Ray with 1, 2, ...
# workers (a benchmark, not a test; docs/scale-out.md has the table):
#
#   bench/batch-scaling.sh [FILES [BSCANS [WORKERS...]]]
#       FILES    raw files of aooctsrc's retina, 832 x 240 (default 8)
#       BSCANS   B-scans per file (default 48: 2 volumes of 24)
#       WORKERS  the worker counts to run (default 1 2)
#   AOOCT_BACKEND=cpu|cuda   (default cpu)
#
# Per worker count: the wall time of the whole run (Ray's start included)
# and files per minute from it, and from the files' own times (the JSONs'
# timings.seconds summed, divided by the workers: the rate once Ray runs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=$root/.venv/bin/python
files=${1:-8} bscans=${2:-48}
shift $(($# < 2 ? $# : 2))
workers=("${@:-}")
[ -n "${workers[0]}" ] || workers=(1 2)
export GST_PLUGIN_PATH_1_0=${AOOCT_BUILD:-$root/build}/gst${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$files"); do
  gst-launch-1.0 -q aooctsrc num-buffers="$bscans" seed="$i" calibration-file="$tmp/cal.txt" \
    ! filesink location="$tmp/scan$i.raw"
done
echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($(sed -n 's/^model name\t: //p' /proc/cpuinfo | head -1)), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$files files of $bscans B-scans (832 x 240, gray16-le), backend ${AOOCT_BACKEND:-cpu}"
printf '%-8s %-10s %-16s %-22s\n' workers wall_s files/min files/min_in_tasks
for w in "${workers[@]}"; do
  rm -rf "$tmp/out"
  t0=$(date +%s.%N)
  "$py" "$root/tools/aooct-batch" --width 832 --height 240 --bscans-per-volume $((bscans / 2)) \
    --wavelength-file "$tmp/cal.txt" --a2 8 --a3 -2 --backend "${AOOCT_BACKEND:-cpu}" \
    --workers "$w" -o "$tmp/out" "$tmp/scan*.raw" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
  t1=$(date +%s.%N)
  busy=$("$py" -c 'import json,sys; print(sum(json.load(open(f))["timings"]["seconds"] for f in sys.argv[1:]))' "$tmp"/out/*.json)
  awk -v w="$w" -v t0="$t0" -v t1="$t1" -v n="$files" -v b="$busy" 'BEGIN {
    printf "%-8d %-10.1f %-16.1f %-22.1f\n", w, t1 - t0, n * 60 / (t1 - t0), n * 60 * w / b }'
done
