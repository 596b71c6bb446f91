#!/usr/bin/env bash
# Recording: the reconstructed B-scans to two files at once (through tee):
#   OUTDIR/bscans.mp4  H.264 (High profile, 4:2:0) in MP4, for any video
#                      player, a slide or a web page (lossy);
#   OUTDIR/bscans.mkv  lossless, for analysis: FFV1 of the 16-bit GRAY16_LE
#                      images in Matroska (default), or with
#                      AOOCT_LOSSLESS=raw the 8-bit GRAY8 images as raw video
#                      in Matroska (needs no encoder).  Either decodes back
#                      to exactly the pixels aooctnorm produced.
# The source is the synthetic camera; for a real one replace aooctsrc by
# the camera's source (see pipelines/camera.sh), for a file by
# aooctfilesrc (see pipelines/file-volumes.sh).
#
#   pipelines/record.sh [OUTDIR]   (default: out/record)
#   AOOCT_BSCANS=N             B-scans to record (default 100)
#   AOOCT_LOSSLESS=ffv1|raw    lossless format (default ffv1: needs gst-libav)
#   AOOCT_TAP=FILE             also write aooctnorm's frames as they are
#                              (raw, frame after frame) to FILE, to compare
#   AOOCT_SKIP_BOOTSTRAP=1     use the aooct already on GST_PLUGIN_PATH
#                              (else: installs missing runtime packages only;
#                              build aooct first with scripts/bootstrap.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh)
aooct_extra_packages=(gstreamer1.0-plugins-ugly gstreamer1.0-libav)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"

out=${1:-$root/out/record}
n=${AOOCT_BSCANS:-100}
mkdir -p "$out"
rm -f "$out/bscans.mp4" "$out/bscans.mkv"

case ${AOOCT_LOSSLESS:-ffv1} in
  # FFV1 codes 16-bit grey losslessly; gop-size=1 makes every frame a
  # key frame, so each decodes (and seeks) on its own.
  ffv1) format=GRAY16_LE; lossless="avenc_ffv1 gop-size=1" ;;
  # matroskamux takes raw GRAY8 (not GRAY16) as uncompressed video
  raw) format=GRAY8; lossless="identity" ;;
  *) echo "AOOCT_LOSSLESS must be ffv1 or raw" >&2; exit 1 ;;
esac
# (an array: AOOCT_TAP's path is one argument, a space stays in it)
tap=(fakesink)
[ -z "${AOOCT_TAP:-}" ] || tap=(filesink location="$AOOCT_TAP")

gst-launch-1.0 -q -e \
  aooctsrc num-buffers="$n" calibration-file="$out/calibration.txt" \
  ! aooctdcsub ! aooctpad size=2048 factor=2 \
  ! aooctkmap wavelength-file="$out/calibration.txt" \
  ! aooctdisp a2=8 a3=-2 ! aooctfft ! aooctnorm dynamic-range=50 \
  ! "video/x-raw,format=$format" \
  ! tee name=t \
  t. ! queue ! videoconvert ! x264enc speed-preset=veryfast pass=quant quantizer=18 \
     ! video/x-h264,profile=high ! mp4mux ! filesink location="$out/bscans.mp4" \
  t. ! queue ! $lossless ! matroskamux ! filesink location="$out/bscans.mkv" \
  t. ! queue ! "${tap[@]}"

echo "aooct: $n B-scans recorded"
echo "  H.264 MP4:     $out/bscans.mp4"
echo "  lossless MKV:  $out/bscans.mkv ($format)"
