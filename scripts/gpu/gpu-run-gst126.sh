#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The GPU suite against GStreamer 1.26 on the GPU machine (Ubuntu 24.04, no
# GStreamer of its own): the Debian 12 kit (.gstkit, GStreamer 1.22, GLib)
# with the 1.26 layer of scripts/setup/make-gstkit-1.26.sh (.gstkit-1.26) over
# it, so that gstreamer-cuda-1.0 is 1.26 and HAVE_GST_CUDA_STREAM is built.
# Builds with CUDA for the H100/H200 (sm_90), runs the suite (without the
# compute-sanitizer suite), then checks in the debug log that aooctnorm
# writes its NV12 for cudaconvert on cudaconvert's own stream.
#
#   scripts/gpu/gpu-run-gst126.sh OUTDIR [TEST...]   (from the repository root;
#                                    default: every test but the sanitize suite)
out=${1:?usage: scripts/gpu/gpu-run-gst126.sh OUTDIR [TEST...]}
shift
mkdir -p "$out"
# shellcheck disable=SC1091
source .gstkit/enter.sh || exit 1
# shellcheck disable=SC1091
source .gstkit-1.26/enter.sh || exit 1
set -u
B=/tmp/gpu-build-126
rm -rf "$B"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1; date -u
  echo "gst-inspect-1.0: $(gst-inspect-1.0 --version | sed -n 2p)"
  echo "gstreamer-cuda-1.0: $(pkg-config --modversion gstreamer-cuda-1.0)"
  gst-inspect-1.0 nvcodec | grep -E '^ +(cuda[a-z]+|nvh264enc):' ; } > "$out/gpu.txt" 2>&1
if ! (meson setup "$B" . -Dcuda=enabled -Dcuda-archs=90 -Dfault-injection=true && meson compile -C "$B") \
    > "$out/build.log" 2>&1; then
  tail -n 40 "$out/build.log"; exit 1
fi
grep -E 'HAVE_GST_CUDA_STREAM' "$B/config.h" >> "$out/gpu.txt"
meson test -C "$B" --no-suite sanitize --print-errorlogs "$@" > "$out/test.log" 2>&1
rc=$?
cp "$B/meson-logs/testlog.txt" "$out/"
# aooctnorm ! NV12 (CUDA) ! cudaconvert ! ... : on whose stream?
GST_CHECKS=test_nvcodec_pipeline GST_DEBUG=aooctfilter:5 \
  CK_RUN_CASE=cuda GST_PLUGIN_PATH_1_0="$B/gst" "$B/tests/test-norm" > "$out/stream.log" 2>&1
echo "nvcodec pipeline: $(grep -c "downstream's stream" "$out/stream.log") pools on downstream's stream;" \
  "$(grep -cE 'Checks.*Failures: 0' "$out/stream.log") check run(s) without failures" >> "$out/gpu.txt"
cat "$out/gpu.txt"; grep -E "^(Ok|Fail|Skipped|Timeout):" "$out/test.log"
grep -E " (FAIL|TIMEOUT) " "$out/test.log"
exit $rc
