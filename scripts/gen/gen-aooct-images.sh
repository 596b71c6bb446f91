#!/usr/bin/env bash
# Makes the pictures of docs/aooct.md from pipelines/aooct.sh as a user
# runs it: a frame of its four panes (the moving retina averaged without
# and with aooctregister, the photoreceptors' kymograph after the flash,
# their layer en-face), docs/img/aooct-panes.png; and aooct-view's ORG tab
# on the same photoreceptors (the kymograph above the plotted trace),
# docs/img/aooct-view-org.png, under Xvfb.
#
#   GST_PLUGIN_PATH_1_0=BUILD/gst AOOCT_BUILD=BUILD scripts/gen/gen-aooct-images.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${AOOCT_BUILD:-$root/build}
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS=128 "$root/pipelines/aooct.sh" "$out/run" >"$out/log" 2>&1 ||
  { cat "$out/log"; exit 1; }
# a frame three quarters in: the kymograph holds the flash's response
gst-launch-1.0 -q filesrc location="$out/run/aooct.mp4" ! qtdemux ! avdec_h264 \
  ! videoconvert ! pngenc ! multifilesink location="$out/f-%03d.png"
n=$(find "$out" -name 'f-*.png' | wc -l)
cp "$(printf '%s/f-%03d.png' "$out" $((n * 3 / 4)))" "$root/docs/img/aooct-panes.png"

# aooct-view, ORG tab: the photoreceptors with the pipeline's windows
{
  printf '[source]\nkind=synthetic\nwidth=832\nheight=96\n'
  printf '[aooctsrc]\nis-live=true\nseed=11\nalines=96\nphantom=photoreceptors\norg-curvature=4\norg-bulk-amplitude=3\norg-bulk-period=37\norg-stimulus=30\n'
  printf '[aooctpad]\nsize=2048\n'
  printf '[aooctkmap]\nwavelength-coeffs=785,0.125,1e-05,-2e-09\n'
  printf '[aooctdisp]\na2=8\na3=-2\n'
  printf '[aooctorg]\nlayer-search-start=182\nlayer-search-end=203\nsecond-layer-min=16\nsecond-layer-max=28\nbaseline=30\ncenter-wavelength=840\nhistory=128\n'
  for e in aooctdcsub aooctpad aooctfft aooctnorm aooctorg; do printf '[%s]\nbackend=cpu\n' $e; done
  printf '[views]\nenabled=true\n'
} > "$out/org.ini"
printf 'expect-running\nshow org\nexpect-plot org 110\nwait-ms 500\nscreenshot %s\nquit\n' \
  "$out/org.png" > "$out/script.txt"
timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" "$build/viewer/aooct-view" \
  --sink gtksink --settings "$out/org.ini" --script "$out/script.txt" >"$out/view.log" 2>&1 ||
  { cat "$out/view.log"; exit 1; }
cp "$out/org.png" "$root/docs/img/aooct-view-org.png"
ls -l "$root"/docs/img/aooct-*.png
