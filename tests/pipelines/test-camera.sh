#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real GigE Vision stream into the chain: Aravis's fake camera
# (arv-fake-gv-camera-0.8) on loopback inside a private network namespace
# (unshare -n: nothing can leave it), read by pipelines/camera.sh with
# aravissrc ! aooctdcsub, 5 B-scans of 512 x 256 GRAY16_LE.  Checks that the
# camera delivered GRAY16_LE of that geometry, that all 5 frames came out of
# aooctnorm (tapped) with the right size, and that the lossless recording
# holds the same 5 frames.
# Exit 77 (skipped) unless root with unshare, ip, aravissrc, the fake
# camera and gst-libav.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

[ "$(id -u)" -eq 0 ] || { echo "needs root (unshare -n): skipped"; exit 77; }
for c in unshare ip arv-fake-gv-camera-0.8; do
  command -v $c >/dev/null || { echo "$c missing: skipped"; exit 77; }
done
for e in aravissrc avenc_ffv1 avdec_ffv1; do
  gst-inspect-1.0 $e >/dev/null 2>&1 || { echo "$e missing: skipped"; exit 77; }
done
unshare -n true 2>/dev/null || { echo "unshare -n not permitted here: skipped"; exit 77; }

if [ "${1:-}" != --inside ]; then
  exec unshare -n "$0" --inside
fi

# --- inside the namespace: only lo exists ---
out=$(mktemp -d)
cam=
cleanup() { [ -z "$cam" ] || kill "$cam" 2>/dev/null || true; rm -rf "$out"; }
trap cleanup EXIT
ip link set lo up
[ "$(ip -o link show | grep -vc ': lo:')" -eq 0 ] || { echo "namespace has more than lo"; exit 1; }
arv-fake-gv-camera-0.8 -i 127.0.0.1 >"$out/camera.log" 2>&1 &
cam=$!
sleep 1
kill -0 $cam || { cat "$out/camera.log"; echo "fake camera did not start"; exit 1; }

n=5 w=256 h=1024   # 256 A-lines; 512 samples padded to 2048 -> 1024 depth rows
AOOCT_SKIP_BOOTSTRAP=1 AOOCT_CAMERA=127.0.0.1 AOOCT_BSCANS=$n AOOCT_SAMPLES=512 \
  AOOCT_ALINES=256 AOOCT_VIDEOSINK=fakesink AOOCT_TAP="$out/tap" GST_DEBUG=aravis*:0 \
  timeout 60 "$root/pipelines/camera.sh" "$out/camera.mkv" >"$out/log" 2>&1 ||
  { cat "$out/log"; exit 1; }
[ "$(stat -c %s "$out/tap")" -eq $((n * w * h * 2)) ] ||
  { echo "aooctnorm gave $(stat -c %s "$out/tap") bytes, expected $n frames of ${w}x${h} GRAY16_LE"; exit 1; }
gst-launch-1.0 -q filesrc location="$out/camera.mkv" ! matroskademux ! avdec_ffv1 \
  ! "video/x-raw,format=GRAY16_LE,width=$w,height=$h" ! filesink location="$out/dec"
cmp "$out/tap" "$out/dec" || { echo "camera.mkv does not hold aooctnorm's frames"; exit 1; }
# the camera's own caps, as aravissrc negotiated them
GST_PLUGIN_PATH_1_0=${GST_PLUGIN_PATH_1_0:-} timeout 30 gst-launch-1.0 -v aravissrc camera-name=127.0.0.1 \
  num-buffers=1 ! video/x-raw,format=GRAY16_LE,width=512,height=256 ! aooctdcsub ! fakesink \
  >"$out/caps" 2>&1 || { cat "$out/caps"; exit 1; }
grep -q 'aravis0.GstPad:src: caps = video/x-raw, format=(string)GRAY16_LE, width=(int)512, height=(int)256' "$out/caps" ||
  { cat "$out/caps"; echo "aravissrc did not deliver GRAY16_LE 512x256"; exit 1; }
echo "camera: fake GigE Vision camera, GRAY16_LE 512x256 into aooctdcsub, $n frames of ${w}x${h} out of aooctnorm, recorded bit-exact"
