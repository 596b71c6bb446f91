#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# GPU timelines of the user path for one B-scan per buffer (issue 16):
# aooctfilesrc (the file page-locked in place) ! the chain ! fakesink, traced
# with tools/aooct-cupti-trace.c and summed up by scripts/gpu/gpu-timeline.py.
# On the GPU machine, after a CUDA build:
#
#   scripts/gpu/gpu-timeline.sh BUILD OUTDIR [SHAPE...]
#
# SHAPE: WIDTHxHEIGHTxPER[+q][:extra element properties], e.g. 2048x1000x1,
# 832x240x1, 2048x1000x4, 2048x1000x1:cuda-graphs=true; +q puts a short
# queue after aooctdcsub and after aooctfft (the chain on three threads, as
# the benchmark's row).  Appends the summary of each to OUTDIR/timeline.md;
# with AOOCT_TIMELINE_SEQUENCE=1 also two periods of it event by event;
# with AOOCT_TIMELINE_TRACES=1 also leaves the raw traces there, gzipped
# (the device tool brings back few files).
set -uo pipefail
build=${1:?usage: scripts/gpu/gpu-timeline.sh BUILD OUTDIR [SHAPE...]}
out=${2:?usage: scripts/gpu/gpu-timeline.sh BUILD OUTDIR [SHAPE...]}
shift 2
[ $# -gt 0 ] || set -- 832x240x1 2048x1000x1 2048x1000x4
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "$out"
cuda=${CUDA_HOME:-/usr/local/cuda}
inc=$(dirname "$(find "$cuda"/ /usr/local/lib/python3*/ /usr/lib/python3/ \
  -name cupti.h 2>/dev/null | head -1)")
lib=$(dirname "$(find "$cuda"/ /usr/local/lib/python3*/ /usr/lib/python3/ \
  -name 'libcupti.so*' 2>/dev/null | head -1)")
so=/tmp/aooct-cupti-trace.so
if ! cc -O2 -shared -fPIC -o $so "$root/tools/aooct-cupti-trace.c" \
  -I"$inc" -L"$lib" -Wl,-rpath,"$lib" -l:"$(basename "$(ls "$lib"/libcupti.so* | head -1)")" -ldl; then
  echo "cannot build the CUPTI tracer (cupti.h in '$inc', libcupti in '$lib')"
  exit 1
fi
export GST_PLUGIN_PATH_1_0=$build/gst
gst-inspect-1.0 aooctdcsub > /dev/null || exit 1   # the registry, untraced
for spec in "$@"; do
  shape=${spec%%:*}
  extra=; [ "$shape" != "$spec" ] && extra=${spec#*:}
  q=(); q2=()
  if [ "${shape%+q}" != "$shape" ]; then
    shape=${shape%+q}
    q=('!' queue max-size-buffers=3 max-size-bytes=0 max-size-time=0)
    q2=("${q[@]}")
  fi
  IFS=x read -r n m k <<< "$shape"
  frame=$((n * m * k * 2))
  count=$(( (${AOOCT_TIMELINE_MIB:-1500} << 20) / frame ))   # MiB of file
  [ $count -gt 4000 ] && count=4000
  raw=/tmp/timeline-$n-$m.raw
  if [ ! -s "$raw" ]; then
    gst-launch-1.0 -q aooctsrc num-buffers=8 samples=$n alines=$m ! \
      filesink location=$raw.8 || exit 1
    : > "$raw"
    for _ in $(seq $(( (count * k + 7) / 8 ))); do cat "$raw.8" >> "$raw"; done
  fi
  x=(); [ -n "$extra" ] && x=("$extra")
  pipeline=(aooctfilesrc location="$raw" format=gray16-le width="$n"
    height="$m" bscans-per-buffer="$k"
    ! aooctdcsub alines-per-bscan="$m" "${x[@]}" "${q[@]}"
    ! aooctpad size=2048 factor=2 "${x[@]}"
    ! aooctkmap 'wavelength-coeffs="800,0.05"' "${x[@]}"
    ! aooctdisp a2=2 a3=-1 "${x[@]}" ! aooctfft "${x[@]}" "${q2[@]}"
    ! aooctnorm "${x[@]}" ! video/x-raw,format=GRAY8 ! fakesink)
  trace=/tmp/trace-${spec//[:=+]/-}
  rm -f "$trace".*
  start=$(date +%s%N)
  AOOCT_CUPTI_TRACE=$trace LD_PRELOAD=$so gst-launch-1.0 -q "${pipeline[@]}" \
    || echo "$spec: the pipeline failed"
  end=$(date +%s%N)
  t=$(ls -S "$trace".* | head -1)
  name=timeline-${spec//[:=+]/-}
  seqopt=(); [ "${AOOCT_TIMELINE_SEQUENCE:-0}" = 1 ] && seqopt=(--sequence)
  python3 "$root/scripts/gpu/gpu-timeline.py" "$t" --frame-bytes $frame "${seqopt[@]}" \
    --label "$spec (aooctfilesrc ! chain, $count buffers, $(( (end - start) / 1000000 )) ms wall with tracing)" \
    | tee -a "$out/timeline.md"
  [ "${AOOCT_TIMELINE_TRACES:-0}" = 1 ] && gzip -c "$t" > "$out/$name.trace.gz"
done
exit 0
