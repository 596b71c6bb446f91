#!/usr/bin/env bash
# Demo: the synthetic AO-OCT camera (aooctsrc, retina phantom) through the
# whole chain -- DC subtraction, zero-padding 2048 -> 4096, lambda-to-k
# resampling, dispersion compensation, FFT, log normalisation -- to PNG
# B-scans and an H.264 MP4 video.  Installs and builds what is missing first.
#
#   pipelines/demo.sh [OUTDIR]     (default: out/demo)
#   AOOCT_BSCANS=N                 number of B-scans (default 100)
#   AOOCT_SKIP_BOOTSTRAP=1         use the aooct already on GST_PLUGIN_PATH
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../scripts/bootstrap.sh
# (the demo does not need ray, tools/aooct-batch's large wheel)
[ -n "${AOOCT_SKIP_BOOTSTRAP:-}" ] || AOOCT_NO_RAY=${AOOCT_NO_RAY-1} source "$root/scripts/bootstrap.sh"

out=${1:-$root/out/demo}
n=${AOOCT_BSCANS:-100}
mkdir -p "$out"
rm -f "$out"/bscan-*.png "$out/demo.mp4"

# aooctsrc writes its wavelength calibration to calibration.txt when it
# starts; aooctkmap reads it when the caps arrive, so one pipeline does both.
# a2=8 a3=-2 are aooctsrc's default dispersion-a2/-a3: they cancel its
# dispersion mismatch.
gst-launch-1.0 -q -e \
  aooctsrc num-buffers="$n" calibration-file="$out/calibration.txt" \
  ! aooctdcsub \
  ! aooctpad size=2048 factor=2 \
  ! aooctkmap wavelength-file="$out/calibration.txt" \
  ! aooctdisp a2=8 a3=-2 \
  ! aooctfft \
  ! aooctnorm dynamic-range=50 \
  ! tee name=t \
  t. ! queue ! pngenc ! multifilesink location="${out//%/%%}/bscan-%05d.png" \
  t. ! queue ! videoconvert ! x264enc speed-preset=veryfast pass=quant quantizer=18 \
     ! video/x-h264,profile=high ! mp4mux ! filesink location="$out/demo.mp4"

echo "aooct demo: $n B-scans reconstructed"
echo "  PNG B-scans: $out/bscan-00000.png ... (one per B-scan)"
echo "  video:       $out/demo.mp4"
echo "  calibration: $out/calibration.txt"
