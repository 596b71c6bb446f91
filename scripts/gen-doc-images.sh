#!/usr/bin/env bash
# Makes the pictures of docs/howto.md: one B-scan of the demo's synthetic
# retina (aooctsrc seed=3), reconstructed as pipelines/demo.sh does, with
# and without dispersion compensation, depth rows 100..739.
#
#   GST_PLUGIN_PATH_1_0=BUILD/gst scripts/gen-doc-images.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cal=$(mktemp --suffix=.txt); trap 'rm -f "$cal"' EXIT
for v in "compensated 8 -2" "uncompensated 0 0"; do
  set -- $v
  gst-launch-1.0 -q aooctsrc num-buffers=1 seed=3 calibration-file="$cal" \
    ! aooctdcsub ! aooctpad size=2048 factor=2 ! aooctkmap wavelength-file="$cal" \
    ! aooctdisp a2="$2" a3="$3" ! aooctfft \
    ! aooctnorm dynamic-range=50 crop-start=100 crop-end=740 \
    ! pngenc compression-level=9 ! filesink location="$root/docs/img/bscan-$1.png"
done
ls -l "$root"/docs/img/bscan-*.png

# The views of one volume (100 B-scans) of the same retina (spec section
# 11; docs/howto.md, "Volumes and views"): en-face mean over the retina's
# depth, and the volume ray cast as MIP and as composite.
crop="crop-start=100 crop-end=700"
gst-launch-1.0 -q aooctsrc num-buffers=100 seed=3 calibration-file="$cal" \
  ! aooctdcsub ! aooctpad size=2048 factor=2 ! aooctkmap wavelength-file="$cal" \
  ! aooctdisp a2=8 a3=-2 ! aooctfft ! tee name=t \
  t. ! queue ! aooctenface bscans-per-volume=100 $crop dynamic-range=6 \
     ! pngenc compression-level=9 ! filesink location="$root/docs/img/views-enface.png" \
  t. ! queue ! aooctrender bscans-per-volume=100 $crop dynamic-range=40 \
     mode=mip azimuth=35 elevation=25 zoom=0.8 \
     ! pngenc compression-level=9 ! filesink location="$root/docs/img/views-mip.png" \
  t. ! queue ! aooctrender bscans-per-volume=100 $crop dynamic-range=40 \
     mode=composite azimuth=35 elevation=25 zoom=0.8 \
     ! pngenc compression-level=9 ! filesink location="$root/docs/img/views-composite.png"
ls -l "$root"/docs/img/views-*.png
