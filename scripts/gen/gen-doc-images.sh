#!/usr/bin/env bash
# Makes the pictures of docs/howto.md: one B-scan of the demo's synthetic
# retina (aooctsrc seed=3), reconstructed as pipelines/demo.sh does, with
# and without dispersion compensation, depth rows 100..739; the views of
# one volume of it (en-face, MIP, composite); the first B-scan of
# pipelines/fullrange.sh (standard and complex full range side by side),
# docs/img/fullrange-retina.png; the flow pictures of docs/flow.md (the
# last frame and an en-face angiogram of pipelines/flow.sh, one group's
# angiogram by both methods); and the README's screenshot of aooct-view
# (docs/img/aooct-view.png), taken under Xvfb after tuning a2/a3 and the
# crop through its controls.
#
#   GST_PLUGIN_PATH_1_0=BUILD/gst scripts/gen/gen-doc-images.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
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

# Flow (docs/flow.md): one volume of 60 positions x 4 repeats of
# pipelines/flow.sh, its last frame (the four panes) and its en-face
# angiogram; one group's angiogram as decorrelation and speckle variance.
AOOCT_SKIP_BOOTSTRAP=1 AOOCT_POSITIONS=60 AOOCT_BSCANS=240 \
  "$root/pipelines/flow.sh" "$out/flow" >/dev/null
cp "$out/flow/flow-panes.png" "$root/docs/img/flow-panes.png"
cp "$out/flow/enface-angio-00.png" "$root/docs/img/flow-enface-angio.png"
# (an array: the calibration's path one argument, whatever TMPDIR holds)
camera=(seed=31 speckle-width=3 vessel-count=2 repeats=4 calibration-file="$cal")
"${AOOCT_BUILD:-$root/build}/tools/aooct-background" --frames=8 \
  --output="$out/bg.txt" aooctsrc num-buffers=8 reflectivity=0 "${camera[@]}" >/dev/null
for method in decorrelation speckle-variance; do
  gst-launch-1.0 -q aooctsrc num-buffers=4 "${camera[@]}" \
    ! aooctdcsub mode=background background-file="$out/bg.txt" ! aooctpad \
    ! aooctkmap wavelength-file="$cal" ! aooctdisp a2=8 a3=-2 ! aooctfft \
    ! aooctangio repeats=4 method=$method crop-start=100 crop-end=560 \
    ! pngenc compression-level=9 \
    ! filesink location="$root/docs/img/flow-angio-$method.png"
done
ls -l "$root"/docs/img/flow-*.png

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
