#!/usr/bin/env bash
# Makes the pictures of docs/howto.md "Your own recordings" from the real
# recording in tests/data/pdms-sdoct: the PDMS phantom's B-scan (rows
# 0..1023 of pdms_LP01.raw, its 552-byte header skipped) as recorded (no
# k-linearisation), k-linearised by aooct-calibrate's wavelength file
# without dispersion compensation, and with the dispersion it measured on
# the mirrors; depth bins 0..511, 50 dB, each 512 x 256 (A-lines and
# depth halved): docs/img/pdms-raw.png, pdms-klinear.png, pdms-calibrated.png.
#
#   GST_PLUGIN_PATH_1_0=BUILD/gst scripts/gen/gen-recording-images.sh [BUILD]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-${AOOCT_BUILD:-$root/build}}
data=$root/tests/data/pdms-sdoct
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

"$build/tools/aooct-calibrate" --mirror "$data/LP01_mirror1.txt" --mirror "$data/LP01_mirror2.txt" \
  --reference-dark "$data/LP01_dark_ref.txt" --sample-dark "$data/LP01_dark_sample1.txt" \
  --sample-dark "$data/LP01_dark_sample2.txt" --camera-dark "$data/LP01_dark_not.txt" \
  --center-wavelength 930 --bandwidth 124 --sample-side 2 -o "$out/wl.txt" >"$out/frag"
disp=$(sed -n 2p "$out/frag")
echo "$disp"
# the B-scan the owners reconstruct: rows 0..1023 after the 552-byte
# header, the other 25 rows of the 1049 left out by the stride
picture() {   # NAME STEPS...
  local name=$1; shift
  gst-launch-1.0 -q aooctfilesrc location="$data/pdms_LP01.raw" header-bytes=552 \
    width=1024 height=1024 frame-stride=2148352 num-buffers=1 \
    ! aooctdcsub ! aooctpad "$@" ! aooctfft ! aooctnorm dynamic-range=50 crop-end=512 \
    ! videoscale ! video/x-raw,width=512,height=256 \
    ! pngenc compression-level=9 ! filesink location="$root/docs/img/pdms-$name.png"
}
picture raw ! aooctdisp
picture klinear ! aooctkmap wavelength-file="$out/wl.txt" ! aooctdisp
# shellcheck disable=SC2086
picture calibrated ! aooctkmap wavelength-file="$out/wl.txt" ! $disp
ls -l "$root"/docs/img/pdms-*.png
