#!/usr/bin/env bash
# Makes the pictures of docs/howto.md: one B-scan of the demo's synthetic
# retina (aooctsrc seed=3), reconstructed as pipelines/demo.sh does, with
# and without dispersion compensation, depth rows 100..739; the views of
# one volume of it (en-face, MIP, composite); the first B-scan of
# pipelines/fullrange.sh (standard and complex full range side by side),
# docs/img/fullrange-retina.png; and the README's screenshot of aooct-view
# (docs/img/aooct-view.png), taken under Xvfb after tuning a2/a3 and the
# crop through its controls.
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

# The first B-scan of pipelines/fullrange.sh (standard and complex full
# range side by side, spec section 9).
out=$(mktemp -d); trap 'rm -f "$cal"; rm -rf "$out"' EXIT
AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS=1 "$root/pipelines/fullrange.sh" "$out" >/dev/null
cp "$out/bscan-000.png" "$root/docs/img/fullrange-retina.png"
ls -l "$root"/docs/img/fullrange-retina.png

view=${AOOCT_BUILD:-$root/build}/viewer/aooct-view
if [ -x "$view" ] && command -v xvfb-run >/dev/null; then
  script=$(mktemp); trap 'rm -f "$cal" "$script"; rm -rf "$out"' EXIT
  cat > "$script" <<END
set aooctsrc seed 3
wait-frames 3
set aooctdisp a2 8
set aooctdisp a3 -2
set aooctnorm crop-start 100
set aooctnorm crop-end 740
wait-frames 3
wait-ms 2500
screenshot $root/docs/img/aooct-view.png
quit
END
  xvfb-run -a -s "-screen 0 1280x800x24" "$view" --script "$script"
  ls -l "$root/docs/img/aooct-view.png"
fi
