#!/usr/bin/env bash
# The GPU machine's whole job in one call (see shared/device/README.md):
# build with CUDA, run the whole test suite (GPU tests included, and
# compute-sanitizer memcheck on the whole chain), then the benchmark on
# both backends and the GPU timelines of scripts/gpu/gpu-timeline.sh.  Logs
# and tables go to OUTDIR.
#
#   scripts/gpu-run.sh OUTDIR        (from the repository root)
out=${1:?usage: scripts/gpu-run.sh OUTDIR}
mkdir -p "$out"
# shellcheck disable=SC1091
source .gstkit/enter.sh || exit 1
set -u
B=/tmp/gpu-build
rm -rf "$B"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1; date -u; } > "$out/gpu.txt" 2>&1
if ! (meson setup "$B" . -Dcuda=enabled -Dfault-injection=true && meson compile -C "$B") > "$out/build.log" 2>&1; then
  tail -n 40 "$out/build.log"; exit 1
fi
meson test -C "$B" --no-suite sanitize --print-errorlogs > "$out/test.log" 2>&1
rc=$?
cp "$B/meson-logs/testlog.txt" "$out/"
export GST_PLUGIN_PATH_1_0="$B/gst"
(cd /tmp && "$B/bench/aooct-bench" --backend cuda --shape all --buffers 200 \
  --output "$out/bench-cuda.md") > "$out/bench.log" 2>&1
(cd /tmp && "$B/bench/aooct-bench" --backend cpu --shape thesis --buffers 40 \
  --output "$out/bench-cpu.md") >> "$out/bench.log" 2>&1
# the views of spec section 11 on the volume of Jian et al. (seconds when
# it works; the timeout because a failing row leaves appsrc blocked)
(cd /tmp && timeout 120 "$B/bench/aooct-bench" --backend cuda --views 40 \
  --output "$out/bench-views.md") >> "$out/bench.log" 2>&1
# aooctdoppler and aooctangio (spec 12, issue 31) alone and after the chain
for s in 1024-nopad-x8 2048x1000 2048x1000-x4; do
  (cd /tmp && timeout 300 "$B/bench/aooct-bench" --backend cuda --shape $s \
    --flow --no-files --buffers 200 --output /tmp/bench-flow.md) \
    >> "$out/bench.log" 2>&1
  cat /tmp/bench-flow.md >> "$out/bench-flow.md"
done
# aooctorg (spec 13, issue 42; target: the ORG chain >= 10 M A-lines/s at
# 1024 x 1000, 8 per buffer) alone (its own GPU time per B-scan) and after
# the chain, and on AO-OCT B-scans of 512 x 512
for s in 1024-nopad-x8 512x512-x8; do
  (cd /tmp && timeout 300 "$B/bench/aooct-bench" --backend cuda --shape $s \
    --org --no-files --no-steps --buffers 200 --output /tmp/bench-org.md) \
    >> "$out/bench.log" 2>&1
  cat /tmp/bench-org.md >> "$out/bench-org.md"
done
# packed 12/10-bit raw B-scans against 16-bit ones in the same run (issue
# 34: 1024 x 1000, 8 per buffer, page-locked; target >= 32 M A-lines/s for
# mono12p on an H100)
(cd /tmp && timeout 300 "$B/bench/aooct-bench" --backend cuda --packed \
  --buffers 400 --output "$out/bench-packed.md") >> "$out/bench.log" 2>&1
# aooctkmap's interpolation modes (docs/kspace.md) at 1024 and 2048 samples,
# batched, into one file
for s in 1024-nopad-x8 2048x1000-x4 2048-nopad; do
  for i in linear cubic bspline lanczos nufft nudft; do
    (cd /tmp && timeout 60 "$B/bench/aooct-bench" --backend cuda --shape $s \
      --buffers 60 --interpolation $i --output /tmp/bench-kspace.md) \
      >> "$out/bench.log" 2>&1
    cat /tmp/bench-kspace.md >> "$out/bench-kspace.md"
  done
done
# aooctdisp estimate=true on 2048 x 1000 B-scans (issue 17: at most 1 s on
# the GPU): the element's own timing, three seeds, each backend
for be in cuda cpu; do
  for i in 1 2 3; do
    gst-launch-1.0 -m aooctsrc num-buffers=2 seed=$i samples=2048 alines=1000 \
      wavelength-coeffs="785,0.054" ! aooctdcsub backend=$be ! aooctpad backend=$be \
      ! aooctkmap backend=$be wavelength-coeffs="785,0.054" \
      ! aooctdisp backend=$be estimate=true ! aooctfft backend=$be \
      ! aooctnorm backend=$be ! fakesink 2>&1 | grep -o 'aooct-dispersion.*' \
      | sed "s/^/$be, seed $i: /"
  done
done > "$out/estimate-2048x1000.txt"
# where each microsecond of one B-scan per buffer goes (issue 16): GPU
# timelines of aooctfilesrc ! chain through CUPTI (docs/performance.md)
timeout 180 scripts/gpu/gpu-timeline.sh "$B" "$out" 832x240x1 2048x1000x1 \
  2048x1000x4 > "$out/timeline.log" 2>&1
cat "$out/gpu.txt"; grep -E "^(Ok|Fail|Skipped|Timeout):" "$out/test.log"
cat "$out/estimate-2048x1000.txt"
grep -E " (FAIL|TIMEOUT) " "$out/test.log"
cat "$out/bench-cuda.md" "$out/bench-views.md" "$out/bench-packed.md"
exit $rc
