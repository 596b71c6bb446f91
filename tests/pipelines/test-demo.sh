#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/demo.sh on 3 B-scans against the plugin just built and
# checks what it promises: one PNG per B-scan of the right size, an MP4
# that plays back the same number of frames, the calibration file.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../util/aooct-test-png.sh
. "$root/tests/util/aooct-test-png.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS=3 "$root/pipelines/demo.sh" "$out" >"$out/log" 2>&1 ||
  { cat "$out/log"; exit 1; }
n=$(ls "$out"/bscan-*.png | wc -l)
[ "$n" -eq 3 ] || { echo "expected 3 PNGs, got $n"; exit 1; }
expect_png_size "$out/bscan-00000.png" 240x1024
[ "$(grep -vc '^#' "$out/calibration.txt")" -eq 832 ] || { echo "calibration.txt"; exit 1; }
frames=$(gst-launch-1.0 -v filesrc location="$out/demo.mp4" ! qtdemux \
  ! fakesink silent=false 2>/dev/null | grep -c 'chain' || true)
[ "$frames" -eq 3 ] || { echo "demo.mp4 has $frames frames, expected 3"; exit 1; }
echo "demo: 3 PNG B-scans of 240x1024, calibration of 832 wavelengths, MP4 of $frames frames"
