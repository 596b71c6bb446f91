#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One GPU call that compares this tree with an earlier commit (issue 11's
# proof that a restructuring changed nothing): builds both, lists the
# checksums of the same pipelines on both backends with each plugin
# (scripts/checks/dump-outputs.sh) and compares them, runs this tree's suite
# (fault injection on) and then the benchmark with each plugin, one after
# the other, followed by the k-space mode rows and aooctcs.
#
#   mkdir -p .wt/before && git archive REV | tar -x -C .wt/before   # here, once (.wt/ is ignored)
#   device tool: run "scripts/gpu/gpu-compare.sh $OUT", carry [".gstkit", ".wt/before"]
#
# Everything it finds goes to OUT/summary.txt; about 9 minutes on an H100.
out=${1:?usage: scripts/gpu/gpu-compare.sh OUTDIR}; R=$(pwd); S=$out/summary.txt
before=${AOOCT_BEFORE:-.wt/before}
mkdir -p "$out"
# shellcheck disable=SC1091
source .gstkit/enter.sh || exit 1
ln -sfn "$R/.gstkit" "$before/.gstkit"
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*" >> "$S"; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } >> "$S"
O="-Dcuda=enabled -Dcuda-archs=90 -Dviewer=disabled"
( cd "$before" && meson setup /tmp/bb . $O -Dtests=disabled && meson compile -C /tmp/bb -j 5 ) > /tmp/build-bb.log 2>&1 &
( meson setup /tmp/ba . $O -Dtests=disabled && meson compile -C /tmp/ba -j 5 ) > /tmp/build-ba.log 2>&1 &
( meson setup /tmp/bt . $O -Dfault-injection=true && meson compile -C /tmp/bt -j 6 ) > /tmp/build-bt.log 2>&1 &
wait; cat /tmp/build-b?.log > "$out/builds.log"
el "built"
ls /tmp/bb/gst/*.so /tmp/ba/gst/*.so /tmp/bt/gst/*.so >> "$S" 2>&1 || grep -B2 -A10 "error" "$out/builds.log" | head -60 >> "$S"
# the suite in the background (the checksums time nothing)
(timeout 240 meson test -C /tmp/bt --no-suite sanitize --num-processes 12 --print-errorlogs > "$out/test.log" 2>&1; echo "meson test rc $?" >> "$out/test.log") &
tp=$!
for be in cuda cpu; do
  for t in bb ba; do (cd /tmp && timeout 120 bash "$R/scripts/checks/dump-outputs.sh" /tmp/$t/gst $be > /tmp/md5-$t-$be.txt 2>&1); done
  if cmp -s /tmp/md5-bb-$be.txt /tmp/md5-ba-$be.txt; then el "$be: $(wc -l < /tmp/md5-ba-$be.txt) outputs byte-identical"; else el "$be: DIFFER"; diff /tmp/md5-bb-$be.txt /tmp/md5-ba-$be.txt >> "$S"; fi
  (echo "== $be before"; cat /tmp/md5-bb-$be.txt; echo "== $be after"; cat /tmp/md5-ba-$be.txt) >> "$out/md5.txt"
done
wait $tp; el "tests done"
grep -E "^(Ok|Fail|Skipped|Timeout|Expected|Unexpected)" "$out/test.log" >> "$S"; grep -E " (FAIL|TIMEOUT|ERROR) " "$out/test.log" >> "$S"
for t in bb ba; do
  (cd /tmp && GST_PLUGIN_PATH_1_0=/tmp/$t/gst timeout 90 /tmp/$t/bench/aooct-bench --backend cuda --shape all --no-steps --buffers 60 --output "$out/bench-$t.md" > /tmp/bench-$t.log 2>&1); el "bench $t rc $?"
done
export GST_PLUGIN_PATH_1_0=/tmp/ba/gst
for i in linear bspline cubic lanczos; do
  (cd /tmp && timeout 25 /tmp/ba/bench/aooct-bench --backend cuda --shape 2048x1000-x4 --no-steps --no-files --buffers 100 --interpolation $i --output /tmp/k.md > /dev/null 2>&1; echo "### $i"; cat /tmp/k.md) >> "$out/bench-extra.md"
done
el "k-space modes done"
(cd /tmp && timeout 45 /tmp/ba/bench/aooct-bench --backend cuda --cs --output /tmp/cs.md > /dev/null 2>&1; echo "### cs"; cat /tmp/cs.md) >> "$out/bench-extra.md"
el "cs done"
