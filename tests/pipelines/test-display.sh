#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the display pipelines (pipelines/live-view.sh,
# pipelines/record-and-view.sh) on 3 live B-scans with fakesink in place of
# the window, and checks that the recording made alongside the display has
# all 3 frames of the right size.  On a desktop, run them as they are.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS=3 AOOCT_VIDEOSINK="fakesink sync=true"

"$root/pipelines/live-view.sh" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
grep -q 'Got EOS' "$out/log" || { cat "$out/log"; echo "live-view did not reach EOS"; exit 1; }
echo "live-view: ran to EOS"

gst-inspect-1.0 avdec_ffv1 >/dev/null 2>&1 || { echo "gst-libav missing: record-and-view skipped"; exit 77; }
"$root/pipelines/record-and-view.sh" "$out/live.mkv" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
gst-launch-1.0 -q filesrc location="$out/live.mkv" ! matroskademux ! avdec_ffv1 \
  ! video/x-raw,format=GRAY16_LE,width=240,height=1024 ! filesink location="$out/dec"
[ "$(stat -c %s "$out/dec")" -eq $((3 * 240 * 1024 * 2)) ] || { echo "live.mkv: not 3 frames of 240x1024"; exit 1; }
echo "record-and-view: displayed and recorded 3 frames of 240x1024"
