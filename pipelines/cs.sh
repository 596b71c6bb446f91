#!/usr/bin/env bash
# Compressive sensing (spec section 10, aooctcs): the synthetic camera's
# retina recorded to a raw file, 40 % of its pixels kept (the mask drawn by
# aooctcs, the file cut down by scripts/gen/aooct-undersample.py, as a camera
# reading out only those pixels would record it), and the B-scans
# reconstructed twice, written side by side as one PNG per B-scan: left
# the full spectrum by the exact non-uniform DFT (aooctkmap
# interpolation=nudft ! aooctdisp ! aooctfft), right aooctcs from the
# 40 % file (SpaRSA, 15 iterations, operator=nufft).  Both 1024 samples,
# 512 depth rows.
#
#   pipelines/cs.sh [OUTDIR]                (default OUTDIR: out/cs)
#   AOOCT_BSCANS=B          B-scans (default 3)
#   AOOCT_FRACTION=F        fraction of the pixels kept (default 0.4)
#   AOOCT_TAU=T             aooctcs tau (default 0.01)
#   AOOCT_SKIP_BOOTSTRAP=1  use the aooct already on GST_PLUGIN_PATH
#                           (else: installs missing runtime packages only;
#                           build aooct first with scripts/bootstrap.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"

out=${1:-$root/out/cs}
b=${AOOCT_BSCANS:-3}
n=1024
m=240
frac=${AOOCT_FRACTION:-0.4}
tau=${AOOCT_TAU:-0.01}
cal="800,0.078125,4.76837158203125e-06"
mkdir -p "$out"
rm -f "$out"/bscan-*.png

# the camera: N pixels per A-line
gst-launch-1.0 -q aooctsrc num-buffers="$b" seed=7 samples=$n alines=$m \
  wavelength-coeffs="$cal" center-wavelength=842 \
  ! filesink location="$out/full.raw"
# the mask aooctcs draws for this N and fraction (written, then cut)
gst-launch-1.0 -q aooctsrc num-buffers=1 samples=$n alines=4 \
  wavelength-coeffs="$cal" ! aooctdcsub \
  ! aooctcs wavelength-coeffs="$cal" mask-fraction="$frac" \
    mask-output-file="$out/mask.txt" ! fakesink
python3 "$root/scripts/gen/aooct-undersample.py" "$out/full.raw" $n \
  "$out/mask.txt" "$out/cs.raw"
u=$(grep -vc '^#' "$out/mask.txt")

gst-launch-1.0 -q \
  compositor name=mix background=black sink_1::xpos=$((m + 8)) \
  ! video/x-raw,format=GRAY8,width=$((2 * m + 8)),height=$((n / 2)) \
  ! pngenc ! multifilesink location="${out//%/%%}/bscan-%03d.png" \
  aooctfilesrc location="$out/full.raw" format=gray16-le width=$n \
    height=$m framerate=10/1 \
  ! aooctdcsub ! aooctkmap wavelength-coeffs="$cal" interpolation=nudft \
  ! aooctdisp a2=8 a3=-2 ! aooctfft ! aooctnorm dynamic-range=50 \
  ! video/x-raw,format=GRAY8 ! mix.sink_0 \
  aooctfilesrc location="$out/cs.raw" format=gray16-le width="$u" \
    height=$m framerate=10/1 \
  ! aooctdcsub ! aooctcs wavelength-coeffs="$cal" camera-pixels=$n \
    mask-file="$out/mask.txt" a2=8 a3=-2 tau="$tau" \
  ! aooctnorm dynamic-range=50 ! video/x-raw,format=GRAY8 ! mix.sink_1

echo "aooct: $b B-scans, full-spectrum NUDFT (left) and aooctcs from $u of" \
  "$n pixels (right) in $out/bscan-*.png"
