#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/record.sh on 3 B-scans, both lossless formats, and decodes
# every recording back: the lossless MKV must give exactly the frames that
# aooctnorm produced (tapped in the same run), the H.264 MP4 the same number
# of frames and size and, decoded to grey, pixels close to them (mean
# difference < 3 grey levels: lossy, but the same images).
# Exit 77 (skipped) where gst-libav (FFV1, H.264 decoder) is not installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=3 w=240 h=1024

for e in avenc_ffv1 avdec_ffv1 avdec_h264; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 || { echo "$e missing (gst-libav): skipped"; exit 77; }
done

# frames FILE BYTES_PER_PIXEL: number of whole frames, fails on a partial one
frames() {
  local size; size=$(stat -c %s "$1")
  [ $((size % (w * h * $2))) -eq 0 ] || { echo "$1: $size bytes is not whole ${w}x${h} frames" >&2; return 1; }
  echo $((size / (w * h * $2)))
}

for kind in ffv1 raw; do
  if [ $kind = ffv1 ]; then fmt=GRAY16_LE bpp=2 dec="avdec_ffv1"; else fmt=GRAY8 bpp=1 dec="identity"; fi
  AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS=$n AOOCT_LOSSLESS=$kind AOOCT_TAP="$out/$kind.tap" \
    "$root/pipelines/record.sh" "$out/$kind" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
  [ "$(frames "$out/$kind.tap" $bpp)" -eq $n ] || { echo "$kind: aooctnorm gave not $n frames"; exit 1; }
  # the images are not blank: more than 16 distinct byte values
  [ "$(od -An -tu1 -v "$out/$kind.tap" | tr -s ' ' '\n' | sort -u | wc -l)" -gt 16 ] ||
    { echo "$kind: aooctnorm's frames are (nearly) constant"; exit 1; }

  # lossless: decode and compare every byte
  gst-launch-1.0 -q filesrc location="$out/$kind/bscans.mkv" ! matroskademux ! $dec \
    ! "video/x-raw,format=$fmt,width=$w,height=$h" ! filesink location="$out/$kind.mkv.dec"
  [ "$(frames "$out/$kind.mkv.dec" $bpp)" -eq $n ] || { echo "$kind MKV: not $n frames"; exit 1; }
  cmp "$out/$kind.tap" "$out/$kind.mkv.dec" ||
    { echo "$kind MKV does not decode to aooctnorm's frames"; exit 1; }
  echo "$kind MKV: $n frames ${w}x${h} $fmt, bit-exact"

  # H.264: frame count and size; pixels close to the GRAY8 tap
  gst-launch-1.0 -q filesrc location="$out/$kind/bscans.mp4" ! qtdemux ! h264parse ! avdec_h264 \
    ! videoconvert ! "video/x-raw,format=GRAY8,width=$w,height=$h" ! filesink location="$out/$kind.mp4.dec"
  [ "$(frames "$out/$kind.mp4.dec" 1)" -eq $n ] || { echo "$kind MP4: not $n frames"; exit 1; }
  if [ $kind = raw ]; then
    python3 - "$out/raw.tap" "$out/raw.mp4.dec" <<'PY'
import sys
a = open(sys.argv[1], 'rb').read()
b = open(sys.argv[2], 'rb').read()
mad = sum(abs(x - y) for x, y in zip(a, b)) / len(a)
print(f"raw MP4: mean |H.264 - aooctnorm| = {mad:.3f} grey levels")
sys.exit(0 if mad < 3.0 else 1)
PY
  fi
  echo "$kind MP4: $n frames ${w}x${h}"
done
