#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two builds compute the same bytes (issue 32: a restructuring with no
# behaviour change): the pipelines of scripts/checks/dump-outputs.sh (every
# element, the chain tests' phantoms with fixed seeds, the thesis shape,
# full range, aooctcs, each aooctkmap interpolation, the views, doppler /
# angio, aooctbin; GRAY8 and GRAY16) with each build's plugin, one md5 per
# output, compared line by line.  Backends: cpu, and cuda where
# nvidia-smi sees a GPU (or as given).
#
#   scripts/checks/compare-trees.sh OLD_BUILD NEW_BUILD OUTDIR [cpu|cuda ...]
#
# OUTDIR gets old-BACKEND.txt, new-BACKEND.txt and summary.txt; the exit
# status is 0 only when every backend's lists are identical and nothing
# failed.
old=${1:?usage: compare-trees.sh OLD_BUILD NEW_BUILD OUTDIR [cpu|cuda ...]}
new=${2:?new build}; out=${3:?outdir}; shift 3
old=$(cd "$old" && pwd) && new=$(cd "$new" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
backends=("$@")
if [ ${#backends[@]} -eq 0 ]; then
  backends=(cpu)
  nvidia-smi -L >/dev/null 2>&1 && backends+=(cuda)
fi
mkdir -p "$out"; S=$out/summary.txt; : > "$S"
rc=0
for be in "${backends[@]}"; do
  for t in old new; do
    dir=$old; [ $t = new ] && dir=$new
    # a registry of each build's own, so that neither loads the other's
    # plugin from a shared cache
    (cd /tmp && GST_REGISTRY_1_0="$out/registry-$t.bin" \
      bash "$here/dump-outputs.sh" "$dir/gst" "$be") \
      > "$out/$t-$be.txt" 2>&1
  done
  n=$(wc -l < "$out/new-$be.txt")
  if grep -q FAILED "$out/old-$be.txt" "$out/new-$be.txt"; then
    echo "$be: FAILED pipelines" | tee -a "$S"
    grep -h FAILED "$out/old-$be.txt" "$out/new-$be.txt" | tee -a "$S"
    rc=1
  fi
  if cmp -s "$out/old-$be.txt" "$out/new-$be.txt"; then
    echo "$be: $n outputs byte-identical" | tee -a "$S"
  else
    echo "$be: DIFFER" | tee -a "$S"
    diff "$out/old-$be.txt" "$out/new-$be.txt" | tee -a "$S"
    rc=1
  fi
  for t in old new; do
    dir=$old; [ $t = new ] && dir=$new
    echo "$t: $(GST_REGISTRY_1_0="$out/registry-$t.bin" GST_PLUGIN_PATH_1_0=$dir/gst \
      gst-inspect-1.0 aooctdisp 2>/dev/null | grep -m1 Filename)" >> "$S"
  done
done
exit $rc
