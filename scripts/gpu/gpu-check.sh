#!/usr/bin/env bash
# One call of the lent GPU machine (shared/device/README.md) for a
# session's checks, within the device tool's 10 minutes: build with CUDA
# (sm_90 only, to build fast), the whole suite but the sanitizers, then
# the benchmarks named by PARTS.  Logs and tables go to OUTDIR.
#
#   scripts/gpu/gpu-check.sh OUTDIR [PARTS]     (from the repository root)
#
# PARTS, comma-separated (default suite,packed,flow,scale):
#   suite   meson test --no-suite sanitize
#   tests   only the meson tests named in $TESTS (space-separated)
#   memcheck  the sanitize suite's memcheck tests of the flow and packed code
#   packed  aooct-bench --packed (1024 x 1000, 8 per buffer)
#   flow    aooct-bench --flow (1024 x 1000 x8, 2048 x 1000)
#   scale   scripts/measure/scale-out-bench.sh on GPUs 0,1 (two-GPU machines)
#   base    the benchmark's standard rows (--shape all --no-files)
#   compare the same outputs as the tree in $OLD_SRC (scripts/checks/compare-trees.sh
#           on CUDA), and the thesis-x16 and 2048x1000-x4 rows of both
#           builds one after the other (a restructuring's before and after)
out=${1:?usage: scripts/gpu/gpu-check.sh OUTDIR [PARTS]}
parts=,${2:-suite,packed,flow,scale},
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck disable=SC1091
source .gstkit/enter.sh || exit 1
B=${BUILD:-/tmp/gpu-build}
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1; date -u; git log --oneline -1 2>/dev/null; } > "$out/gpu.txt" 2>&1
t0=$SECONDS
if [ ! -f "$B/build.ninja" ]; then
  meson setup "$B" . -Dcuda=enabled -Dfault-injection=true -Dcuda-archs=90 \
    > "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
fi
meson compile -C "$B" >> "$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -40; exit 1; }
echo "build: $((SECONDS - t0)) s" >> "$out/gpu.txt"
export GST_PLUGIN_PATH_1_0="$B/gst"
rc=0
case $parts in *,suite,*)
  t0=$SECONDS
  timeout 330 meson test -C "$B" --no-suite sanitize --num-processes 12 \
    --print-errorlogs > "$out/test.log" 2>&1 || rc=1
  cp "$B/meson-logs/testlog.txt" "$out/" 2>/dev/null
  echo "suite: $((SECONDS - t0)) s" >> "$out/gpu.txt" ;;
esac
case $parts in *,tests,*)
  # shellcheck disable=SC2086
  timeout 330 meson test -C "$B" --num-processes 8 --print-errorlogs $TESTS \
    > "$out/tests.log" 2>&1 || rc=1
  grep -E "^ *[0-9]+/[0-9]+ " "$out/tests.log" | sed 's/^/  /' ;;
esac
case $parts in *,memcheck,*)
  timeout 200 meson test -C "$B" --suite sanitize --num-processes 4 \
    --print-errorlogs flow-cuda-memcheck dcsub-cuda-memcheck flow-cuda-racecheck \
    > "$out/memcheck.log" 2>&1 || rc=1 ;;
esac
case $parts in *,compare,*)
  OB=/tmp/gpu-build-old
  if [ ! -f "$OB/build.ninja" ]; then
    meson setup "$OB" "$OLD_SRC" -Dcuda=enabled -Dfault-injection=true \
      -Dcuda-archs=90 > "$out/build-old.log" 2>&1
  fi
  meson compile -C "$OB" >> "$out/build-old.log" 2>&1 || { tail -20 "$out/build-old.log"; exit 1; }
  timeout 200 scripts/checks/compare-trees.sh "$OB" "$B" "$out/compare" cuda \
    > "$out/compare.log" 2>&1 || rc=1
  cat "$out/compare/summary.txt" 2>/dev/null
  for t in old new; do
    b=$B; [ $t = old ] && b=$OB
    for s in thesis-x16 2048x1000-x4; do
      (cd /tmp && GST_PLUGIN_PATH_1_0=$b/gst GST_REGISTRY_1_0=/tmp/reg-$t.bin \
        timeout 60 "$b/bench/aooct-bench" --backend cuda --shape $s --no-files \
        --no-steps --buffers 200 -o /tmp/ab.md 2>&1 | grep -E "^\| \*\*raw B-scans in page-locked" \
        | sed "s/^/$t $s: /") >> "$out/bench-ab.txt"
    done
  done
  cat "$out/bench-ab.txt" ;;
esac
cd /tmp || exit 1
case $parts in *,packed,*)
  timeout 90 "$B/bench/aooct-bench" --backend cuda --packed --shape 1024-nopad-x8 \
    --buffers 200 --output "$out/bench-packed.md" > "$out/bench-packed.log" 2>&1 || rc=1 ;;
esac
case $parts in *,flow,*)
  for s in 1024-nopad-x8 2048x1000; do
    timeout 90 "$B/bench/aooct-bench" --backend cuda --shape $s --flow --no-files \
      --no-steps --buffers 100 --output "$out/bench-flow-$s.md" >> "$out/bench-flow.log" 2>&1 || rc=1
  done ;;
esac
case $parts in *,base,*)
  timeout 120 "$B/bench/aooct-bench" --backend cuda --shape all --no-files \
    --buffers 100 --output "$out/bench-base.md" > "$out/bench-base.log" 2>&1 || rc=1 ;;
esac
cd - >/dev/null || exit 1
case $parts in *,scale,*)
  if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
    BUILD=$B BUFFERS=2000 timeout 200 scripts/measure/scale-out-bench.sh "$out/scale" 0,1 \
      > "$out/scale.log" 2>&1 || rc=1
  fi ;;
esac
cat "$out/gpu.txt"; grep -E "^(Ok|Fail|Skipped|Timeout):" "$out/test.log" 2>/dev/null
grep -E " (FAIL|TIMEOUT) " "$out/test.log" 2>/dev/null
exit $rc
